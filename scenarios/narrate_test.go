package scenarios

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/resource"
)

func TestNarrate(t *testing.T) {
	mb := func(m int64) resource.Resource { return resource.New(m, 1) }
	events := []core.Event{
		{Kind: core.EvHeartbeat, Node: "n3", Resource: mb(6144), Limit: resource.New(8192, 8)},
		{Kind: core.EvChildOrder, Node: "n3", Queue: "root", Detail: "root.a=0.0000, root.b=0.1250"},
		{Kind: core.EvQueueVisit, Node: "n3", Queue: "root.a", Used: mb(0), Limit: mb(8192)},
		{Kind: core.EvAppSkipped, Node: "n3", Queue: "root.a", App: "app_1", User: "alice", Reason: core.ReasonUserLimit, Used: mb(4096), Limit: mb(3072)},
		{Kind: core.EvAppSkipped, Node: "n3", Queue: "root.a", App: "app_2", User: "bob", Priority: 1, Resource: mb(1024), Reason: core.ReasonLocalityDelay, Seq: 2},
		{Kind: core.EvAllocated, Node: "n3", Queue: "root.a", App: "app_1", Priority: 1, Resource: mb(2048), Locality: core.OffSwitch},
		{Kind: core.EvReserved, Node: "n3", App: "app_3", Priority: 2, Resource: mb(4096), Used: mb(2048), Limit: mb(2048)},
		{Kind: core.EvQueueSkipped, Node: "n3", Queue: "root.b", Reason: core.ReasonQueueAtMax, Used: mb(4096), Limit: mb(4096)},
		{Kind: core.EvHeartbeatDone, Node: "n3", Reason: core.ReasonOffSwitchLimit, Seq: 1},
		{Kind: core.EvAppPending, App: "app_4", User: "carol", Queue: "root.a", Reason: core.ReasonQueueAMLimit, Used: mb(3072), Limit: mb(2048)},
		{Kind: core.EvRequest, App: "app_1", Priority: 1, Resource: mb(1024), Seq: 3, Detail: "*"},
		{Kind: core.EvRequest, App: "app_1", Priority: 1, Detail: "h1"},
		{Kind: core.EvAssignPass, Node: "n3", Seq: 1},
		{Kind: core.EvAttemptFailed, App: "app_5", Queue: "root.a", Reason: core.ReasonNodeRemoved, Seq: 2},
	}
	require.Equal(t, []string{
		"n3 heartbeats with 6144 MB of 8192 MB free",
		"root orders its children by used capacity: a (0.0%), b (12.5%)",
		"root.a is tried: 0 MB used (0.0% of its capacity), limit 8192 MB",
		"leaf root.a: app_1 of alice skipped: user at its user limit (used 4096 MB > limit 3072 MB)",
		"leaf root.a: app_2 of bob skipped at request priority 1: waiting for locality (2 missed scheduling opportunities)",
		"allocated a 2048 MB container to app_1 on n3 (OFF_SWITCH, request priority 1)",
		"reserved 4096 MB on n3 for app_3 (request priority 2): the node has only 2048 MB free",
		"root.b is skipped: queue at its maximum capacity (used 4096 MB, limit 4096 MB)",
		"n3 is done after 1 container: off-switch assignments per heartbeat reached",
		"app_4 of carol stays pending in root.a: queue AM resource limit (AM usage would be 3072 MB, limit 2048 MB)",
		"app_1 asks for 3 containers of 1024 MB at request priority 1 anywhere",
		"app_1 withdraws its ask at request priority 1 on h1",
		"app_5 lost its AM container (the node left the cluster): attempt 1 fails, its other containers are killed and its asks dropped; attempt 2 is ACCEPTED and asks for a new AM",
	}, Narrate(events))
	require.Equal(t, "allocated a 2048 MB and 2 vcores container to app_1 on n3 (OFF_SWITCH, request priority 1)",
		NarrateWith([]core.Event{{Kind: core.EvAllocated, Node: "n3", App: "app_1", Priority: 1, Resource: resource.New(2048, 2), Locality: core.OffSwitch}}, NarrateOptions{VCores: true})[0])
	require.Equal(t, []string{"unknown_kind: x"}, Narrate([]core.Event{{Kind: "unknown_kind", Detail: "x"}}))
}

func TestNarrateAReservedNodeVisit(t *testing.T) {
	lines := Narrate([]core.Event{{Kind: core.EvQueueVisit, Node: "n0", Queue: "root.q", App: "big", Reason: core.ReasonNodeReserved, Resource: resource.New(6144, 1)}})
	require.Equal(t, []string{"n0 is reserved for big: only that reservation of 6144 MB in root.q is tried, nothing else is scheduled on the node"}, lines)
}

// A heartbeat that served a reservation says so, not "done after 0
// containers" right after the reservation's container was allocated.
func TestNarrateServedReservation(t *testing.T) {
	lines := Narrate([]core.Event{
		{Kind: core.EvReservationFulfil, Node: "n0", App: "app_1", Priority: 1, Resource: resource.New(4096, 1), Locality: core.OffSwitch},
		{Kind: core.EvHeartbeatDone, Node: "n0", Reason: core.ReasonServedReservation},
	})
	require.Equal(t, []string{
		"the reservation on n0 is fulfilled: allocated a 4096 MB container to app_1 (OFF_SWITCH, request priority 1)",
		"n0 is done: it served its reservation, so nothing else is scheduled on it in this heartbeat",
	}, lines)
}

// Ten or more nodes joining alike, one after another, are told in one
// sentence; fewer, or nodes that differ, one sentence each.
func TestNarrateARunOfNodesJoining(t *testing.T) {
	node := func(name, rack string, mb int64) core.Event {
		return core.Event{Kind: core.EvNodeAdded, Node: name, Detail: rack, Resource: resource.New(mb, 8)}
	}
	run := func(from, n int, rack string, mb int64) []core.Event {
		var out []core.Event
		for i := range n {
			out = append(out, node(fmt.Sprint("n", from+i), rack, mb))
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		events []core.Event
		want   []string
	}{
		{"nine", run(0, 9, "/r1", 8192), nil},
		{"ten", run(0, 10, "/r1", 8192), []string{"10 nodes join the cluster, n0 to n9, each with 8192 MB and 8 vcores on rack /r1"}},
		{"two racks", append(run(0, 12, "/r1", 8192), run(12, 10, "/r2", 8192)...), []string{
			"12 nodes join the cluster, n0 to n11, each with 8192 MB and 8 vcores on rack /r1",
			"10 nodes join the cluster, n12 to n21, each with 8192 MB and 8 vcores on rack /r2"}},
		{"another size in the run", append(append(run(0, 5, "/r1", 8192), node("big", "/r1", 16384)), run(5, 9, "/r1", 8192)...), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Narrate(tc.events)
			if tc.want == nil {
				// One sentence each.
				require.Len(t, got, len(tc.events))
				require.Equal(t, "node n0 joins the cluster with 8192 MB and 8 vcores on rack /r1", got[0])
				return
			}
			require.Equal(t, tc.want, got)
			at := NarrationLines(tc.events)
			require.Len(t, at, len(tc.events))
			require.Equal(t, 0, at[0])
			require.Equal(t, len(got)-1, at[len(at)-1], "each event's sentence")
		})
	}
}
