package store

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core/config"
	"yarnplay/scenarios"
	"yarnplay/wasm/bridge"
)

func TestLinkRoundTrip(t *testing.T) {
	s := loaded(t, twoQueues)
	s.Jump(5)
	require.NoError(t, s.Tick(1)) // the work differs from the file now
	s.Select("root.a")
	want := frameJSON(t, s.Frame())
	link, err := s.Link()
	require.NoError(t, err)
	require.Contains(t, link, "&t=6&sel=root.a")

	other := New()
	require.NoError(t, other.OpenLink("#"+link))
	f := *other.Frame()
	f.Revision = 1 // the opened link is fresh work
	require.Equal(t, want, frameJSON(t, &f))
}

// The link of each step names the same scenario, encoded once while the
// work is the same; a change to the work encodes it again.
func TestLinksOfTheSameWorkShareItsEncoding(t *testing.T) {
	s := loaded(t, twoQueues)
	s.Jump(5)
	at5, err := s.Link()
	require.NoError(t, err)
	s.Jump(3)
	at3, err := s.Link()
	require.NoError(t, err)
	payload := func(link string) string { return link[:strings.Index(link, "&t=")] }
	require.Equal(t, payload(at5), payload(at3))
	require.Contains(t, at3, "&t=3")

	require.NoError(t, s.Tick(1)) // a new step after step 3: the work differs
	changed, err := s.Link()
	require.NoError(t, err)
	require.NotEqual(t, payload(at3), payload(changed))
	other := New()
	require.NoError(t, other.OpenLink("#"+changed))
	require.Equal(t, s.Frame().Steps, other.Frame().Steps)
	require.Equal(t, 4, other.Frame().Step)
}

func TestYAMLRoundTrip(t *testing.T) {
	s := loaded(t, twoQueues)
	require.NoError(t, s.Submit(scenarios0Submit()))
	data, err := s.ExportYAML()
	require.NoError(t, err)
	other := New()
	require.NoError(t, other.ImportScenario("work.yaml", data))
	require.Equal(t, docJSON(t, s), docJSON(t, other))
	require.Equal(t, 0, other.Frame().Step)
}

func TestXMLImportAndExport(t *testing.T) {
	s := loaded(t, twoQueues)
	s.Jump(3)
	xml := s.ExportXML()
	c, err := config.ParseXML(xml)
	require.NoError(t, err)
	require.Equal(t, s.Frame().Conf, c.Map())

	imported := []byte(`<?xml version="1.0"?>
<configuration>
  <property><name>yarn.scheduler.capacity.root.queues</name><value>a,b,c</value></property>
  <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property>
  <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>30</value></property>
  <property><name>yarn.scheduler.capacity.root.c.capacity</name><value>20</value></property>
</configuration>`)
	require.NoError(t, s.ImportXML(imported))
	f := s.Frame()
	require.Equal(t, 0, f.Step, "the configuration is the start's")
	require.Equal(t, 7, f.Steps, "the workload stays")
	require.Equal(t, []string{"root", "root.a", "root.b", "root.c"}, paths(f))
	require.Empty(t, s.Scenario().ConfigXML)
}

func TestSaveAndRestore(t *testing.T) {
	st := bridge.NewMemoryStorage()
	fresh := New()
	ok, err := fresh.Restore(st)
	require.NoError(t, err)
	require.False(t, ok, "nothing saved yet")

	s := loaded(t, twoQueues)
	s.lesson = "two-queues"
	s.Jump(6)
	require.NoError(t, s.Heartbeat("n1"))
	s.Select("root.b")
	require.NoError(t, s.Save(st))
	want := frameJSON(t, s.Frame())

	lesson, ok := SavedLesson(st)
	require.True(t, ok)
	require.Equal(t, "two-queues", lesson)

	ok, err = fresh.Restore(st)
	require.NoError(t, err)
	require.True(t, ok)
	f := *fresh.Frame()
	f.Revision = 1
	require.Equal(t, want, frameJSON(t, &f))
}

// Work grown past scenarios.MaxFileBytes (the bound of links and files
// from elsewhere) by playing it is saved and opens again.
func TestSaveAndRestoreWorkPastTheFileLimit(t *testing.T) {
	s := loaded(t, twoQueues)
	big := *s.Scenario()
	note := strings.Repeat("n", 240)
	for range 20_000 {
		big.Steps = append(big.Steps, scenarios.Step{Heartbeat: scenarios.Heartbeats{{Node: "n1"}}, Note: note})
	}
	data, err := big.CanonicalJSON()
	require.NoError(t, err)
	require.Greater(t, len(data), scenarios.MaxFileBytes)
	require.NoError(t, s.Load(&big, ""))
	s.Jump(12)

	st := bridge.NewMemoryStorage()
	require.NoError(t, s.Save(st))
	fresh := New()
	ok, err := fresh.Restore(st)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, 12, fresh.Step())
	require.Equal(t, docJSON(t, s), docJSON(t, fresh))
}

func TestRestoreRefusesDamagedWork(t *testing.T) {
	for name, value := range map[string]string{
		"not JSON":       "{",
		"another format": `{"v":2,"link":"s=1.x"}`,
		"a bad link":     `{"v":1,"link":"s=1.%%%"}`,
	} {
		t.Run(name, func(t *testing.T) {
			st := bridge.NewMemoryStorage()
			require.NoError(t, st.Set(SaveKey, value))
			s := loaded(t, twoQueues)
			doc := docJSON(t, s)
			ok, err := s.Restore(st)
			require.Error(t, err)
			require.False(t, ok)
			require.Equal(t, doc, docJSON(t, s))
			require.NotEmpty(t, s.Frame().Err)
		})
	}
}

type failingStorage struct{}

func (failingStorage) Get(string) (string, bool, error) { return "", false, errors.New("denied") }
func (failingStorage) Set(string, string) error         { return errors.New("QuotaExceededError") }

func TestStorageErrors(t *testing.T) {
	s := loaded(t, twoQueues)
	require.ErrorContains(t, s.Save(failingStorage{}), "QuotaExceededError")
	_, err := s.Restore(failingStorage{})
	require.ErrorContains(t, err, "denied")
	require.Equal(t, 7, s.Frame().Steps)
}

func scenarios0Submit() scenarios.Submit {
	return scenarios.Submit{App: "app_9", User: "dan", Queue: "b", AM: &scenarios.Res{MemoryMB: 1024, VCores: 1}}
}

// Works changes when an action replaces the work or starts it again, and
// not when one plays or edits it, nor when an action is refused.
func TestWorksCountsReplacements(t *testing.T) {
	src := loaded(t, twoQueues)
	src.Jump(3)
	link, err := src.Link()
	require.NoError(t, err)
	yaml, err := src.ExportYAML()
	require.NoError(t, err)
	st := bridge.NewMemoryStorage()
	require.NoError(t, src.Save(st))
	xml := []byte(`<configuration>
  <property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>
  <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property>
  <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>50</value></property>
</configuration>`)

	for _, tt := range []struct {
		name     string
		act      func(t *testing.T, s *Store)
		replaces bool
	}{
		{"load", func(t *testing.T, s *Store) { require.NoError(t, s.Load(Blank(), "")) }, true},
		{"reset", func(t *testing.T, s *Store) { s.Reset() }, true},
		{"a link", func(t *testing.T, s *Store) { require.NoError(t, s.OpenLink(link)) }, true},
		{"a scenario file", func(t *testing.T, s *Store) { require.NoError(t, s.ImportScenario("w.yaml", yaml)) }, true},
		{"a capacity-scheduler.xml", func(t *testing.T, s *Store) { require.NoError(t, s.ImportXML(xml)) }, true},
		{"the saved work", func(t *testing.T, s *Store) {
			ok, err := s.Restore(st)
			require.NoError(t, err)
			require.True(t, ok)
		}, true},

		{"steps", func(t *testing.T, s *Store) {
			s.Jump(2)
			require.True(t, s.PlayStep())
			s.Last()
			require.NoError(t, s.Tick(1))
		}, false},
		{"an edit", func(t *testing.T, s *Store) { require.NoError(t, s.Fork()) }, false},
		{"a selection", func(t *testing.T, s *Store) { s.Select("root.a") }, false},
		{"a refused link", func(t *testing.T, s *Store) { require.Error(t, s.OpenLink("s=1.@@@")) }, false},
		{"a refused file", func(t *testing.T, s *Store) { require.Error(t, s.ImportScenario("w.yaml", []byte("version: 9"))) }, false},
		{"a refused XML", func(t *testing.T, s *Store) { require.Error(t, s.ImportXML([]byte("<configuration><property>"))) }, false},
		{"an XML Hadoop refuses", func(t *testing.T, s *Store) {
			require.Error(t, s.ImportXML([]byte(`<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property>
<property><name>yarn.scheduler.capacity.root.a.capacity</name><value>60</value></property></configuration>`)))
		}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := loaded(t, twoQueues)
			s.Jump(1)
			before := s.Works()
			tt.act(t, s)
			if tt.replaces {
				require.NotEqual(t, before, s.Works())
			} else {
				require.Equal(t, before, s.Works())
			}
		})
	}
}
