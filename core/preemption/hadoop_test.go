package preemption

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core/resource"
)

// Tests transcribed from TestProportionalCapacityPreemptionPolicy (Hadoop
// trunk deb35a32, ~3.3). Each case keeps the test's matrix and its asserted
// numbers; app indexes are the mock's appA=0, appB=1, ... (appF is
// ApplicationId(TS, 4) in the test, the same as appE).

const (
	appA = 0
	appB = 1
	appC = 2
	appD = 3
	appE = 4
	appF = 4 // sic: the test builds appF with the id of appE
)

type hadoopCase struct {
	name     string
	m        matrix
	opts     mockOpts
	set      func(*Settings)
	want     map[int]int // MARK_CONTAINER_FOR_PREEMPTION events per app (0 = never)
	noEvents bool        // verify(mDisp, never()).handle(isA(ContainerPreemptEvent.class))
}

func hadoopCases() []hadoopCase {
	return []hadoopCase{
		{name: "testIgnore", m: intMatrix([8][]int{
			{100, 40, 40, 20}, {100, 100, 100, 100}, {100, 0, 60, 40}, {0, 0, 0, 0},
			{0, 0, 0, 0}, {3, 1, 1, 1}, {-1, 1, 1, 1}, {3, 0, 0, 0}}),
			noEvents: true},
		{name: "testProportionalPreemption", m: intMatrix([8][]int{
			{100, 10, 40, 20, 30}, {100, 100, 100, 100, 100}, {100, 30, 60, 10, 0}, {45, 20, 5, 20, 0},
			{0, 0, 0, 0, 0}, {3, 1, 1, 1, 0}, {-1, 1, 1, 1, 1}, {4, 0, 0, 0, 0}}),
			want: map[int]int{appA: 10}},
		{name: "testMaxCap", m: intMatrix([8][]int{
			{100, 40, 40, 20}, {100, 100, 45, 100}, {100, 55, 45, 0}, {20, 10, 10, 0},
			{0, 0, 0, 0}, {2, 1, 1, 0}, {-1, 1, 1, 0}, {3, 0, 0, 0}}),
			want: map[int]int{appA: 0}},
		{name: "testPreemptCycle", m: intMatrix([8][]int{
			{100, 40, 40, 20}, {100, 100, 100, 100}, {100, 0, 60, 40}, {10, 10, 0, 0},
			{0, 0, 0, 0}, {3, 1, 1, 1}, {-1, 1, 1, 1}, {3, 0, 0, 0}}),
			want: map[int]int{appC: 10}},
		{name: "testDeadzone", m: intMatrix([8][]int{
			{100, 40, 40, 20}, {100, 100, 100, 100}, {100, 39, 43, 21}, {10, 10, 0, 0},
			{0, 0, 0, 0}, {3, 1, 1, 1}, {-1, 1, 1, 1}, {3, 0, 0, 0}}),
			set:      func(s *Settings) { s.MaxIgnoredOverCapacity = 0.1 },
			noEvents: true},
		{name: "testPerQueueDisablePreemption/B disabled", m: perQueueDisable(),
			opts: mockOpts{disabled: map[string]bool{"root.queueB": true}},
			want: map[int]int{appC: 10, appB: 0}},
		{name: "testPerQueueDisablePreemption/B enabled", m: perQueueDisable(),
			opts: mockOpts{disabled: map[string]bool{"root.queueB": false}},
			want: map[int]int{appB: 4, appC: 6}},
		{name: "testPerQueueDisablePreemptionHierarchical/all", m: hierarchical(),
			want: map[int]int{appA: 10}},
		{name: "testPerQueueDisablePreemptionHierarchical/B disabled", m: hierarchical(),
			opts: mockOpts{disabled: map[string]bool{"root.queueA.queueB": true}},
			want: map[int]int{appA: 0, appC: 10}},
		{name: "testPerQueueDisablePreemptionBroadHierarchical/all", m: broadHierarchical(),
			want: map[int]int{appA: 27, appC: 23}},
		{name: "testPerQueueDisablePreemptionBroadHierarchical/B disabled", m: broadHierarchical(),
			opts: mockOpts{disabled: map[string]bool{"root.queueA.queueB": true}},
			want: map[int]int{appC: 50, appA: 0}},
		{name: "testPerQueueDisablePreemptionBroadHierarchical/B,E disabled", m: broadHierarchical(),
			opts: mockOpts{disabled: map[string]bool{"root.queueD.queueE": true, "root.queueA.queueB": true}},
			want: map[int]int{appA: 0, appB: 0, appC: 0, appE: 0 /* appF == appE */}},
		{name: "testPerQueueDisablePreemptionInheritParent/all", m: inheritParent(),
			want: map[int]int{appA: 17, appB: 183}},
		{name: "testPerQueueDisablePreemptionInheritParent/A disabled", m: inheritParent(),
			opts: mockOpts{disabled: map[string]bool{"root.queueA": true}},
			want: map[int]int{appA: 0, appB: 0, appD: 0, appE: 0}},
		{name: "testPerQueuePreemptionNotAllUntouchable", m: intMatrix([8][]int{
			{2000, 1000, 800, 100, 100, 1000, 500, 300, 200},
			{2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000},
			{2000, 1300, 300, 800, 200, 700, 500, 0, 200},
			{300, 0, 0, 0, 0, 300, 0, 300, 0},
			{0, 0, 0, 0, 0, 0, 0, 0, 0},
			{6, 3, 1, 1, 1, 3, 1, 1, 1},
			{-1, -1, 1, 1, 1, -1, 1, 1, 1},
			{2, 3, 0, 0, 0, 3, 0, 0, 0}}),
			opts: mockOpts{disabled: map[string]bool{"root.queueA.queueC": true}},
			want: map[int]int{appC: 100}},
		{name: "testPerQueueDisablePreemptionRootDisablesAll", m: intMatrix([8][]int{
			{1000, 500, 250, 250, 250, 100, 150, 250, 100, 150},
			{1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000},
			{1000, 20, 0, 20, 490, 240, 250, 490, 240, 250},
			{200, 200, 200, 0, 0, 0, 0, 0, 0, 0},
			{0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
			{6, 2, 1, 1, 2, 1, 1, 2, 1, 1},
			{-1, -1, 1, 1, -1, 1, 1, -1, 1, 1},
			{3, 2, 0, 0, 2, 0, 0, 2, 0, 0}}),
			opts: mockOpts{disabled: map[string]bool{"root": true}},
			want: map[int]int{appB: 0, appC: 0, appD: 0, appE: 0 /* appF == appE */}},
		{name: "testPerQueueDisablePreemptionOverAbsMaxCapacity", m: intMatrix([8][]int{
			{1000, 725, 360, 365, 275, 17, 258},
			{1000, 1000, 1000, 1000, 550, 109, 1000},
			{1000, 741, 396, 345, 259, 110, 149},
			{40, 20, 0, 20, 20, 20, 0},
			{0, 0, 0, 0, 0, 0, 0},
			{4, 2, 1, 1, 2, 1, 1},
			{-1, -1, 1, 1, -1, 1, 1},
			{2, 2, 0, 0, 2, 0, 0}}),
			opts: mockOpts{disabled: map[string]bool{"root.queueD": true}},
			want: map[int]int{appC: 0}},
		{name: "testOverCapacityImbalance", m: overCapacityImbalance(),
			want: map[int]int{appA: 0}},
		{name: "testNaturalTermination", m: overCapacityImbalance(),
			set:      func(s *Settings) { s.NaturalTerminationFactor = 0.1 },
			noEvents: true},
		{name: "testObserveOnly", m: intMatrix([8][]int{
			{100, 40, 40, 20}, {100, 100, 100, 100}, {100, 90, 10, 0}, {80, 10, 20, 50},
			{0, 0, 0, 0}, {2, 1, 1, 0}, {-1, 1, 1, 0}, {3, 0, 0, 0}}),
			set:      func(s *Settings) { s.ObserveOnly = true },
			noEvents: true},
		{name: "testHierarchical", m: hierarchical(),
			want: map[int]int{appA: 10}},
		{name: "testHierarchicalWithReserved", m: intMatrix([8][]int{
			{200, 100, 50, 50, 100, 10, 90}, {200, 200, 200, 200, 200, 200, 200},
			{200, 110, 60, 50, 90, 90, 0}, {10, 0, 0, 0, 10, 0, 10},
			{40, 25, 15, 10, 15, 15, 0}, {4, 2, 1, 1, 2, 1, 1},
			{-1, -1, 1, 1, -1, 1, 1}, {2, 2, 0, 0, 2, 0, 0}}),
			want: map[int]int{appA: 10}},
		{name: "testZeroGuar", m: intMatrix([8][]int{
			{200, 100, 0, 99, 100, 10, 90}, {200, 200, 200, 200, 200, 200, 200},
			{170, 80, 60, 20, 90, 90, 0}, {10, 0, 0, 0, 10, 0, 10},
			{0, 0, 0, 0, 0, 0, 0}, {4, 2, 1, 1, 2, 1, 1},
			{-1, -1, 1, 1, -1, 1, 1}, {2, 2, 0, 0, 2, 0, 0}}),
			want: map[int]int{appA: 0}},
		{name: "testZeroGuarOverCap", m: intMatrix([8][]int{
			{200, 100, 0, 100, 0, 100, 100}, {200, 200, 200, 200, 200, 200, 200},
			{170, 170, 60, 20, 90, 0, 0}, {85, 50, 30, 10, 10, 20, 20},
			{0, 0, 0, 0, 0, 0, 0}, {4, 3, 1, 1, 1, 1, 1},
			{-1, -1, 1, 1, 1, -1, 1}, {2, 3, 0, 0, 0, 1, 0}}),
			want: map[int]int{appA: 0, appB: 0, appC: 0, appD: 0}},
		{name: "testHierarchicalLarge", m: intMatrix([8][]int{
			{400, 200, 60, 140, 100, 70, 30, 100, 10, 90},
			{400, 400, 400, 400, 400, 400, 400, 400, 400, 400},
			{400, 210, 70, 140, 100, 50, 50, 90, 90, 0},
			{15, 0, 0, 0, 0, 0, 0, 0, 0, 15},
			{0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
			{6, 2, 1, 1, 2, 1, 1, 2, 1, 1},
			{-1, -1, 1, 1, -1, 1, 1, -1, 1, 1},
			{3, 2, 0, 0, 2, 0, 0, 2, 0, 0}}),
			want: map[int]int{appA: 9, appE: 6}},
		{name: "testSkipAMContainer", m: intMatrix([8][]int{
			{100, 50, 50}, {100, 100, 100}, {100, 100, 0}, {70, 20, 50},
			{0, 0, 0}, {5, 4, 1}, {-1, 1, 1}, {2, 0, 0}}),
			opts: mockOpts{amContainer: true},
			want: map[int]int{appD: 24, appC: 24, appB: 2}},
		{name: "testPreemptSkippedAMContainers", m: skippedAM(),
			opts: mockOpts{amContainer: true},
			want: map[int]int{appD: 5, appC: 5, appB: 4, appA: 4}},
		{name: "testAMResourcePercentForSkippedAMContainers", m: skippedAM(),
			opts: mockOpts{amContainer: true, amPercent: 0.5},
			want: map[int]int{appD: 5, appC: 5, appB: 4, appA: 4}},
		{name: "testPreemptionWithVCoreResource", m: resMatrix(
			[3][]int{{100, 100, 100}, {5, 1, 1}, {2, 0, 0}},
			[5][]string{
				{"100:100", "50:50", "50:50"},
				{"10:100", "10:100", "0"},
				{"70:20", "70:20", "10:100"},
				{"0", "0", "0"},
				{"-1", "1:10", "1:10"}}),
			opts: mockOpts{dominant: true},
			want: map[int]int{appA: 4}},
		{name: "testHierarchicalLarge3Levels", m: large3Levels(false),
			want: map[int]int{appC: 9}},
		{name: "testHierarchicalLarge3LevelsWithReserved", m: large3Levels(true),
			want: map[int]int{appC: 9}},
		{name: "testPreemptionNotHappenForSingleReservedQueue", m: intMatrix([8][]int{
			{100, 40, 40, 20}, {100, 100, 100, 100}, {100, 70, 0, 0}, {10, 30, 0, 0},
			{0, 50, 0, 0}, {1, 1, 0, 0}, {-1, 1, 1, 1}, {3, 0, 0, 0}}),
			want: map[int]int{appA: 0}},
	}
}

func perQueueDisable() matrix {
	return intMatrix([8][]int{
		{100, 55, 25, 20}, {100, 100, 100, 100}, {100, 0, 54, 46}, {10, 10, 0, 0},
		{0, 0, 0, 0}, {3, 1, 1, 1}, {-1, 1, 1, 1}, {3, 0, 0, 0}})
}

func hierarchical() matrix {
	return intMatrix([8][]int{
		{200, 100, 50, 50, 100, 10, 90}, {200, 200, 200, 200, 200, 200, 200},
		{200, 110, 60, 50, 90, 90, 0}, {10, 0, 0, 0, 10, 0, 10},
		{0, 0, 0, 0, 0, 0, 0}, {4, 2, 1, 1, 2, 1, 1},
		{-1, -1, 1, 1, -1, 1, 1}, {2, 2, 0, 0, 2, 0, 0}})
}

func broadHierarchical() matrix {
	return intMatrix([8][]int{
		{1000, 350, 150, 200, 400, 200, 200, 250, 100, 150},
		{1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000},
		{1000, 400, 200, 200, 400, 250, 150, 200, 150, 50},
		{50, 0, 0, 0, 50, 0, 50, 0, 0, 0},
		{0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
		{6, 2, 1, 1, 2, 1, 1, 2, 1, 1},
		{-1, -1, 1, 1, -1, 1, 1, -1, 1, 1},
		{3, 2, 0, 0, 2, 0, 0, 2, 0, 0}})
}

func inheritParent() matrix {
	return intMatrix([8][]int{
		{1000, 500, 200, 200, 100, 500, 200, 200, 100},
		{1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000},
		{1000, 700, 0, 350, 350, 300, 0, 200, 100},
		{200, 0, 0, 0, 0, 200, 200, 0, 0},
		{0, 0, 0, 0, 0, 0, 0, 0, 0},
		{5, 2, 0, 1, 1, 3, 1, 1, 1},
		{-1, -1, 1, 1, 1, -1, 1, 1, 1},
		{2, 3, 0, 0, 0, 3, 0, 0, 0}})
}

func overCapacityImbalance() matrix {
	return intMatrix([8][]int{
		{100, 40, 40, 20}, {100, 100, 100, 100}, {100, 55, 45, 0}, {20, 10, 10, 0},
		{0, 0, 0, 0}, {2, 1, 1, 0}, {-1, 1, 1, 0}, {3, 0, 0, 0}})
}

func skippedAM() matrix {
	return intMatrix([8][]int{
		{100, 10, 90}, {100, 100, 100}, {100, 100, 0}, {70, 20, 90},
		{0, 0, 0}, {5, 4, 1}, {-1, 5, 5}, {2, 0, 0}})
}

func large3Levels(reserved bool) matrix {
	res := []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	if reserved {
		res = []int{50, 30, 20, 10, 5, 5, 0, 0, 0, 10, 10, 0}
	}
	return intMatrix([8][]int{
		{400, 200, 60, 140, 100, 40, 100, 70, 30, 100, 10, 90},
		{400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400},
		{400, 210, 60, 150, 100, 50, 100, 50, 50, 90, 10, 80},
		{10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10},
		res,
		{7, 3, 1, 2, 1, 1, 2, 1, 1, 2, 1, 1},
		{-1, -1, 1, -1, 1, 1, -1, 1, 1, -1, 1, 1},
		{3, 2, 0, 2, 0, 0, 2, 0, 0, 2, 0, 0}})
}

func TestHadoopProportionalCapacityPreemptionPolicy(t *testing.T) {
	for _, tc := range hadoopCases() {
		t.Run(tc.name, func(t *testing.T) {
			snap := buildMock(tc.m, tc.opts)
			set := testSettings()
			if tc.set != nil {
				tc.set(&set)
			}
			d := Round(snap, NewState(), set, 0)
			require.Empty(t, d.Error)
			if tc.noEvents {
				require.Empty(t, d.Marked, "marked")
				require.Empty(t, d.Killed, "killed")
			}
			got := markedPerApp(d)
			for app, n := range tc.want {
				require.Equal(t, n, got[appName(app)], "MARK events for app%d; all marks: %v", app, got)
			}
		})
	}
}

// testHierarchicalLarge3Levels also asserts the extras of the temp queues.
func TestHadoopHierarchicalLarge3LevelsExtras(t *testing.T) {
	for _, reserved := range []bool{false, true} {
		d := Round(buildMock(large3Levels(reserved), mockOpts{}), NewState(), testSettings(), 0)
		e := d.Queue("root.queueA.queueC.queueE")
		require.NotNil(t, e)
		require.Equal(t, int64(10), e.PreemptableExtra.MemoryMB)
		a := d.Queue("root.queueA")
		require.Equal(t, int64(0), a.UntouchableExtra.MemoryMB)
		require.Equal(t, a.Used.MemoryMB-a.Guaranteed.MemoryMB, a.PreemptableExtra.MemoryMB)
	}
}

// testExpireKill: marked at 0, nothing new at killTime/2, killed at
// killTime+1 (10 MARK then 10 MARK_CONTAINER_FOR_KILLABLE, all appC).
func TestHadoopExpireKill(t *testing.T) {
	const killTime = 10000
	snap := buildMock(intMatrix([8][]int{
		{100, 40, 40, 20}, {100, 100, 100, 100}, {100, 0, 60, 40}, {10, 10, 0, 0},
		{0, 0, 0, 0}, {3, 1, 1, 1}, {-1, 1, 1, 1}, {3, 0, 0, 0}}), mockOpts{})
	set := testSettings()
	set.MaxWaitBeforeKillMS = killTime
	st := NewState()

	d := Round(snap, st, set, 0)
	require.Equal(t, map[string]int{appName(appC): 10}, markedPerApp(d))
	require.Empty(t, d.Killed)
	require.Equal(t, 10, st.Len())

	d = Round(snap, st, set, killTime/2)
	require.Empty(t, d.Marked)
	require.Empty(t, d.Killed)
	require.Len(t, d.Waiting, 10)

	d = Round(snap, st, set, killTime+1)
	require.Empty(t, d.Marked)
	require.Len(t, d.Killed, 10)
	for _, k := range d.Killed {
		require.Equal(t, appName(appC), k.App)
		require.Equal(t, MarkKillable, k.Event)
	}
	require.Equal(t, 0, st.Len())
}

// testContainerOrdering: "priority"-first, "reverse container-id"-second.
func TestHadoopContainerOrdering(t *testing.T) {
	rm1 := Container{ID: 5, RequestPriority: 3}
	rm2 := Container{ID: 3, RequestPriority: 3}
	rm3 := Container{ID: 2, RequestPriority: 2}
	rm4 := Container{ID: 1, RequestPriority: 2}
	rm5 := Container{ID: 4, RequestPriority: 1}
	cs := []Container{rm3, rm2, rm1, rm5, rm4}
	sortContainers(cs)
	require.Equal(t, []Container{rm1, rm2, rm3, rm4, rm5}, cs)
}

// The mock reproduces the numbers the test files state in comments.
func TestMockShape(t *testing.T) {
	snap := buildMock(intMatrix([8][]int{
		{100, 50, 50}, {100, 100, 100}, {100, 100, 0}, {70, 20, 50},
		{0, 0, 0}, {5, 4, 1}, {-1, 1, 1}, {2, 0, 0}}), mockOpts{amContainer: true})
	require.Equal(t, resource.New(100, 100), snap.Cluster)
	a := snap.Root.Children[0]
	require.Equal(t, "root.queueA", a.Path)
	require.Len(t, a.Apps, 4)
	require.Len(t, a.Apps[0].Containers, 25)
	require.True(t, a.Apps[0].Containers[0].IsAM)
}
