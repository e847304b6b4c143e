package preemption

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core/resource"
)

func observeOnlyMatrix() matrix {
	return intMatrix([8][]int{
		{100, 40, 40, 20}, {100, 100, 100, 100}, {100, 90, 10, 0}, {80, 10, 20, 50},
		{0, 0, 0, 0}, {2, 1, 1, 0}, {-1, 1, 1, 0}, {3, 0, 0, 0}})
}

func TestRoundDisabledAndInvalid(t *testing.T) {
	st := NewState()
	st.firstSelected[7] = 0
	d := Round(buildMock(observeOnlyMatrix(), mockOpts{}), st, DefaultSettings(), 100000)
	require.True(t, d.Disabled)
	require.Empty(t, d.Queues)
	require.Equal(t, 1, st.Len(), "a disabled monitor keeps its state")

	d = Round(&Snapshot{}, st, testSettings(), 0)
	require.Contains(t, d.Error, "no root")
	snap := buildMock(observeOnlyMatrix(), mockOpts{})
	snap.Root.Children[1].Path = "root.queueA"
	d = Round(snap, st, testSettings(), 0)
	require.Contains(t, d.Error, `duplicate queue path "root.queueA"`)
	require.Equal(t, 1, st.Len())
}

func TestRoundObserveOnlyComputesButKeepsNoState(t *testing.T) {
	set := testSettings()
	set.ObserveOnly = true
	st := NewState()
	st.firstSelected[1] = 0
	d := Round(buildMock(observeOnlyMatrix(), mockOpts{}), st, set, 1<<40)
	require.True(t, d.ObserveOnly)
	require.Len(t, d.Selected, 40, "A (40 guaranteed, 90 used) gives back 40 of 50 over")
	require.Equal(t, int64(40), d.Queue("root.queueA").ResToObtain.MemoryMB)
	require.Empty(t, d.Marked)
	require.Empty(t, d.Killed)
	require.Empty(t, d.Forgotten)
	require.Equal(t, []Candidate{{ID: 1, FirstSelectedMS: 0}}, st.Candidates())
}

// Reservations are dropped first and killed at once; the ones counted
// toward the queue's share are also marked, as Hadoop sends them a
// MARK_CONTAINER_FOR_PREEMPTION too (testHierarchicalWithReserved).
func TestRoundReservationsKilledAtOnce(t *testing.T) {
	c := hadoopCases()
	var m matrix
	for _, tc := range c {
		if tc.name == "testHierarchicalWithReserved" {
			m = tc.m
		}
	}
	d := Round(buildMock(m, mockOpts{}), NewState(), testSettings(), 0)
	require.Len(t, d.Marked, 10)
	require.Len(t, d.Killed, 10)
	for i := range d.Killed {
		require.Equal(t, KillReserved, d.Killed[i].Event)
		require.True(t, d.Killed[i].Reserved)
		require.Equal(t, appName(appA), d.Killed[i].App)
		require.True(t, d.Marked[i].Reserved)
		require.Equal(t, d.Killed[i].ContainerID, d.Marked[i].ContainerID)
	}
}

func TestRoundForgetsStaleCandidates(t *testing.T) {
	set := testSettings()
	set.MaxWaitBeforeKillMS = 1000
	snap := buildMock(intMatrix([8][]int{ // testIgnore: nothing to preempt
		{100, 40, 40, 20}, {100, 100, 100, 100}, {100, 0, 60, 40}, {0, 0, 0, 0},
		{0, 0, 0, 0}, {3, 1, 1, 1}, {-1, 1, 1, 1}, {3, 0, 0, 0}}), mockOpts{})
	st := NewState()
	st.firstSelected[5] = 0
	st.firstSelected[3] = 500
	d := Round(snap, st, set, 2000) // 0 + 2000 < 2000 is false: kept
	require.Empty(t, d.Forgotten)
	d = Round(snap, st, set, 2001)
	require.Equal(t, []ContainerID{5}, d.Forgotten)
	d = Round(snap, st, set, 9000)
	require.Equal(t, []ContainerID{3}, d.Forgotten)
	require.Equal(t, 0, st.Len())
}

// total_preemption_per_round scales each level's toBePreempted and caps
// what is selected.
func TestRoundPerRoundLimit(t *testing.T) {
	set := testSettings()
	set.TotalPreemptionPerRound = 0.05
	d := Round(buildMock(observeOnlyMatrix(), mockOpts{}), NewState(), set, 0)
	a := d.Queue("root.queueA")
	require.Equal(t, resource.New(5, 5), d.TotalPreemptionAllowed)
	require.Equal(t, float32(5.0/40), a.ScalingFactor)
	require.Equal(t, int64(5), a.ToBePreempted.MemoryMB)
	require.Len(t, d.Marked, 5)
	require.Equal(t, int64(0), d.AllowedLeft.MemoryMB)
}

// Hadoop's computeFixpointAllocation subtracts from its caller's
// "unassigned" only until its first accepted offer; the zero-guarantee pass
// then starts from that stale value. Here A and B (50 each) take 50 + 30 of
// 100, but the zero-guarantee parent Z is offered 100 - 50 = 50, not 20.
func TestZeroGuaranteeServedFromStaleUnassigned(t *testing.T) {
	leaf := func(path string, g, pending int64) *Queue {
		return &Queue{Path: path, Guaranteed: resource.New(g, g), Max: resource.New(100, 100),
			Pending: resource.New(pending, pending)}
	}
	z := &Queue{Path: "root.z", Max: resource.New(100, 100), Children: []*Queue{leaf("root.z.z1", 0, 100)}}
	root := &Queue{Path: "root", Guaranteed: resource.New(100, 100), Max: resource.New(100, 100),
		Children: []*Queue{leaf("root.a", 50, 60), leaf("root.b", 50, 30), z}}
	d := Round(&Snapshot{Cluster: resource.New(100, 100), Calculator: resource.Default, Root: root},
		NewState(), testSettings(), 0)
	require.Empty(t, d.Error)
	require.Equal(t, int64(50), d.Queue("root.a").Ideal.MemoryMB)
	require.Equal(t, int64(30), d.Queue("root.b").Ideal.MemoryMB)
	require.Equal(t, int64(50), d.Queue("root.z").Ideal.MemoryMB)
}

// Round never writes to its snapshot.
func TestRoundDoesNotModifySnapshot(t *testing.T) {
	for _, tc := range hadoopCases() {
		a := buildMock(tc.m, tc.opts)
		b := buildMock(tc.m, tc.opts)
		Round(a, NewState(), testSettings(), 0)
		require.Equal(t, b, a, tc.name)
	}
}

// The dominant calculator's natural-termination rounding is
// ceil((float)(v x f)), not the default calculator's (long)(v x f + 0.5).
func TestMultiplyAndNormalizeUp(t *testing.T) {
	r := resource.New(11, 3)
	require.Equal(t, resource.New(2, 1), multiplyAndNormalizeUp(resource.Default, r, 0.2, unit))  // (long)(2.2+0.5)
	require.Equal(t, resource.New(3, 1), multiplyAndNormalizeUp(resource.Dominant, r, 0.2, unit)) // ceil 2.2, ceil 0.6
	require.Equal(t, resource.New(2, 1), multiplyAndNormalizeUp(resource.Default, resource.New(10, 3), 0.2, unit))
	require.Equal(t, resource.New(2, 1), multiplyAndNormalizeUp(resource.Dominant, resource.New(10, 3), 0.2, unit))
	require.Equal(t, resource.New(1, 1), multiplyAndNormalizeUp(resource.Dominant, resource.New(1, 1), 0.2, unit))
	require.Equal(t, resource.New(0, 0), multiplyAndNormalizeUp(resource.Default, resource.New(1, 1), 0.2, unit))
	// Per-type normalized guarantee (double[]): ceil for the dominant one.
	require.Equal(t, resource.New(34, 2), multiplyAndNormalizeUpVec(resource.Dominant, resource.New(100, 5), [2]float64{1.0 / 3, 0.3}, unit))
	require.Equal(t, resource.New(33, 1), multiplyAndNormalizeUpVec(resource.Default, resource.New(100, 5), [2]float64{1.0 / 3, 0.3}, unit))
}

func TestJavaDoubleCompare(t *testing.T) {
	nan := 0.0
	nan = nan / nan
	neg := -1.0 * 0
	neg = -neg
	require.Equal(t, -1, javaDoubleCompare(1, 2))
	require.Equal(t, 1, javaDoubleCompare(nan, 1e300))
	require.Equal(t, 0, javaDoubleCompare(nan, nan))
	require.Equal(t, 0, javaDoubleCompare(0.5, 0.5))
	require.Equal(t, -1, javaDoubleCompare(neg, 0), "-0.0 < 0.0")
}
