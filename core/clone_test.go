package core_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// twinOf is a workload that plays on from the clone s of w's scheduler with
// the same random draws.
func twinOf(w *workload, s *core.Scheduler) *workload {
	pcg := *w.pcg
	return &workload{t: w.t, pcg: &pcg, r: rand.New(&pcg), s: s,
		apps: slices.Clone(w.apps), nodes: slices.Clone(w.nodes), leafs: w.leafs, step: w.step, added: w.added}
}

func TestCloneIsExactAndReplaysIdentically(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		w := newWorkload(t, seed)
		w.s.SetRecord([]core.RecordLevel{core.RecordFull, core.RecordDecisions, core.RecordNone}[seed%3])
		for range 120 {
			w.do()
		}
		if seed%2 == 0 {
			w.s.TakeEvents() // odd seeds clone a pending record too
		}
		twin := twinOf(w, w.s.Clone())
		require.NoError(t, core.CloneShapeError(w.s, twin.s), "seed %d", seed)
		before := stateJSON(t, twin.s)
		for range 80 {
			w.do()
		}
		require.Equal(t, before, stateJSON(t, twin.s), "seed %d: the clone changed when the original moved on", seed)
		for range 80 {
			twin.do()
		}
		require.Equal(t, stateJSON(t, w.s), stateJSON(t, twin.s), "seed %d: the clone replayed differently", seed)
		require.Equal(t, w.s.TakeEvents(), twin.s.TakeEvents(), "seed %d", seed)
		require.NoError(t, twin.s.CheckInvariants())
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

func TestCloneOfReservationsAndPreemption(t *testing.T) {
	s := preemptingCluster(t)
	sawReservation, sawCandidates := false, false
	for tick := range 8 {
		for _, n := range s.Nodes() {
			sawReservation = sawReservation || n.Reservation != nil
		}
		if d, ok := s.LastPreemption(); ok && len(d.Marked) > 0 {
			sawCandidates = true
		}
		twin := s.Clone()
		require.NoError(t, core.CloneShapeError(s, twin), "tick %d", tick)
		a, b := s.Clone(), twin
		for range 3 {
			a.Tick()
			b.Tick()
		}
		require.Equal(t, stateJSON(t, a), stateJSON(t, b), "tick %d", tick)
		require.Equal(t, a.TakeEvents(), b.TakeEvents(), "tick %d", tick)
		s.Tick()
	}
	require.True(t, sawReservation, "the scenario should clone a reserved node")
	require.True(t, sawCandidates, "the scenario should clone preemption candidates")
}

func TestCloneShapeAfterAQueueWithEndedAppsIsRemoved(t *testing.T) {
	s := endedAppInRemovedQueue(t)
	twin := s.Clone()
	require.NoError(t, core.CloneShapeError(s, twin))
	a0, _ := twin.App("app0")
	require.Equal(t, "root.b", a0.Queue)
}
