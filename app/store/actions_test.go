package store

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core/config"
	"yarnplay/scenarios"
)

func TestActionsAddSteps(t *testing.T) {
	two := 2
	tests := []struct {
		name string
		act  func(s *Store) error
		// kind is the step added; steps the scenario's length after it.
		kind  string
		steps int
		check func(t *testing.T, f *Frame)
	}{
		{"submit", func(s *Store) error {
			return s.Submit(scenarios.Submit{User: "carol", Queue: "b", AM: &scenarios.Res{MemoryMB: 1024, VCores: 1}})
		}, "submit", 5, func(t *testing.T, f *Frame) {
			require.Equal(t, "app_3", f.Apps[len(f.Apps)-1].ID)
			require.Contains(t, f.Users, "carol")
		}},
		{"request", func(s *Store) error {
			return s.Request(scenarios.Ask{App: "app_1", Priority: 2, Resource: scenarios.Res{MemoryMB: 1024}, Count: 3})
		}, "request", 5, nil},
		{"heartbeat of the next node", func(s *Store) error { return s.Heartbeat("") }, "heartbeat", 5,
			func(t *testing.T, f *Frame) { require.Equal(t, "n0", f.HeartbeatNode, "the tick ended with n1") }},
		{"tick", func(s *Store) error { return s.Tick(2) }, "tick", 5,
			func(t *testing.T, f *Frame) { require.Equal(t, int64(4), f.Tick) }},
		{"finish containers", func(s *Store) error { return s.FinishContainers("app_1", 1, "") }, "finish_container", 5, nil},
		{"finish app", func(s *Store) error { return s.FinishApp("app_1") }, "finish_app", 5,
			func(t *testing.T, f *Frame) { require.Equal(t, "FINISHED", string(f.Apps[0].State)) }},
		{"kill app", func(s *Store) error { return s.KillApp("app_1", "alice") }, "kill_app", 5,
			func(t *testing.T, f *Frame) { require.Equal(t, "KILLED", string(f.Apps[0].State)) }},
		{"add node later", func(s *Store) error {
			return s.AddNodes(scenarios.NodeSpec{Name: "big", Count: 2, MemoryMB: 16384, VCores: 16})
		}, "add_node", 5, func(t *testing.T, f *Frame) {
			require.Len(t, f.Nodes, 4)
			require.Equal(t, "big0", f.Nodes[2].Name)
		}},
		{"remove node later", func(s *Store) error { return s.RemoveNode("n1") }, "remove_node", 5,
			func(t *testing.T, f *Frame) { require.Len(t, f.Nodes, 1) }},
		{"forward at the end heartbeats", func(s *Store) error {
			if err := s.Fork(); err != nil {
				return err
			}
			return s.Forward()
		}, "heartbeat", 5, nil},
		{"forward tick at the end ticks", func(s *Store) error {
			if err := s.Fork(); err != nil {
				return err
			}
			return s.ForwardTick()
		}, "tick", 5, nil},
		{"act", func(s *Store) error { return s.Act(scenarios.Step{Tick: &two}) }, "tick", 5, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := loaded(t, twoQueues)
			s.Jump(4)
			// Standing on step 4 of 7: acting replaces steps 5..7.
			require.NoError(t, tt.act(s))
			f := s.Frame()
			require.Empty(t, f.Err)
			require.Equal(t, 5, f.Step)
			require.Equal(t, tt.steps, f.Steps)
			require.Equal(t, tt.kind, f.Kind)
			require.Positive(t, f.Revision)
			if tt.check != nil {
				tt.check(t, f)
			}
		})
	}
}

// TestRefusalsChangeNothing: a refused action leaves the work, the step and
// the frame as they were, and says why in Frame.Err.
func TestRefusalsChangeNothing(t *testing.T) {
	tests := []struct {
		name string
		act  func(s *Store) error
		want string
	}{
		{"submit to a parent", func(s *Store) error {
			return s.Submit(scenarios.Submit{User: "u", Queue: "root"})
		}, "non-leaf"},
		{"submit to nowhere", func(s *Store) error { return s.Submit(scenarios.Submit{User: "u", Queue: "zz"}) }, "zz"},
		{"submit without a user", func(s *Store) error { return s.Submit(scenarios.Submit{Queue: "a"}) }, "which user"},
		{"request for an unknown app", func(s *Store) error {
			return s.Request(scenarios.Ask{App: "ghost", Priority: 1, Resource: scenarios.Res{MemoryMB: 1024}, Count: 1})
		}, "ghost"},
		{"negative count", func(s *Store) error {
			return s.Request(scenarios.Ask{App: "app_1", Priority: 1, Resource: scenarios.Res{MemoryMB: 1024}, Count: -1})
		}, "negative"},
		{"heartbeat of an unknown node", func(s *Store) error { return s.Heartbeat("n9") }, "n9"},
		{"zero ticks", func(s *Store) error { return s.Tick(0) }, "at least 1"},
		{"kill an unknown app", func(s *Store) error { return s.KillApp("ghost", "alice") }, "ghost"},
		{"finish an unknown app", func(s *Store) error { return s.FinishApp("nope") }, "nope"},
		{"remove an unknown node", func(s *Store) error { return s.RemoveNode("n7") }, "n7"},
		{"an expectation is not an action", func(s *Store) error {
			return s.Act(scenarios.Step{Expect: &scenarios.Expect{}})
		}, "not a step"},
		{"capacities that do not sum to 100", func(s *Store) error {
			return s.SetConfig(SetQueueProperty(s.Frame().Conf, "root.a", config.SuffixCapacity, "70"))
		}, "Illegal capacity"},
		{"a capacity that is not a number", func(s *Store) error {
			return s.SetConfig(SetQueueProperty(s.Frame().Conf, "root.a", config.SuffixCapacity, "sixty"))
		}, "NumberFormatException"},
		{"a bad link", func(s *Store) error { return s.OpenLink("#s=1.@@@") }, "this link does not open"},
		{"a link from the future", func(s *Store) error { return s.OpenLink("s=9.abc") }, "newer release"},
		{"an oversized link", func(s *Store) error {
			return s.OpenLink("s=1." + string(make([]byte, scenarios.MaxLinkBytes+1)))
		}, "limit"},
		{"a malformed XML", func(s *Store) error { return s.ImportXML([]byte("<configuration><property>")) }, "not a configuration file"},
		{"an XML Hadoop refuses", func(s *Store) error {
			return s.ImportXML([]byte(`<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>x,y</value></property>
<property><name>yarn.scheduler.capacity.root.x.capacity</name><value>50</value></property>
<property><name>yarn.scheduler.capacity.root.y.capacity</name><value>60</value></property>
</configuration>`))
		}, "Illegal capacity"},
		{"an XML Hadoop runs that yarnplay does not simulate", func(s *Store) error {
			return s.ImportXML([]byte(`<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>x</value></property>
<property><name>yarn.scheduler.capacity.root.x.capacity</name><value>[memory=1024,vcores=1]</value></property>
</configuration>`))
		}, "Hadoop accepts this configuration, but yarnplay cannot simulate absolute resource capacities"},
		{"a scenario file that does not parse", func(s *Store) error {
			return s.ImportScenario("x.yaml", []byte("steps: [{tik: 1}]"))
		}, "does not load"},
		{"a node without a name", func(s *Store) error { return s.AddNodes(scenarios.NodeSpec{}) }, "name"},
	}
	for _, tt := range tests {
		for _, at := range []int{0, 4, 7} {
			t.Run(tt.name, func(t *testing.T) {
				s := loaded(t, twoQueues)
				s.Jump(at)
				before, doc := frameJSON(t, s.Frame()), docJSON(t, s)
				err := tt.act(s)
				require.Error(t, err)
				require.Contains(t, err.Error(), tt.want)
				f := s.Frame()
				require.Equal(t, err.Error(), f.Err)
				require.Equal(t, doc, docJSON(t, s), "the work is unchanged")
				f2 := *f
				f2.Err = ""
				require.Equal(t, before, frameJSON(t, &f2), "the frame is unchanged but for the error")
				s.ClearError()
				require.Equal(t, before, frameJSON(t, s.Frame()))
			})
		}
	}
}

func TestForkKeepsTheStepsBefore(t *testing.T) {
	s := loaded(t, twoQueues)
	s.Jump(3)
	at := frameJSON(t, s.Frame())
	require.NoError(t, s.Fork())
	require.Equal(t, 3, s.Frame().Steps)
	require.True(t, s.AtEnd())
	f := *s.Frame()
	f.Steps, f.Revision, f.Users = 7, 0, []string{"alice", "bob"}
	require.Equal(t, at, frameJSON(t, &f))
}

func TestConfigChangesKeepTheWorkload(t *testing.T) {
	s := loaded(t, twoQueues)
	// At the start: the configuration itself changes, the steps stay.
	conf := SetQueueProperty(s.Frame().Conf, "root.a", config.SuffixCapacity, "20")
	conf = SetQueueProperty(conf, "root.b", config.SuffixCapacity, "80")
	require.NoError(t, s.SetConfig(conf))
	require.Equal(t, 7, s.Frame().Steps)
	require.Equal(t, "20", s.Scenario().Config["yarn.scheduler.capacity.root.a.capacity"])
	require.InDelta(t, 0.2, queue(s.Frame(), "root.a").AbsCapacity, 1e-6)

	// Later: a refresh step is inserted after the current step, and the
	// same workload replays after it.
	s.Jump(4)
	conf = SetQueueProperty(s.Frame().Conf, "root.b", config.SuffixMaximumCapacity, "90")
	require.NoError(t, s.SetConfig(conf))
	f := s.Frame()
	require.Equal(t, 5, f.Step)
	require.Equal(t, 8, f.Steps)
	require.Equal(t, "refresh", f.Kind)
	require.Equal(t, map[string]string{"yarn.scheduler.capacity.root.b.maximum-capacity": "90"}, s.Scenario().Steps[4].Refresh.Set)
	require.Equal(t, "submit", s.Scenario().Steps[5].Kind())

	// Editing again on the refresh amends it rather than adding another.
	conf = SetQueueProperty(f.Conf, "root.b", config.SuffixUserLimitFactor, "3")
	require.NoError(t, s.SetConfig(conf))
	require.Equal(t, 8, s.Frame().Steps)
	require.Equal(t, "3", s.Scenario().Steps[4].Refresh.Set["yarn.scheduler.capacity.root.b.user-limit-factor"])

	// A refresh Hadoop refuses at run time is refused.
	conf, err := RemoveQueue(s.Frame().Conf, "root.a")
	require.NoError(t, err)
	conf = SetQueueProperty(conf, "root.b", config.SuffixCapacity, "100")
	err = s.SetConfig(conf)
	require.Error(t, err)
	require.Equal(t, 8, s.Frame().Steps)
	require.NotNil(t, IssueOf(err))
}

func TestNodesAndGroupsAtTheStart(t *testing.T) {
	s := loaded(t, twoQueues)
	require.NoError(t, s.AddNodes(scenarios.NodeSpec{Name: "x", Count: 3, Rack: "/r2"}))
	f := s.Frame()
	require.Equal(t, 0, f.Step)
	require.Equal(t, 7, f.Steps)
	require.Len(t, f.Nodes, 5)
	require.Equal(t, "/r2", f.Nodes[4].Rack)

	// n0 is heartbeated by a later step: removing it is refused.
	err := s.RemoveNode("n0")
	require.ErrorContains(t, err, "n0")
	require.Len(t, s.Frame().Nodes, 5)
	require.NoError(t, s.RemoveNode("x1"))
	require.Equal(t, []string{"n0", "n1", "x0", "x2"}, nodeNames(s.Frame()))

	s.Jump(3)
	require.NoError(t, s.SetGroups("alice", []string{"eng", " ", "ops"}))
	require.Equal(t, 3, s.Frame().Step, "groups change from the start; the viewer stays")
	require.Equal(t, []string{"eng", "ops"}, s.Frame().Groups["alice"])
	require.NoError(t, s.SetGroups("alice", nil))
	require.NotContains(t, s.Frame().Groups, "alice")
}

func nodeNames(f *Frame) []string {
	var out []string
	for _, n := range f.Nodes {
		out = append(out, n.Name)
	}
	return out
}

func TestPlay(t *testing.T) {
	s := loaded(t, twoQueues)
	for range 7 {
		require.True(t, s.PlayStep())
	}
	require.True(t, s.AtEnd())
	require.False(t, s.PlayStep(), "nothing left to do: play pauses")
	require.NoError(t, s.Request(scenarios.Ask{App: "app_2", Priority: 1, Resource: scenarios.Res{MemoryMB: 4096}, Count: 6, Duration: 2}))
	// app_2 wants containers: play goes on with ticks until nothing
	// changes any more.
	n := 0
	for s.PlayStep() {
		n++
		require.Less(t, n, 50)
	}
	require.Greater(t, n, 0)
	require.Equal(t, "tick", s.Frame().Kind)
}

func TestForwardTickMovesOneTick(t *testing.T) {
	s := loaded(t, twoQueues)
	require.NoError(t, s.ForwardTick())
	require.Equal(t, 4, s.Frame().Step, "steps 1-3 take no time; the tick of step 4 does")
	require.Equal(t, int64(2), s.Frame().Tick)
	s.Back()
	require.Equal(t, 3, s.Frame().Step)
}

func TestReset(t *testing.T) {
	s := loaded(t, twoQueues)
	before := frameJSON(t, s.Frame())
	s.Jump(4)
	require.NoError(t, s.Tick(1))
	s.Select("root.a")
	s.Reset()
	f := *s.Frame()
	require.Equal(t, "root.a", f.Selected)
	f.Selected, f.UserLimit, f.AMLimit = "", nil, nil
	require.Equal(t, before, frameJSON(t, &f))
}

func TestTreeEditing(t *testing.T) {
	conf := map[string]string{
		"yarn.scheduler.capacity.root.queues":     "a,b",
		"yarn.scheduler.capacity.root.a.capacity": "60",
		"yarn.scheduler.capacity.root.b.capacity": "40",
	}
	c, err := AddQueue(conf, "root.a", "a1")
	require.NoError(t, err)
	require.Equal(t, "a1", c["yarn.scheduler.capacity.root.a.queues"])
	require.Equal(t, "100", c["yarn.scheduler.capacity.root.a.a1.capacity"])
	c, err = AddQueue(c, "root", "c")
	require.NoError(t, err)
	require.Equal(t, "0", c["yarn.scheduler.capacity.root.c.capacity"])
	_, err = AddQueue(c, "root", "c")
	require.ErrorContains(t, err, "already")
	_, err = AddQueue(c, "root", "x.y")
	require.ErrorContains(t, err, "dots")

	c, err = RenameQueue(c, "root.a", "eng")
	require.NoError(t, err)
	require.Equal(t, "eng,b,c", c["yarn.scheduler.capacity.root.queues"])
	require.Equal(t, "100", c["yarn.scheduler.capacity.root.eng.a1.capacity"])
	require.NotContains(t, c, "yarn.scheduler.capacity.root.a.capacity")

	c, err = MoveQueue(c, "root.c", -2)
	require.NoError(t, err)
	require.Equal(t, "c,eng,b", c["yarn.scheduler.capacity.root.queues"])

	sum, rest, ok := CapacitySum(c, "root")
	require.True(t, ok)
	require.Equal(t, 100.0, sum)
	require.Equal(t, 0.0, rest)

	c, err = RemoveQueue(c, "root.eng.a1")
	require.NoError(t, err)
	require.NotContains(t, c, "yarn.scheduler.capacity.root.eng.queues", "a parent left without children is a leaf")
	_, err = RemoveQueue(c, "root")
	require.Error(t, err)
	require.Equal(t, "40", conf["yarn.scheduler.capacity.root.b.capacity"], "the argument is unchanged")
	require.Equal(t, "a,b", conf["yarn.scheduler.capacity.root.queues"])

	c = SetQueueProperty(c, "root.b", config.SuffixUserLimitFactor, "")
	require.NotContains(t, c, "yarn.scheduler.capacity.root.b.user-limit-factor")
	c = SetQueueProperty(c, "root.b", config.SuffixACLSubmitApplications, " ")
	require.Equal(t, " ", c["yarn.scheduler.capacity.root.b.acl_submit_applications"])
}

func TestCheckConfigNamesTheQueue(t *testing.T) {
	s := loaded(t, twoQueues)
	conf := SetQueueProperty(s.Frame().Conf, "root.b", config.SuffixMaximumCapacity, "10")
	is := IssueOf(s.CheckConfig(conf))
	require.NotNil(t, is)
	require.Equal(t, "root.b", is.Queue)
	require.Contains(t, is.Message, "maximum-capacity")
	require.Nil(t, IssueOf(s.CheckConfig(s.Frame().Conf)))
}

// A step added at the end keeps the configuration in force: the frames
// share one configuration map (the page's queue editor compares what it is
// given, and a map of thousands of keys costs much to compare every tick),
// and the work's start is not copied.
func TestStepsShareTheConfiguration(t *testing.T) {
	s := loaded(t, twoQueues)
	s.Jump(s.Frame().Steps)
	conf, start := s.Frame().Conf, s.Scenario().Config
	require.NoError(t, s.Tick(1))
	require.NoError(t, s.Heartbeat(""))
	require.True(t, sameMap(conf, s.Frame().Conf), "a step published a configuration map of its own")
	require.True(t, sameMap(start, s.Scenario().Config), "a step copied the configuration the work starts with")
	require.NoError(t, s.SetConfig(SetQueueProperty(conf, "root.a", config.SuffixUserLimitFactor, "3")))
	require.False(t, sameMap(conf, s.Frame().Conf), "a refresh kept the old configuration map")
}
