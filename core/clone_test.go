package core_test

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// cloneBudgets are the Step budgets the tests clone with; 0 is unlimited.
var cloneBudgets = []int{1, 7, 1000, 0}

// cloneInSteps copies s with a Cloner, budget objects per Step, checking
// that every Step but the last copies at least its budget and not much
// more, and that the copy is only available once done.
func cloneInSteps(t testing.TB, s *core.Scheduler, budget int) *core.Scheduler {
	t.Helper()
	c := s.BeginClone()
	steps := 0
	for {
		_, err := c.Scheduler()
		require.ErrorIs(t, err, core.ErrCloneUnfinished)
		before := c.Copied()
		done, err := c.Step(budget)
		require.NoError(t, err)
		steps++
		if done {
			break
		}
		require.GreaterOrEqual(t, c.Copied()-before, budget, "step %d stopped short of its budget", steps)
		require.Less(t, c.Copied()-before, budget+64, "step %d went far over its budget", steps)
	}
	if budget == 1 {
		require.Greater(t, steps, 10)
	}
	d, err := c.Scheduler()
	require.NoError(t, err)
	done, err := c.Step(budget)
	require.True(t, done)
	require.NoError(t, err)
	again, err := c.Scheduler()
	require.NoError(t, err)
	require.Same(t, d, again)
	return d
}

// twinOf is a workload that plays on from the clone s of w's scheduler with
// the same random draws.
func twinOf(w *workload, s *core.Scheduler) *workload {
	pcg := *w.pcg
	return &workload{t: w.t, pcg: &pcg, r: rand.New(&pcg), s: s,
		apps: slices.Clone(w.apps), nodes: slices.Clone(w.nodes), leafs: w.leafs, step: w.step, added: w.added}
}

func TestSteppedCloneIsExactAndReplaysIdentically(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		for _, budget := range cloneBudgets {
			w := newWorkload(t, seed)
			w.s.SetRecord([]core.RecordLevel{core.RecordFull, core.RecordDecisions, core.RecordNone}[seed%3])
			for range 120 {
				w.do()
			}
			if seed%2 == 0 {
				w.s.TakeEvents() // odd seeds clone a pending record too
			}
			twin := twinOf(w, cloneInSteps(t, w.s, budget))
			require.NoError(t, core.CloneShapeError(w.s, twin.s), "seed %d budget %d", seed, budget)
			before := stateJSON(t, twin.s)
			for range 80 {
				w.do()
			}
			require.Equal(t, before, stateJSON(t, twin.s), "seed %d budget %d: the clone changed when the original moved on", seed, budget)
			for range 80 {
				twin.do()
			}
			require.Equal(t, stateJSON(t, w.s), stateJSON(t, twin.s), "seed %d budget %d: the clone replayed differently", seed, budget)
			require.Equal(t, w.s.TakeEvents(), twin.s.TakeEvents(), "seed %d budget %d", seed, budget)
			require.NoError(t, twin.s.CheckInvariants())
		}
	}
}

// preemptingCluster is a cluster where queue a holds every node and queue
// b's large asks make reservations and preemption rounds.
func preemptingCluster(t *testing.T) *core.Scheduler {
	t.Helper()
	conf := map[string]string{
		capPrefix + "root.queues": "a,b", capPrefix + "root.a.capacity": "50", capPrefix + "root.b.capacity": "50",
		capPrefix + "root.a.maximum-capacity": "100", capPrefix + "root.a.user-limit-factor": "2",
		config.KeyMonitorEnable:                      "true",
		config.KeyPreemptionMonitoringInterval:       "1000",
		config.KeyPreemptionMaxWaitBeforeKill:        "2000",
		config.KeyPreemptionTotalPerRound:            "1",
		config.KeyPreemptionNaturalTerminationFactor: "1",
	}
	s := newCluster(t, conf, 4, 8192)
	submitHungry(t, s, "a1", "ua", "a", 40)
	for range 10 {
		s.Tick()
	}
	require.NoError(t, s.Submit(core.Submission{App: "b1", User: "ub", Queue: "b"}))
	require.NoError(t, s.Request([]core.Ask{{App: "b1", Priority: 1, Resource: resource.New(3072, 1), Count: 6, Locality: core.AnyLocation}}))
	return s
}

func TestSteppedCloneOfReservationsAndPreemption(t *testing.T) {
	s := preemptingCluster(t)
	sawReservation, sawCandidates := false, false
	for tick := range 8 {
		for _, n := range s.Nodes() {
			sawReservation = sawReservation || n.Reservation != nil
		}
		if d, ok := s.LastPreemption(); ok && len(d.Marked) > 0 {
			sawCandidates = true
		}
		for _, budget := range cloneBudgets {
			twin := cloneInSteps(t, s, budget)
			require.NoError(t, core.CloneShapeError(s, twin), "tick %d budget %d", tick, budget)
			a, b := s.Clone(), twin
			for range 3 {
				a.Tick()
				b.Tick()
			}
			require.Equal(t, stateJSON(t, a), stateJSON(t, b), "tick %d budget %d", tick, budget)
			require.Equal(t, a.TakeEvents(), b.TakeEvents(), "tick %d budget %d", tick, budget)
		}
		s.Tick()
	}
	require.True(t, sawReservation, "the scenario should clone a reserved node")
	require.True(t, sawCandidates, "the scenario should clone preemption candidates")
}

func TestSteppedCloneAfterAQueueWithEndedAppsIsRemoved(t *testing.T) {
	s := endedAppInRemovedQueue(t)
	for _, budget := range cloneBudgets {
		twin := cloneInSteps(t, s, budget)
		require.NoError(t, core.CloneShapeError(s, twin), "budget %d", budget)
		a0, _ := twin.App("app0")
		require.Equal(t, "root.b", a0.Queue)
	}
}

// schedulerWrites change a scheduler (preemptingCluster's) in every way an
// exported method can; schedulerReads only read it. Together they name
// every exported method of Scheduler.
var (
	schedulerWrites = map[string]func(t *testing.T, s *core.Scheduler){
		"AddNode": func(t *testing.T, s *core.Scheduler) {
			require.NoError(t, s.AddNode(core.NodeSpec{Name: "new", Capacity: resource.New(8192, 8)}))
		},
		"AddNodeLabels": func(t *testing.T, s *core.Scheduler) {
			require.NoError(t, s.AddNodeLabels([]core.NodeLabel{{Name: "gpu", Exclusive: true}}))
		},
		"AddNodes": func(t *testing.T, s *core.Scheduler) {
			require.NoError(t, s.AddNodes([]core.NodeSpec{{Name: "new", Capacity: resource.New(8192, 8)}}))
		},
		"FinishApp":        func(t *testing.T, s *core.Scheduler) { require.NoError(t, s.FinishApp("b1")) },
		"FinishContainers": func(t *testing.T, s *core.Scheduler) { require.NoError(t, s.FinishContainers("a1", 1, "")) },
		"Heartbeat":        func(t *testing.T, s *core.Scheduler) { require.NoError(t, s.Heartbeat("n0")) },
		"KillApp":          func(t *testing.T, s *core.Scheduler) { require.NoError(t, s.KillApp("a1", "ua")) },
		"Refresh": func(t *testing.T, s *core.Scheduler) {
			c := s.Conf()
			c.Set(capPrefix+"root.b.maximum-capacity", "80")
			require.NoError(t, s.Refresh(c))
		},
		"RemoveNode": func(t *testing.T, s *core.Scheduler) { require.NoError(t, s.RemoveNode("n3")) },
		"RecoverContainer": func(t *testing.T, s *core.Scheduler) {
			require.NoError(t, s.AddNode(core.NodeSpec{Name: "spare", Capacity: resource.New(8192, 8)}))
			require.NoError(t, s.RecoverContainer(core.Recovered{App: "b1", Node: "spare", Size: resource.New(1024, 1), Priority: 1}))
		},
		"SubmitRecovered": func(t *testing.T, s *core.Scheduler) {
			require.NoError(t, s.SubmitRecovered(core.Submission{App: "b3", User: "ub", Queue: "b"}))
		},
		"Resequence": func(t *testing.T, s *core.Scheduler) { require.NoError(t, s.Resequence([]string{"b1", "a1"})) },
		"Request": func(t *testing.T, s *core.Scheduler) {
			require.NoError(t, s.Request([]core.Ask{{App: "b1", Priority: 2, Resource: resource.New(1024, 1), Count: 1, Locality: core.AnyLocation}}))
		},
		"SetRecord":     func(_ *testing.T, s *core.Scheduler) { s.SetRecord(core.RecordNone) },
		"SetUserGroups": func(_ *testing.T, s *core.Scheduler) { s.SetUserGroups("ua", []string{"g"}) },
		"Submit": func(t *testing.T, s *core.Scheduler) {
			require.NoError(t, s.Submit(core.Submission{App: "b2", User: "ub", Queue: "b"}))
		},
		"TakeEvents": func(t *testing.T, s *core.Scheduler) { require.NotEmpty(t, s.TakeEvents()) },
		"Tick":       func(_ *testing.T, s *core.Scheduler) { s.Tick() },
		"TickRun.Step": func(_ *testing.T, s *core.Scheduler) {
			s.BeginTick().Step(1)
		},
	}
	schedulerReads = map[string]func(t *testing.T, s *core.Scheduler){
		"AMLimitTerms": func(t *testing.T, s *core.Scheduler) {
			_, err := s.AMLimitTerms("a")
			require.NoError(t, err)
		},
		"App":              func(_ *testing.T, s *core.Scheduler) { s.App("a1") },
		"AppendAppsBrief":  func(_ *testing.T, s *core.Scheduler) { s.AppendAppsBrief(nil, 0, s.NumApps()) },
		"AppendQueues":     func(_ *testing.T, s *core.Scheduler) { s.AppendQueues(nil, 0, s.NumQueues()) },
		"AppendNodesBrief": func(_ *testing.T, s *core.Scheduler) { s.AppendNodesBrief(nil, nil, 0, s.NumNodes()) },
		"Apps":             func(_ *testing.T, s *core.Scheduler) { s.Apps() },
		"BeginClone":       func(_ *testing.T, s *core.Scheduler) { s.BeginClone().Step(5) },
		"BeginTick":        func(_ *testing.T, s *core.Scheduler) { s.BeginTick() },
		"CheckAccess": func(t *testing.T, s *core.Scheduler) {
			_, err := s.CheckAccess("a", "ua", nil, core.SubmitApplications)
			require.NoError(t, err)
		},
		"CheckInvariants": func(t *testing.T, s *core.Scheduler) { require.NoError(t, s.CheckInvariants()) },
		"Clone":           func(_ *testing.T, s *core.Scheduler) { s.Clone() },
		"ClusterResource": func(_ *testing.T, s *core.Scheduler) { s.ClusterResource() },
		"ClusterUsed":     func(_ *testing.T, s *core.Scheduler) { s.ClusterUsed() },
		"Conf":            func(_ *testing.T, s *core.Scheduler) { s.Conf().Set(capPrefix+"root.a.capacity", "10") },
		"Counters":        func(_ *testing.T, s *core.Scheduler) { s.Counters() },
		"LastPreemption":  func(_ *testing.T, s *core.Scheduler) { s.LastPreemption() },
		"Node":            func(_ *testing.T, s *core.Scheduler) { s.Node("n0") },
		"Nodes":           func(_ *testing.T, s *core.Scheduler) { s.Nodes() },
		"Now":             func(_ *testing.T, s *core.Scheduler) { s.Now() },
		"NodeLabels":      func(_ *testing.T, s *core.Scheduler) { s.NodeLabels() },
		"Partitions":      func(_ *testing.T, s *core.Scheduler) { s.Partitions() },
		"PartitionLimitTerms": func(_ *testing.T, s *core.Scheduler) {
			_, _, _ = s.PartitionLimitTerms("a", "")
		},
		"PartitionResource": func(_ *testing.T, s *core.Scheduler) { s.PartitionResource("") },
		"NumApps":           func(_ *testing.T, s *core.Scheduler) { s.NumApps() },
		"NumQueues":         func(_ *testing.T, s *core.Scheduler) { s.NumQueues() },
		"NumContainers":     func(_ *testing.T, s *core.Scheduler) { s.NumContainers() },
		"NumNodes":          func(_ *testing.T, s *core.Scheduler) { s.NumNodes() },
		"Queue": func(t *testing.T, s *core.Scheduler) {
			_, err := s.Queue("b")
			require.NoError(t, err)
		},
		"Queues":     func(_ *testing.T, s *core.Scheduler) { s.Queues() },
		"QueueUsage": func(_ *testing.T, s *core.Scheduler) { s.QueueUsage(nil, nil) },
		"Record":     func(_ *testing.T, s *core.Scheduler) { s.Record() },
		"Settings":   func(_ *testing.T, s *core.Scheduler) { s.Settings() },
		"UserLimitTerms": func(t *testing.T, s *core.Scheduler) {
			_, err := s.UserLimitTerms("a")
			require.NoError(t, err)
		},
	}
)

func TestEveryExportedMethodIsAReadOrAWrite(t *testing.T) {
	typ := reflect.TypeFor[*core.Scheduler]()
	for i := range typ.NumMethod() {
		name := typ.Method(i).Name
		_, r := schedulerReads[name]
		_, w := schedulerWrites[name]
		require.True(t, r != w, "Scheduler.%s: add it to schedulerReads or schedulerWrites (clone_test.go)", name)
	}
}

func TestACloneNoticesThatItsSourceChanged(t *testing.T) {
	for name, write := range schedulerWrites {
		for _, after := range []int{0, 1, 30} { // objects copied before the change
			s := preemptingCluster(t)
			c := s.BeginClone()
			if after > 0 {
				done, err := c.Step(after)
				require.NoError(t, err)
				require.False(t, done)
			}
			write(t, s)
			done, err := c.Step(1000)
			require.True(t, done, name)
			require.ErrorIs(t, err, core.ErrCloneSourceChanged, "%s after %d objects", name, after)
			_, err = c.Scheduler()
			require.ErrorIs(t, err, core.ErrCloneSourceChanged, name)
			done, err = c.Step(0)
			require.True(t, done)
			require.ErrorIs(t, err, core.ErrCloneSourceChanged, name)
		}
	}
}

func TestReadingTheSourceDuringACloneIsFine(t *testing.T) {
	for name, read := range schedulerReads {
		s := preemptingCluster(t)
		c := s.BeginClone()
		for {
			read(t, s)
			done, err := c.Step(20)
			require.NoError(t, err, name)
			if done {
				break
			}
		}
		d, err := c.Scheduler()
		require.NoError(t, err, name)
		require.NoError(t, core.CloneShapeError(s, d), name)
	}
}

func TestACloneFinishedBeforeTheSourceChangesIsKept(t *testing.T) {
	s := preemptingCluster(t)
	c := s.BeginClone()
	done, err := c.Step(0)
	require.True(t, done)
	require.NoError(t, err)
	want := stateJSON(t, s)
	s.Tick()
	done, err = c.Step(1)
	require.True(t, done)
	require.NoError(t, err)
	d, err := c.Scheduler()
	require.NoError(t, err)
	require.Equal(t, want, stateJSON(t, d))
}
