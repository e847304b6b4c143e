package app

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/scenarios"
	"yarnplay/scenarios/lessons"
)

func leafOf(paths ...string) func(string) bool {
	return func(p string) bool {
		for _, q := range paths {
			if q == p {
				return true
			}
		}
		return false
	}
}

func TestWalkStepsFollowTheDecisions(t *testing.T) {
	hb := []core.Event{
		{Kind: core.EvHeartbeat, Node: "n0"},
		{Kind: core.EvAssignPass, Node: "n0", Seq: 1},
		{Kind: core.EvQueueVisit, Node: "n0", Queue: "root"},
		{Kind: core.EvChildOrder, Node: "n0", Queue: "root", Detail: "root.b=0.0000, root.a=0.5000"},
		{Kind: core.EvQueueSkipped, Node: "n0", Queue: "root.b", Depth: 1, Reason: core.ReasonNoPending},
		{Kind: core.EvQueueVisit, Node: "n0", Queue: "root.a", Depth: 1},
		{Kind: core.EvAppConsidered, Node: "n0", Queue: "root.a", App: "app_1"},
		{Kind: core.EvAppSkipped, Node: "n0", Queue: "root.a", App: "app_1", Reason: core.ReasonUserLimit},
		{Kind: core.EvAppConsidered, Node: "n0", Queue: "root.a", App: "app_2"},
		{Kind: core.EvAllocated, Node: "n0", Queue: "root.a", App: "app_2"},
		{Kind: core.EvHeartbeatDone, Node: "n0", Reason: core.ReasonOffSwitchLimit},
	}
	type want struct {
		kind, queue, app, reason string
		line                     int
	}
	for _, tc := range []struct {
		name   string
		events []core.Event
		want   []want
		beats  int
	}{
		{"nothing", nil, nil, 0},
		{"no heartbeat", []core.Event{{Kind: core.EvAppSubmitted, App: "app_1", Queue: "root.a"}}, nil, 0},
		{"one heartbeat", hb, []want{
			{WalkNode, "", "", "", 0},
			{WalkRoot, "root", "", "", 1},
			{WalkOrder, "root", "", "", 2},
			{WalkQueueSkip, "root.b", "", string(core.ReasonNoPending), 3},
			{WalkLeaf, "root.a", "", "", 4},
			{WalkApp, "root.a", "app_1", "", 5},
			{WalkAppSkip, "root.a", "app_1", string(core.ReasonUserLimit), 6},
			{WalkApp, "root.a", "app_2", "", 7},
			{WalkAlloc, "root.a", "app_2", "", 8},
			{WalkDone, "", "", string(core.ReasonOffSwitchLimit), 9},
		}, 1},
		{"a line before the heartbeat shifts the lines", append([]core.Event{{Kind: core.EvTick, Tick: 3}}, hb[:3]...), []want{
			{WalkNode, "", "", "", 1},
			{WalkRoot, "root", "", "", 2},
		}, 1},
		{"two heartbeats", append(append([]core.Event{}, hb...), hb[0], hb[10]), nil, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := WalkSteps(tc.events, leafOf("root.a", "root.b"))
			require.Equal(t, tc.beats, walkBeats(got))
			lines := scenarios.Narrate(tc.events)
			for _, s := range got {
				if s.Line >= 0 {
					require.Less(t, s.Line, len(lines))
				}
			}
			if tc.want == nil {
				return
			}
			require.Len(t, got, len(tc.want))
			for i, w := range tc.want {
				require.Equal(t, w.kind, got[i].Kind, "step %d", i)
				require.Equal(t, w.queue, got[i].Queue, "step %d", i)
				require.Equal(t, w.app, got[i].App, "step %d", i)
				require.Equal(t, w.reason, got[i].Reason, "step %d", i)
				require.Equal(t, w.line, got[i].Line, "step %d", i)
				require.Equal(t, "n0", got[i].Node)
			}
			if len(got) > 2 {
				require.Equal(t, []string{"root.b", "root.a"}, got[2].Order)
			}
		})
	}
}

func TestWalkStepsSplitATickIntoHeartbeats(t *testing.T) {
	sc, err := lessons.Load(lessons.Default())
	require.NoError(t, err)
	s := store.New()
	require.NoError(t, s.Load(sc, lessons.Default()))
	for i := 1; i <= len(sc.Steps); i++ {
		s.Jump(i)
		if f := s.Frame(); f.Kind == scenarios.KindTick {
			leaf := map[string]bool{}
			for _, q := range f.Queues {
				leaf[q.Path] = q.Leaf
			}
			steps := WalkSteps(f.Events, func(p string) bool { return leaf[p] })
			require.Equal(t, len(f.Nodes), walkBeats(steps), "every node's heartbeat is walked")
			for b, i := 0, 0; i < len(steps); b, i = b+1, nextBeat(steps, i) {
				require.Equal(t, WalkNode, steps[i].Kind)
				require.Equal(t, f.Nodes[b].Name, steps[i].Node)
				require.Equal(t, b, steps[i].Beat)
			}
			for _, st := range steps {
				require.GreaterOrEqual(t, st.Line, 0, "%+v is narrated", st)
				require.Less(t, st.Line, len(f.Narration))
				if st.Kind == WalkNode {
					require.Contains(t, f.Narration[st.Line], st.Node+" heartbeats")
				}
			}
			return
		}
	}
	t.Fatal("the default lesson has no tick step")
}
