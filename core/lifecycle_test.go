package core_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/resource"
)

func countEvents(evs []core.Event, kind core.EventKind) int {
	n := 0
	for _, e := range evs {
		if e.Kind == kind {
			n++
		}
	}
	return n
}

// gupta's pesky-testers gets its guarantee back through preemption when the
// monitor is on, and waits for containers to finish when it is off (the
// book's grumpy-engineers story, on 10 nodes of 10 GB).
func TestGuptaGetsHisShareOnlyWithPreemption(t *testing.T) {
	const pre = "yarn.resourcemanager.monitor.capacity.preemption."
	tests := []struct {
		name  string
		extra map[string]string
		gupta int64 // after 60 ticks
	}{
		{"preemption off: gupta waits", nil, 0},
		// Defaults: at most 10% of the cluster per round, of which
		// natural_termination_factor 0.2 is taken (2 GB), killed only after
		// 15 s: preemption is deliberately gradual.
		{"preemption on, Hadoop's defaults", map[string]string{"yarn.resourcemanager.scheduler.monitor.enable": "true"}, 6144},
		// Undamped: gupta reaches pesky-testers' guarantee, 48% of 100 GB.
		{"preemption on, undamped", map[string]string{
			"yarn.resourcemanager.scheduler.monitor.enable": "true",
			pre + "natural_termination_factor":              "1",
			pre + "total_preemption_per_round":              "1",
			pre + "max_wait_before_kill":                    "3000",
		}, 49152},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			extra := map[string]string{capPrefix + "root.grumpy-engineers.infinite-monkeys.user-limit-factor": "10"}
			for k, v := range tc.extra {
				extra[k] = v
			}
			s := newCluster(t, yarnRollers(extra), 10, 10240)
			submitHungry(t, s, "sid-app", "sid", "infinite-monkeys", 1000)
			for i := 0; i < 12; i++ {
				s.Tick()
			}
			require.Equal(t, int64(102400), appMB(t, s, "sid-app"), "sid borrows the whole idle cluster")
			submitHungry(t, s, "gupta-app", "gupta", "pesky-testers", 1000)
			s.TakeEvents()
			var evs []core.Event
			for i := 0; i < 60; i++ {
				s.Tick()
				require.NoError(t, s.CheckInvariants())
				evs = append(evs, s.TakeEvents()...)
			}
			require.Equal(t, tc.gupta, appMB(t, s, "gupta-app"))
			require.Equal(t, tc.gupta > 0, countEvents(evs, core.EvPreemptionKilled) > 0)
			require.Equal(t, int64(102400), s.ClusterUsed().MemoryMB, "killed containers' requests are asked again and refilled")
		})
	}
}

func TestReservationLifecycle(t *testing.T) {
	// One queue, two 8 GB nodes. small fills both nodes with 1 GB
	// containers (3 per node used), big asks for 6 GB: it reserves on the
	// first node that heartbeats, the node then serves only the reservation,
	// and the reservation becomes a container when the node frees enough.
	conf := map[string]string{
		capPrefix + "root.queues":                                      "q",
		capPrefix + "root.q.capacity":                                  "100",
		capPrefix + "root.q.user-limit-factor":                         "2",
		capPrefix + "per-node-heartbeat.maximum-offswitch-assignments": "3",
	}
	s := newCluster(t, conf, 2, 8192)
	require.NoError(t, s.Submit(core.Submission{App: "small", User: "a", Queue: "q"}))
	require.NoError(t, s.Request([]core.Ask{{App: "small", Priority: 1, Resource: resource.New(1024, 1), Count: 6, Locality: core.AnyLocation}}))
	require.NoError(t, s.Heartbeat("n0"))
	require.NoError(t, s.Heartbeat("n1"))
	require.Equal(t, int64(6144), appMB(t, s, "small"))
	require.NoError(t, s.Submit(core.Submission{App: "big", User: "b", Queue: "q"}))
	require.NoError(t, s.Request([]core.Ask{{App: "big", Priority: 1, Resource: resource.New(6144, 1), Count: 1, Locality: core.AnyLocation}}))
	s.TakeEvents()
	require.NoError(t, s.Heartbeat("n0"))
	evs := s.TakeEvents()
	require.Equal(t, 1, countEvents(evs, core.EvReserved))
	n0, _ := s.Node("n0")
	require.NotNil(t, n0.Reservation)
	require.Equal(t, "big", n0.Reservation.App)
	require.Equal(t, int64(3072), n0.Allocated.MemoryMB, "a reservation does not take node space")
	q := queue(t, s, "q")
	require.Equal(t, int64(6144+6144), q.Used.MemoryMB, "reserved resources count as queue usage")
	require.Equal(t, int64(6144), q.Reserved.MemoryMB)
	big, _ := s.App("big")
	require.Zero(t, big.Consumption.MemoryMB)
	require.Equal(t, int64(6144), big.Reserved.MemoryMB)

	// Still no room: the next heartbeat re-reserves.
	require.NoError(t, s.Heartbeat("n0"))
	require.Equal(t, 1, countEvents(s.TakeEvents(), core.EvReReserved))
	// small's containers on n0 finish: the reservation is fulfilled.
	require.NoError(t, s.FinishContainers("small", 3, "n0"))
	require.NoError(t, s.Heartbeat("n0"))
	evs = s.TakeEvents()
	require.Equal(t, 1, countEvents(evs, core.EvReservationFulfil))
	big, _ = s.App("big")
	require.Equal(t, int64(6144), big.Consumption.MemoryMB)
	require.Zero(t, big.Reserved.MemoryMB)
	q = queue(t, s, "q")
	require.Equal(t, int64(3072+6144), q.Used.MemoryMB)
	require.Zero(t, q.Reserved.MemoryMB)
	require.NoError(t, s.CheckInvariants())
}

func TestReservationReleasedWhenTheAppFinishesOrNodeLeaves(t *testing.T) {
	conf := map[string]string{capPrefix + "root.queues": "q", capPrefix + "root.q.capacity": "100", capPrefix + "root.q.user-limit-factor": "2"}
	for _, how := range []string{"finish", "remove node"} {
		s := newCluster(t, conf, 2, 8192)
		require.NoError(t, s.Submit(core.Submission{App: "small", User: "a", Queue: "q"}))
		require.NoError(t, s.Request([]core.Ask{{App: "small", Priority: 1, Resource: resource.New(4096, 1), Count: 1, Locality: core.AnyLocation}}))
		require.NoError(t, s.Heartbeat("n0"))
		require.NoError(t, s.Submit(core.Submission{App: "big", User: "b", Queue: "q"}))
		require.NoError(t, s.Request([]core.Ask{{App: "big", Priority: 1, Resource: resource.New(8192, 1), Count: 1, Locality: core.AnyLocation}}))
		require.NoError(t, s.Heartbeat("n0"))
		n0, _ := s.Node("n0")
		require.NotNil(t, n0.Reservation)
		s.TakeEvents()
		if how == "finish" {
			require.NoError(t, s.FinishApp("big"))
		} else {
			require.NoError(t, s.RemoveNode("n0"))
		}
		require.Equal(t, 1, countEvents(s.TakeEvents(), core.EvUnreserved), how)
		require.Zero(t, queue(t, s, "q").Reserved.MemoryMB, how)
		require.NoError(t, s.CheckInvariants(), how)
	}
}

func TestContainersWithADurationFinishByThemselves(t *testing.T) {
	conf := map[string]string{capPrefix + "root.queues": "q", capPrefix + "root.q.capacity": "100"}
	s := newCluster(t, conf, 1, 8192)
	require.NoError(t, s.Submit(core.Submission{App: "a", User: "u", Queue: "q"}))
	require.NoError(t, s.Request([]core.Ask{{App: "a", Priority: 1, Resource: resource.New(1024, 1), Count: 1, Locality: core.AnyLocation, Duration: 3}}))
	s.Tick() // tick 0: allocated, ends at tick 3
	require.Equal(t, int64(1024), appMB(t, s, "a"))
	s.Tick()
	s.Tick()
	require.Equal(t, int64(1024), appMB(t, s, "a"), "still running at ticks 1 and 2")
	s.Tick() // tick 3: reported at the node's heartbeat
	require.Zero(t, appMB(t, s, "a"))
}

func TestApplicationPriorityOrdersTheLeaf(t *testing.T) {
	conf := map[string]string{capPrefix + "root.queues": "q", capPrefix + "root.q.capacity": "100", "yarn.cluster.max-application-priority": "10"}
	s := newCluster(t, conf, 1, 8192)
	low, high, capped := 1, 5, 50
	require.NoError(t, s.Submit(core.Submission{App: "first", User: "u", Queue: "q", Priority: &low}))
	require.NoError(t, s.Submit(core.Submission{App: "second", User: "u", Queue: "q", Priority: &high}))
	require.NoError(t, s.Submit(core.Submission{App: "third", User: "u", Queue: "q", Priority: &capped}))
	require.Equal(t, []string{"third", "second", "first"}, queue(t, s, "q").ActiveApps, "higher priority first; 50 is capped at 10")
	a, _ := s.App("third")
	require.Equal(t, 10, a.Priority)
}

// endedAppInRemovedQueue returns a cluster where app0 ended in queue b, which
// a refresh then removed, and app1 runs in c.
func endedAppInRemovedQueue(t *testing.T) *core.Scheduler {
	t.Helper()
	conf := map[string]string{
		capPrefix + "root.queues": "a,b,c", capPrefix + "root.a.capacity": "40",
		capPrefix + "root.b.capacity": "30", capPrefix + "root.c.capacity": "30",
	}
	s := newCluster(t, conf, 1, 8192)
	require.NoError(t, s.Submit(core.Submission{App: "app0", User: "u", Queue: "b"}))
	require.NoError(t, s.FinishApp("app0"))
	c := s.Conf()
	c.Set(capPrefix+"root.b.state", "STOPPED")
	require.NoError(t, s.Refresh(c))
	c.Set(capPrefix+"root.queues", "a,c")
	c.Set(capPrefix+"root.a.capacity", "70")
	c.Unset(capPrefix + "root.b.capacity")
	c.Unset(capPrefix + "root.b.state")
	require.NoError(t, s.Refresh(c))
	submitHungry(t, s, "app1", "u", "c", 2)
	return s
}

// An application that ended in a queue a refresh then removed stays in the
// RM's list; cloning (the playground's checkpoints) must copy it faithfully.
func TestCloneAfterAQueueWithEndedAppsIsRemoved(t *testing.T) {
	s := endedAppInRemovedQueue(t)
	twin := s.Clone()
	require.Equal(t, stateJSON(t, s), stateJSON(t, twin))
	a0, _ := twin.App("app0")
	require.Equal(t, "root.b", a0.Queue)
	s.Tick()
	twin.Tick()
	require.Equal(t, stateJSON(t, s), stateJSON(t, twin))
	require.NoError(t, twin.CheckInvariants())
}

// An attempt whose AM container is lost fails, and the next one starts:
// the old attempt's other containers are killed, its asks dropped, and the
// new attempt asks only for its AM, activated against the AM limit of the
// cluster without the lost node (RMAppAttemptImpl, RMAppImpl's
// AttemptFailedTransition, CapacityScheduler.doneApplicationAttempt and
// addApplicationAttempt).
func TestAnAttemptThatLosesItsAMStartsAgain(t *testing.T) {
	conf := map[string]string{capPrefix + "root.queues": "q", capPrefix + "root.q.capacity": "100", capPrefix + "root.q.user-limit-factor": "2"}
	am := resource.New(1024, 1)
	tests := []struct {
		name        string
		second      bool // b, submitted after a, runs its AM on n1
		activated   bool // a's second attempt, once n0 has left
		amLimitLeft int64
	}{
		// 16 GB: an AM limit of 10%, 2 GB (rounded up to the minimum
		// allocation); 8 GB: 1 GB.
		{"alone: the first application of a queue is always activated", false, true, 0},
		{"behind b's AM: the smaller cluster's AM limit keeps it pending", true, false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newCluster(t, conf, 2, 8192)
			require.NoError(t, s.Submit(core.Submission{App: "a", User: "u", Queue: "q", AM: &am, AMContainerRequest: true}))
			require.NoError(t, s.Heartbeat("n0"))
			if tc.second {
				require.NoError(t, s.Submit(core.Submission{App: "b", User: "v", Queue: "q", AM: &am, AMContainerRequest: true}))
				require.NoError(t, s.Heartbeat("n1"))
			}
			a, _ := s.App("a")
			require.Equal(t, core.AppRunning, a.State)
			require.Equal(t, 1, a.Attempt)
			require.NoError(t, s.Request([]core.Ask{{App: "a", Priority: 1, Resource: resource.New(2048, 1), Count: 3, Locality: core.AnyLocation}}))
			require.NoError(t, s.Heartbeat("n1"))
			require.NoError(t, s.Heartbeat("n1"))
			a, _ = s.App("a")
			require.Equal(t, 3, a.LiveContainers, "the AM on n0, two containers on n1")
			s.TakeEvents()

			require.NoError(t, s.RemoveNode("n0"))
			evs := s.TakeEvents()
			require.NoError(t, s.CheckInvariants())
			a, _ = s.App("a")
			require.Equal(t, core.AppAccepted, a.State)
			require.Equal(t, 2, a.Attempt)
			require.Zero(t, a.LiveContainers, "the failed attempt's containers on n1 are killed")
			require.Zero(t, a.Consumption.MemoryMB)
			require.Equal(t, tc.activated, a.Activated)
			require.Len(t, a.Requests, 1, "the new attempt asks only for its AM")
			require.Equal(t, 0, a.Requests[0].Priority)
			require.Equal(t, 1, a.Requests[0].Outstanding)
			require.Equal(t, 1, countEvents(evs, core.EvAttemptFailed))
			require.Equal(t, 3, countEvents(evs, core.EvContainerFinished))
			removed, failed := -1, -1
			for i, e := range evs {
				switch e.Kind {
				case core.EvNodeRemoved:
					removed = i
				case core.EvAttemptFailed:
					failed = i
					require.Equal(t, core.ReasonNodeRemoved, e.Reason)
					require.Equal(t, 2, e.Seq)
					require.Contains(t, e.Detail, "exitCode: -100")
				case core.EvContainerFinished:
					if e.Node == "n1" {
						require.Equal(t, core.ReasonAttemptFailed, e.Reason)
					}
				}
			}
			require.Less(t, removed, failed, "the attempt fails after the node has left")
			require.Equal(t, 0, countEvents(evs, core.EvAppActivated)-btoi(tc.activated), "activated again only when the AM limit allows")

			require.NoError(t, s.Heartbeat("n1"))
			a, _ = s.App("a")
			if tc.activated {
				require.Equal(t, core.AppRunning, a.State, "the new AM runs on n1")
				require.Equal(t, int64(1024), a.Consumption.MemoryMB)
			} else {
				require.Equal(t, core.AppAccepted, a.State)
				require.Zero(t, a.Consumption.MemoryMB)
			}
			require.NoError(t, s.CheckInvariants())
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// When the AM's node was the last, the new attempt waits for nodes:
// LeafQueue.addApplicationAttempt activates nothing on an empty cluster.
func TestAnAttemptLostWithTheLastNodeWaitsForNodes(t *testing.T) {
	conf := map[string]string{capPrefix + "root.queues": "q", capPrefix + "root.q.capacity": "100"}
	am := resource.New(1024, 1)
	s := newCluster(t, conf, 1, 8192)
	require.NoError(t, s.Submit(core.Submission{App: "a", User: "u", Queue: "q", AM: &am, AMContainerRequest: true}))
	require.NoError(t, s.Heartbeat("n0"))
	require.NoError(t, s.RemoveNode("n0"))
	a, _ := s.App("a")
	require.Equal(t, core.AppAccepted, a.State)
	require.Equal(t, 2, a.Attempt)
	require.False(t, a.Activated)
	require.Contains(t, a.Diagnostics, "cluster resource is empty")
	require.NoError(t, s.CheckInvariants())
	require.NoError(t, s.AddNode(core.NodeSpec{Name: "n1", Capacity: resource.New(8192, 8)}))
	require.NoError(t, s.Heartbeat("n1"))
	a, _ = s.App("a")
	require.True(t, a.Activated, "activated when the cluster grows")
	require.Equal(t, core.AppRunning, a.State)
}

// A preempted AM container fails its attempt too: a's ten apps hold the
// whole cluster with their AMs alone, b asks for its guarantee, and the
// undamped monitor kills AMs beyond what a's AM share keeps.
func TestAPreemptedAMFailsItsAttempt(t *testing.T) {
	const pre = "yarn.resourcemanager.monitor.capacity.preemption."
	conf := map[string]string{
		capPrefix + "root.queues":                                     "a,b",
		capPrefix + "root.a.capacity":                                 "50",
		capPrefix + "root.a.maximum-capacity":                         "100",
		capPrefix + "root.a.user-limit-factor":                        "10",
		capPrefix + "root.a.maximum-am-resource-percent":              "1",
		capPrefix + "root.b.capacity":                                 "50",
		"yarn.resourcemanager.scheduler.monitor.enable":               "true",
		pre + "natural_termination_factor":                            "1",
		pre + "total_preemption_per_round":                            "1",
		pre + "max_wait_before_kill":                                  "3000",
		capPrefix + "per-node-heartbeat.multiple-assignments-enabled": "false",
	}
	am := resource.New(1024, 1)
	s := newCluster(t, conf, 1, 10240)
	for i := range 10 {
		require.NoError(t, s.Submit(core.Submission{App: fmt.Sprintf("a%d", i), User: "u", Queue: "a", AM: &am, AMContainerRequest: true}))
	}
	for range 12 {
		s.Tick()
	}
	require.Equal(t, int64(10240), s.ClusterUsed().MemoryMB, "ten AMs fill the node")
	submitHungry(t, s, "b0", "v", "b", 5)
	s.TakeEvents()
	var failed []core.Event
	for range 30 {
		s.Tick()
		require.NoError(t, s.CheckInvariants())
		for _, e := range s.TakeEvents() {
			if e.Kind == core.EvAttemptFailed {
				failed = append(failed, e)
			}
		}
	}
	require.NotEmpty(t, failed, "some of a's AMs are preempted")
	for _, e := range failed {
		require.Equal(t, core.ReasonPreempted, e.Reason)
		require.Contains(t, e.Detail, "exitCode: -102")
		a, _ := s.App(e.App)
		require.GreaterOrEqual(t, a.Attempt, 2)
	}
	require.Positive(t, appMB(t, s, "b0"), "b gets containers")
}
