package store

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/scenarios"
	"yarnplay/scenarios/lessons"
)

// twoQueues is a small scenario: a (60%) and b (40%) on two nodes.
const twoQueues = `
name: two queues
config:
  yarn.scheduler.capacity.root.queues: a,b
  yarn.scheduler.capacity.root.a.capacity: 60
  yarn.scheduler.capacity.root.a.user-limit-factor: 2
  yarn.scheduler.capacity.root.b.capacity: 40
nodes:
  - {name: "n{i}", count: 2, memory_mb: 8192, vcores: 8}
steps:
  - submit: {app: app_1, user: alice, queue: a}
    note: alice submits.
  - request: {app: app_1, priority: 1, resource: {memory_mb: 2048, vcores: 1}, count: 4}
  - heartbeat: n0
  - tick: 2
  - submit: {app: app_2, user: bob, queue: b}
  - request: {app: app_2, priority: 1, resource: {memory_mb: 1024, vcores: 1}, count: 2}
  - heartbeat: [n0, n1]
`

func parse(t testing.TB, text string) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Parse("test.yaml", []byte(text))
	require.NoError(t, err)
	return sc
}

func loaded(t testing.TB, text string) *Store {
	t.Helper()
	s := New()
	require.NoError(t, s.Load(parse(t, text), ""))
	return s
}

// frameJSON is a frame as JSON, for exact comparisons.
func frameJSON(t testing.TB, f *Frame) string {
	t.Helper()
	data, err := json.Marshal(f)
	require.NoError(t, err)
	return string(data)
}

// docJSON is the work in progress as canonical JSON.
func docJSON(t testing.TB, s *Store) string {
	t.Helper()
	data, err := s.Scenario().CanonicalJSON()
	require.NoError(t, err)
	return string(data)
}

func TestLoadPublishesTheStart(t *testing.T) {
	s := loaded(t, twoQueues)
	f := s.Frame()
	require.Equal(t, 0, f.Step)
	require.Equal(t, 7, f.Steps)
	require.Equal(t, "start: 2 nodes, 3 queues", f.Label)
	require.Equal(t, []string{"root", "root.a", "root.b"}, paths(f))
	require.Len(t, f.Nodes, 2)
	require.Equal(t, int64(16384), f.Cluster.MemoryMB)
	require.Equal(t, int64(1024), f.MinAlloc.MemoryMB)
	require.Len(t, f.History, 1)
	require.Equal(t, "two queues", f.Title)
	require.Equal(t, "n0", f.NextNode)
	require.Equal(t, []string{"alice", "bob"}, f.Users)
	require.Empty(t, f.Err)
}

func paths(f *Frame) []string {
	var out []string
	for _, q := range f.Queues {
		out = append(out, q.Path)
	}
	return out
}

func TestStepsPublishWhatTheCoreDid(t *testing.T) {
	s := loaded(t, twoQueues)
	s.Jump(1)
	f := s.Frame()
	require.Equal(t, "step 1: scenario action: alice submits app_1 to a (no AM)", f.Label)
	require.Equal(t, "alice submits.", f.Note)
	require.Equal(t, "submit", f.Kind)
	require.Equal(t, []string{"submit"}, f.History[1].Marks)

	s.Jump(3)
	f = s.Frame()
	require.Equal(t, "step 3: heartbeat of n0", f.Label)
	require.Equal(t, "n0", f.HeartbeatNode)
	require.Equal(t, "n1", f.NextNode)
	require.NotEmpty(t, f.Narration)
	require.Equal(t, []AppVisit{{App: "app_1", User: "alice", Outcome: OutcomeAllocated}}, f.Walk["root.a"])
	require.Equal(t, int64(2048), queue(f, "root.a").Used.MemoryMB)
	require.Len(t, f.History, 4)
	require.Equal(t, int64(2048), f.History[3].Used[1].MemoryMB, "History.Used is aligned with Queues")
	require.Equal(t, int64(0), f.History[2].Used[1].MemoryMB)

	s.Jump(7)
	f = s.Frame()
	require.Equal(t, int64(2048), queue(f, "root.b").Used.MemoryMB)
	// b is under its guarantee and goes first on n0.
	require.Equal(t, OutcomeAllocated, f.Walk["root.b"][0].Outcome)
}

func queue(f *Frame, path string) core.QueueView {
	for _, q := range f.Queues {
		if q.Path == path {
			return q
		}
	}
	panic("no queue " + path)
}

func TestSelectionGivesTheFormulas(t *testing.T) {
	s := loaded(t, twoQueues)
	s.Jump(4)
	s.Select("root.a")
	f := s.Frame()
	require.Equal(t, "root.a", f.Selected)
	require.NotNil(t, f.UserLimit)
	require.NotNil(t, f.AMLimit)
	require.Equal(t, float32(2), f.UserLimit.UserLimitFactor)
	s.SelectUser("alice")
	require.Equal(t, "alice", s.Frame().SelectedUser)

	s.Select("root")
	require.Nil(t, s.Frame().UserLimit, "a parent has no user limit")
	s.Select("root.nope")
	require.Equal(t, "root", s.Frame().Selected, "an unknown queue is refused")
	require.Contains(t, s.Frame().Err, "no queue root.nope")
}

// TestUndoIsExact plays random scenarios forward, recording every frame,
// then goes to the end and back one step at a time (and by jumps): every
// frame must be the same, as JSON.
func TestUndoIsExact(t *testing.T) {
	for seed := range uint64(6) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			sc := randomScenario(rand.New(rand.NewPCG(seed, 7)), 40)
			s := New()
			require.NoError(t, s.Load(sc, ""))
			var forward []string
			for k := 0; k <= len(sc.Steps); k++ {
				s.Jump(k)
				forward = append(forward, frameJSON(t, s.Frame()))
			}
			s.Last()
			for k := len(sc.Steps); k >= 0; k-- {
				require.Equal(t, forward[k], frameJSON(t, s.Frame()), "step %d going back", k)
				s.Back()
			}
			r := rand.New(rand.NewPCG(seed, 8))
			for range 20 {
				k := r.IntN(len(sc.Steps) + 1)
				s.Jump(k)
				require.Equal(t, forward[k], frameJSON(t, s.Frame()), "step %d by jump", k)
			}
		})
	}
}

// randomScenario builds a valid scenario of n steps on two leaves.
func randomScenario(r *rand.Rand, n int) *scenarios.Scenario {
	sc := &scenarios.Scenario{
		Version: 1, Name: "random",
		Config: map[string]string{
			"yarn.scheduler.capacity.root.queues":                       "a,b",
			"yarn.scheduler.capacity.root.a.capacity":                   "30",
			"yarn.scheduler.capacity.root.a.maximum-capacity":           "80",
			"yarn.scheduler.capacity.root.b.capacity":                   "70",
			"yarn.scheduler.capacity.root.b.minimum-user-limit-percent": "50",
		},
		Nodes: []scenarios.NodeSpec{{Name: "n{i}", Count: 3, MemoryMB: 8192, VCores: 8}},
	}
	var apps []string
	users := []string{"ann", "bo", "cy"}
	for len(sc.Steps) < n {
		var st scenarios.Step
		switch k := r.IntN(10); {
		case k < 2 || len(apps) == 0:
			id := fmt.Sprintf("app_%d", len(apps)+1)
			apps = append(apps, id)
			q := []string{"a", "b"}[r.IntN(2)]
			am := &scenarios.Res{MemoryMB: 1024, VCores: 1}
			st.Submit = &scenarios.Submit{App: id, User: users[r.IntN(3)], Queue: q, AM: am}
		case k < 4:
			st.Request = scenarios.Asks{{App: apps[r.IntN(len(apps))], Priority: 1,
				Resource: scenarios.Res{MemoryMB: int64(1024 * (1 + r.IntN(3))), VCores: 1},
				Count:    r.IntN(6), Duration: int64(r.IntN(4))}}
		case k < 7:
			st.Heartbeat = scenarios.Heartbeats{{Node: fmt.Sprintf("n%d", r.IntN(3))}}
		case k < 9:
			one := 1
			st.Tick = &one
		default:
			st.FinishContainer = &scenarios.FinishContainer{App: apps[r.IntN(len(apps))], Count: 1}
			st.Error = nil
		}
		sc.Steps = append(sc.Steps, st)
	}
	// A random finish_container may fail (nothing to finish): keep only the
	// steps that succeed, so that the scenario is a valid one.
	p, err := scenarios.NewPlayer(sc)
	if err != nil {
		panic(err)
	}
	var ok []scenarios.Step
	for !p.Done() {
		i := p.Pos()
		if res := p.Next(); res.Err == nil {
			ok = append(ok, sc.Steps[i])
		}
	}
	sc.Steps = ok
	return sc
}

func TestLessonsPlayBackAndForth(t *testing.T) {
	for _, l := range lessons.All() {
		t.Run(l.Slug, func(t *testing.T) {
			sc, err := lessons.Load(l.Slug)
			require.NoError(t, err)
			s := New()
			require.NoError(t, s.Load(sc, l.Slug))
			s.Last()
			end := frameJSON(t, s.Frame())
			mid := len(sc.Steps) / 2
			s.Jump(mid)
			at := frameJSON(t, s.Frame())
			s.First()
			s.Jump(mid)
			require.Equal(t, at, frameJSON(t, s.Frame()))
			s.Last()
			require.Equal(t, end, frameJSON(t, s.Frame()))
			require.Empty(t, s.Frame().Check, "the lesson's expectations hold")
		})
	}
}

// TestUsersFollowEveryChangeOfTheSteps checks the users a frame lists, whose
// steps' part is kept from frame to frame (stepUsers), against the users
// read afresh, through every way the work's steps change.
func TestUsersFollowEveryChangeOfTheSteps(t *testing.T) {
	s := loaded(t, twoQueues)
	check := func(what string) {
		t.Helper()
		fresh := stepUsers{}
		set := map[string]bool{}
		for u := range fresh.read(s.doc.Steps) {
			set[u] = true
		}
		for u := range s.doc.Groups {
			set[u] = true
		}
		for _, a := range s.Frame().Apps {
			set[a.User] = true
		}
		want := append([]string{}, slices.Sorted(maps.Keys(set))...)
		require.Equal(t, want, s.Frame().Users, what)
	}
	check("loaded")
	s.Last()
	require.NoError(t, s.Submit(scenarios.Submit{User: "carol", Queue: "a"}))
	check("a step added at the end, in place")
	require.NoError(t, s.Submit(scenarios.Submit{User: "dave", Queue: "b"}))
	check("another in place")
	s.Back()
	s.Back()
	require.NoError(t, s.Submit(scenarios.Submit{User: "erin", Queue: "a"}))
	check("a step added before the end (a copy)")
	require.NotContains(t, s.Frame().Users, "dave", "dave's step is gone")
	require.Error(t, s.Submit(scenarios.Submit{User: "frank", Queue: "nowhere"}))
	check("a refused step")
	require.NotContains(t, s.Frame().Users, "frank")
	s.First()
	require.NoError(t, s.Fork())
	check("forked at the start")
	require.NoError(t, s.SetGroups("gina", []string{"ops"}))
	check("a user with groups")
	require.Contains(t, s.Frame().Users, "gina")
	require.NoError(t, s.Load(parse(t, twoQueues), ""))
	check("another work")
}
