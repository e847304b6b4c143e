package core_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// queueLabels is TestUtils.getConfigurationWithQueueLabels (Hadoop 3.3):
// root a(10%, max 15%, x 100%) b(20%, y 100%) c(70%, max 70%, no labels),
// each with one leaf (a1, b1 with maximum-am-resource-percent 1, c1).
// withDefaults adds getConfigurationWithDefaultQueueLabels's default label
// expressions (a: x, b: y).
func queueLabels(withDefaults bool) map[string]string {
	p := capPrefix + "root."
	m := map[string]string{
		p + "queues": "a,b,c", p + "accessible-node-labels.x.capacity": "100", p + "accessible-node-labels.y.capacity": "100",
		p + "a.capacity": "10", p + "a.maximum-capacity": "15", p + "a.accessible-node-labels": "x", p + "a.accessible-node-labels.x.capacity": "100",
		p + "b.capacity": "20", p + "b.accessible-node-labels": "y", p + "b.accessible-node-labels.y.capacity": "100",
		p + "c.capacity": "70", p + "c.maximum-capacity": "70", p + "c.accessible-node-labels": "",
		p + "a.queues": "a1", p + "a.a1.capacity": "100", p + "a.a1.maximum-capacity": "100", p + "a.a1.accessible-node-labels.x.capacity": "100",
		p + "b.queues": "b1", p + "b.b1.capacity": "100", p + "b.b1.maximum-capacity": "100", p + "b.b1.accessible-node-labels.y.capacity": "100",
		p + "b.b1.maximum-am-resource-percent": "1",
		p + "c.queues":                         "c1", p + "c.c1.capacity": "100", p + "c.c1.maximum-capacity": "100",
	}
	if withDefaults {
		m[p+"a.default-node-label-expression"] = "x"
		m[p+"b.default-node-label-expression"] = "y"
	}
	return m
}

// labelledCluster builds a scheduler with the cluster labels and nodes
// given (name, label, MB).
func labelledCluster(t *testing.T, conf map[string]string, labels []core.NodeLabel, nodes ...core.NodeSpec) *core.Scheduler {
	t.Helper()
	s, err := core.New(config.FromMap(conf), config.Hadoop3)
	require.NoError(t, err)
	require.NoError(t, s.AddNodeLabels(labels))
	require.NoError(t, s.AddNodes(nodes))
	return s
}

func labelNode(name, label string, mb int64) core.NodeSpec {
	return core.NodeSpec{Name: name, Label: label, Capacity: resource.New(mb, 8)}
}

func label(l string) *string { return &l }

// onNode counts an application's live containers on a node
// (checkNumOfContainersInAnAppOnGivenNode).
func onNode(t *testing.T, s *core.Scheduler, app, node string) int {
	t.Helper()
	a, ok := s.App(app)
	require.True(t, ok, app)
	n := 0
	for _, c := range a.Containers {
		if c.Node == node && !c.Reserved {
			n++
		}
	}
	return n
}

// submitAM submits an application with a 1 GB AM the RM asks for, and
// heartbeats node until the AM runs (MockRM.launchAndRegisterAM).
func submitAM(t *testing.T, s *core.Scheduler, sub core.Submission, node string) {
	t.Helper()
	if sub.AM == nil {
		am := resource.New(1024, 1)
		sub.AM = &am
	}
	sub.AMContainerRequest = true
	require.NoError(t, s.Submit(sub))
	require.NoError(t, s.Heartbeat(node))
	require.Equal(t, 1, onNode(t, s, sub.App, node), "the AM of %s runs on %s", sub.App, node)
}

func ask(app string, prio, count int, lbl *string) []core.Ask {
	return []core.Ask{{App: app, Priority: prio, Resource: resource.New(1024, 1), Count: count, Locality: core.AnyLocation, Label: lbl}}
}

// TestContainerAllocationWithSingleUserLimits is Hadoop's test of that
// name: a1's default label is x; a default-partition ask gets one
// container (a is at most 15% of the 8000 MB default partition), and x
// asks fill h1 (7 of 1024 MB in 8000, the AM included).
func TestContainerAllocationWithSingleUserLimits(t *testing.T) {
	s := labelledCluster(t, queueLabels(true), []core.NodeLabel{{Name: "x", Exclusive: true}, {Name: "y", Exclusive: true}},
		labelNode("h1", "x", 8000), labelNode("h2", "y", 8000), labelNode("h3", "", 8000))
	am := resource.New(200, 1)
	submitAM(t, s, core.Submission{App: "app1", User: "user", Queue: "a1", AM: &am}, "h1")
	require.NoError(t, s.Request(ask("app1", 1, 1, label(""))))
	require.NoError(t, s.Heartbeat("h3"))
	require.Equal(t, 1, onNode(t, s, "app1", "h3"))
	require.NoError(t, s.Request(ask("app1", 1, 1, label(""))))
	for range 3 {
		require.NoError(t, s.Heartbeat("h3"))
	}
	require.Equal(t, 1, onNode(t, s, "app1", "h3"), "a's maximum in the default partition is 15% of 8000 MB")
	for range 6 {
		require.NoError(t, s.Request(ask("app1", 1, 1, label("x"))))
		require.NoError(t, s.Heartbeat("h1"))
	}
	require.Equal(t, 7, onNode(t, s, "app1", "h1"))
	q := queue(t, s, "a1")
	require.Equal(t, int64(1024), q.Used.MemoryMB, "the default partition's usage")
	require.Equal(t, "x", q.Partitions[0].Label)
	require.Equal(t, int64(7*1024), q.Partitions[0].Used.MemoryMB)
	require.Equal(t, "x", q.DefaultLabelExpression)
	require.NoError(t, s.CheckInvariants())
}

// TestPreferenceOfNeedyAppsTowardsNodePartitions is Hadoop's test of that
// name: on h1 (partition y, not exclusive) app2's y asks are served
// before app1's default-partition asks, though app1 came first.
func TestPreferenceOfNeedyAppsTowardsNodePartitions(t *testing.T) {
	s := labelledCluster(t, queueLabels(false), []core.NodeLabel{{Name: "x", Exclusive: true}, {Name: "y", Exclusive: false}},
		labelNode("h1", "y", 8*1024), labelNode("h2", "", 100*1024))
	submitAM(t, s, core.Submission{App: "app1", User: "user", Queue: "b1"}, "h2")
	submitAM(t, s, core.Submission{App: "app2", User: "user", Queue: "b1"}, "h2")
	require.NoError(t, s.Request(ask("app1", 1, 8, nil)))
	require.NoError(t, s.Request(ask("app2", 1, 8, label("y"))))
	for range 50 {
		require.NoError(t, s.Heartbeat("h1"))
		require.NoError(t, s.Heartbeat("h2"))
		require.NoError(t, s.CheckInvariants())
	}
	require.Equal(t, 0, onNode(t, s, "app1", "h1"))
	require.Equal(t, 9, onNode(t, s, "app1", "h2"))
	require.Equal(t, 8, onNode(t, s, "app2", "h1"))
	require.Equal(t, 1, onNode(t, s, "app2", "h2"))
}

// TestPreferenceOfNeedyPrioritiesTowardsNodePartitions is
// testPreferenceOfNeedyPrioritiesUnderSameAppTowardsNodePartitions: on a
// y node, priority 2's y ask is served before priority 1's default one.
func TestPreferenceOfNeedyPrioritiesTowardsNodePartitions(t *testing.T) {
	s := labelledCluster(t, queueLabels(false), []core.NodeLabel{{Name: "x", Exclusive: true}, {Name: "y", Exclusive: false}},
		labelNode("h1", "y", 8*1024), labelNode("h2", "", 100*1024))
	submitAM(t, s, core.Submission{App: "app1", User: "user", Queue: "b1"}, "h2")
	require.NoError(t, s.Request(append(ask("app1", 1, 1, label("")), ask("app1", 2, 1, label("y"))...)))
	require.NoError(t, s.Heartbeat("h1"))
	a, _ := s.App("app1")
	require.Len(t, a.Requests, 3, "the AM request at priority 0, then 1 and 2")
	require.Equal(t, 1, a.Requests[1].Outstanding, "priority 1 (default partition) still pending")
	require.Equal(t, 0, a.Requests[2].Outstanding, "priority 2 (y) allocated")
}

// TestNonLabeledRequestPrefersNonLabeledNode is
// testNonLabeledResourceRequestGetPreferrenceToNonLabeledNode: with room
// on h2, the default partition's asks never go to h1 (x, not exclusive).
func TestNonLabeledRequestPrefersNonLabeledNode(t *testing.T) {
	s := labelledCluster(t, queueLabels(false), []core.NodeLabel{{Name: "x", Exclusive: false}, {Name: "y", Exclusive: true}},
		labelNode("h1", "x", 8*1024), labelNode("h2", "", 100*1024))
	submitAM(t, s, core.Submission{App: "app1", User: "user", Queue: "b1"}, "h2")
	require.NoError(t, s.Request(ask("app1", 1, 6, label(""))))
	for range 6 {
		require.NoError(t, s.Heartbeat("h1"))
		require.NoError(t, s.Heartbeat("h2"))
	}
	require.Equal(t, 0, onNode(t, s, "app1", "h1"))
	require.Equal(t, 7, onNode(t, s, "app1", "h2"))
}

// TestAMContainerAllocationWillAlwaysBeExclusive is Hadoop's test of that
// name: an AM for the default partition is never placed on a shared
// partition's node.
func TestAMContainerAllocationWillAlwaysBeExclusive(t *testing.T) {
	s := labelledCluster(t, queueLabels(false), []core.NodeLabel{{Name: "x", Exclusive: false}, {Name: "y", Exclusive: true}},
		labelNode("h1", "x", 8*1024))
	am := resource.New(1024, 1)
	require.NoError(t, s.Submit(core.Submission{App: "app", User: "user", Queue: "b1", AM: &am, AMContainerRequest: true}))
	s.SetRecord(core.RecordFull)
	for range 50 {
		require.NoError(t, s.Heartbeat("h1"))
	}
	require.Equal(t, 0, onNode(t, s, "app", "h1"))
	found := false
	for _, e := range s.TakeEvents() {
		found = found || (e.Kind == core.EvAppSkipped && e.Reason == core.ReasonAMNotShared && e.Partition == "x")
	}
	require.True(t, found, "the record says why the AM is not placed")
}

// TestQueuesWithoutAccessUsingPartitionedNodes is Hadoop's test of that
// name: b cannot access x, but with user-limit-factor 5 its app uses the
// whole cluster, the x node once the default partition is full; it waits
// 10 rounds before the first container on h1 (the default partition's
// node is tried first: missed opportunities must reach the 2 nodes).
func TestQueuesWithoutAccessUsingPartitionedNodes(t *testing.T) {
	p := capPrefix + "root."
	conf := map[string]string{
		p + "queues": "a,b", p + "accessible-node-labels.x.capacity": "100",
		p + "a.capacity": "50", p + "a.accessible-node-labels": "x", p + "a.accessible-node-labels.x.capacity": "100",
		p + "b.capacity": "50", p + "b.accessible-node-labels": "", p + "b.user-limit-factor": "5",
	}
	s := labelledCluster(t, conf, []core.NodeLabel{{Name: "x", Exclusive: false}, {Name: "y", Exclusive: true}},
		labelNode("h1", "x", 10*1024), labelNode("h2", "", 10*1024))
	submitAM(t, s, core.Submission{App: "app1", User: "user", Queue: "b"}, "h2")
	require.NoError(t, s.Request(ask("app1", 1, 50, nil)))
	waited := 0
	for range 50 {
		require.NoError(t, s.Heartbeat("h1"))
		require.NoError(t, s.Heartbeat("h2"))
		if n, _ := s.Node("h1"); len(n.Containers) == 0 {
			waited++
		}
		require.NoError(t, s.CheckInvariants())
	}
	require.Equal(t, 10, waited)
	h1, _ := s.Node("h1")
	h2, _ := s.Node("h2")
	require.Len(t, h1.Containers, 10)
	require.Len(t, h2.Containers, 10)
	b := queue(t, s, "b")
	require.Equal(t, int64(10*1024), b.Used.MemoryMB)
	require.Equal(t, int64(10*1024), b.Partitions[0].Used.MemoryMB, "x's resources, used by a default-partition ask")
	require.False(t, b.Partitions[0].Accessible)
}

// TestExclusivePartitionIsNotShared: the same cluster with x exclusive
// leaves h1 idle.
func TestExclusivePartitionIsNotShared(t *testing.T) {
	p := capPrefix + "root."
	conf := map[string]string{
		p + "queues": "a,b", p + "accessible-node-labels.x.capacity": "100",
		p + "a.capacity": "50", p + "a.accessible-node-labels": "x", p + "a.accessible-node-labels.x.capacity": "100",
		p + "b.capacity": "50", p + "b.user-limit-factor": "5",
	}
	s := labelledCluster(t, conf, []core.NodeLabel{{Name: "x", Exclusive: true}},
		labelNode("h1", "x", 10*1024), labelNode("h2", "", 10*1024))
	submitAM(t, s, core.Submission{App: "app1", User: "user", Queue: "b"}, "h2")
	require.NoError(t, s.Request(ask("app1", 1, 50, nil)))
	s.SetRecord(core.RecordFull)
	for range 30 {
		require.NoError(t, s.Heartbeat("h1"))
		require.NoError(t, s.Heartbeat("h2"))
	}
	h1, _ := s.Node("h1")
	require.Empty(t, h1.Containers)
	done := false
	for _, e := range s.TakeEvents() {
		done = done || (e.Kind == core.EvHeartbeatDone && e.Node == "h1" && e.Reason == core.ReasonPartitionExclusive)
	}
	require.True(t, done)
}

// TestLabelAsksAreChecked: Hadoop's refusals of an ask's label
// expression (SchedulerUtils.validateResourceRequest) and of an AM's at
// submission.
func TestLabelAsksAreChecked(t *testing.T) {
	s := labelledCluster(t, queueLabels(false), []core.NodeLabel{{Name: "x", Exclusive: true}, {Name: "y", Exclusive: true}},
		labelNode("h1", "x", 8*1024), labelNode("h2", "", 8*1024))
	require.NoError(t, s.Submit(core.Submission{App: "app1", User: "user", Queue: "c1"}))
	err := s.Request(ask("app1", 1, 1, label("x")))
	require.ErrorContains(t, err, "Invalid resource request, queue=c1 doesn't have permission to access all labels in resource request. labelExpression of resource request=x. Queue labels=")
	err = s.Request([]core.Ask{{App: "app1", Priority: 1, Resource: resource.New(1024, 1), Count: 1, Locality: "h1", Label: label("x")}})
	require.ErrorContains(t, err, "specified node label expression in a resource request has resource name = h1")
	require.NoError(t, s.Submit(core.Submission{App: "app2", User: "user", Queue: "a1"}))
	err = s.Request(ask("app2", 1, 1, label("z")))
	require.ErrorContains(t, err, "Invalid resource request, queue=a1 doesn't have permission")
	am := resource.New(1024, 1)
	err = s.Submit(core.Submission{App: "app3", User: "user", Queue: "c1", AM: &am, AMContainerRequest: true, AMLabel: "x"})
	require.ErrorContains(t, err, "doesn't have permission to access all labels")
	require.NoError(t, s.AddNodeLabels([]core.NodeLabel{{Name: "z", Exclusive: true}}))
	err = s.AddNode(labelNode("h9", "w", 1024))
	require.ErrorContains(t, err, "Not all labels being replaced contained by known label collections")
	require.ErrorContains(t, s.AddNodeLabels([]core.NodeLabel{{Name: "-bad"}}), "label name should only contains")
}

// TestPartitionAMLimit: an AM in partition x counts against the x AM
// limit (the label's maximum-am-resource-percent of a1's x guarantee),
// not the default partition's.
func TestPartitionAMLimit(t *testing.T) {
	conf := queueLabels(true)
	conf[capPrefix+"root.a.a1.accessible-node-labels.x.maximum-am-resource-percent"] = "0.25"
	s := labelledCluster(t, conf, []core.NodeLabel{{Name: "x", Exclusive: true}},
		labelNode("h1", "x", 8*1024), labelNode("h2", "", 8*1024))
	for _, id := range []string{"app1", "app2", "app3"} {
		am := resource.New(1024, 1)
		require.NoError(t, s.Submit(core.Submission{App: id, User: "u" + id, Queue: "a1", AM: &am, AMContainerRequest: true}))
	}
	q := queue(t, s, "a1")
	require.Equal(t, int64(2048), q.Partitions[0].AMLimit.MemoryMB, "25% of 8 GB")
	require.Equal(t, int64(2048), q.Partitions[0].AMUsed.MemoryMB)
	require.Equal(t, 2, q.NumActiveApps)
	require.Equal(t, int64(0), q.AMUsed.MemoryMB, "nothing in the default partition")
	for range 3 {
		require.NoError(t, s.Heartbeat("h1"))
	}
	require.Equal(t, 1, onNode(t, s, "app1", "h1"))
	require.Equal(t, 1, onNode(t, s, "app2", "h1"))
	require.NoError(t, s.CheckInvariants())
}

// TestContainerReservationWithLabels is Hadoop's test of that name: a1's
// default label x puts its asks on h1; the first heartbeat allocates a
// 4 GB container, the second reserves 4 GB in partition x (root uses 9 GB
// of x, the reservation included); withdrawn asks release it.
func TestContainerReservationWithLabels(t *testing.T) {
	s := labelledCluster(t, queueLabels(true), []core.NodeLabel{{Name: "x", Exclusive: true}, {Name: "y", Exclusive: true}, {Name: "z", Exclusive: true}},
		labelNode("h1", "x", 8*1024), labelNode("h2", "y", 8*1024), labelNode("h3", "x", 8*1024))
	submitAM(t, s, core.Submission{App: "app1", User: "user", Queue: "a1"}, "h1")
	big := []core.Ask{{App: "app1", Priority: 1, Resource: resource.New(4096, 1), Count: 2, Locality: core.AnyLocation}}
	require.NoError(t, s.Request(big))
	require.NoError(t, s.Heartbeat("h1"))
	require.NoError(t, s.Heartbeat("h1"))
	a, _ := s.App("app1")
	require.Equal(t, 2, a.LiveContainers)
	require.Equal(t, 1, a.ReservedContainers)
	root := queue(t, s, "root")
	require.Equal(t, int64(9*1024), root.Partitions[0].Used.MemoryMB, "x: the AM, a 4 GB container and a 4 GB reservation")
	require.Zero(t, root.Used.MemoryMB, "nothing in the default partition")
	require.Zero(t, root.Reserved.MemoryMB, "the queue metrics' reservations are the default partition's")
	require.NoError(t, s.CheckInvariants())

	big[0].Count = 0
	require.NoError(t, s.Request(big))
	require.NoError(t, s.Heartbeat("h1"))
	a, _ = s.App("app1")
	require.Zero(t, a.ReservedContainers)
	require.Equal(t, int64(5*1024), queue(t, s, "root").Partitions[0].Used.MemoryMB)
	require.NoError(t, s.CheckInvariants())
}

// TestParentQueueMaxCapsAreRespected is Hadoop's test of that name: a's
// maximum in x is 50% of the 24 GB node, so its leaves together stop at
// 12 GB: a1 runs its AM and two 4 GB containers (9 GB), a2's 2 GB AM
// fits, its 2 GB asks do not.
func TestParentQueueMaxCapsAreRespected(t *testing.T) {
	p := capPrefix + "root."
	conf := map[string]string{
		p + "queues": "a,b", p + "accessible-node-labels.x.capacity": "100",
		p + "a.capacity": "10", p + "a.accessible-node-labels": "x",
		p + "a.accessible-node-labels.x.capacity": "50", p + "a.accessible-node-labels.x.maximum-capacity": "50",
		p + "b.capacity": "90", p + "b.accessible-node-labels": "x",
		p + "b.accessible-node-labels.x.capacity": "50", p + "b.accessible-node-labels.x.maximum-capacity": "50",
		p + "a.queues":      "a1,a2",
		p + "a.a1.capacity": "50", p + "a.a1.accessible-node-labels": "x", p + "a.a1.user-limit-factor": "100",
		p + "a.a1.accessible-node-labels.x.capacity": "50", p + "a.a1.accessible-node-labels.x.maximum-capacity": "100",
		p + "a.a2.capacity": "50", p + "a.a2.accessible-node-labels": "x", p + "a.a2.user-limit-factor": "100",
		p + "a.a2.accessible-node-labels.x.capacity": "50", p + "a.a2.accessible-node-labels.x.maximum-capacity": "100",
	}
	s := labelledCluster(t, conf, []core.NodeLabel{{Name: "x", Exclusive: false}}, labelNode("h1", "x", 24*1024))
	submitAM(t, s, core.Submission{App: "app1", User: "user", Queue: "a1", AMLabel: "x"}, "h1")
	require.NoError(t, s.Request([]core.Ask{{App: "app1", Priority: 1, Resource: resource.New(4096, 1), Count: 2, Locality: core.AnyLocation, Label: label("x")}}))
	for range 10 {
		require.NoError(t, s.Heartbeat("h1"))
	}
	require.Equal(t, 3, onNode(t, s, "app1", "h1"))
	am := resource.New(2048, 1)
	submitAM(t, s, core.Submission{App: "app2", User: "user", Queue: "a2", AM: &am, AMLabel: "x"}, "h1")
	require.NoError(t, s.Request([]core.Ask{{App: "app2", Priority: 1, Resource: resource.New(2048, 1), Count: 2, Locality: core.AnyLocation, Label: label("x")}}))
	for range 10 {
		require.NoError(t, s.Heartbeat("h1"))
	}
	require.Equal(t, 1, onNode(t, s, "app2", "h1"), "a is at 11 GB of its 12 GB maximum in x")
	require.Equal(t, int64(11*1024), queue(t, s, "a").Partitions[0].Used.MemoryMB)
	require.NoError(t, s.CheckInvariants())
}

// TestOrderOfAllocationOnPartitions is Hadoop's test of that name: on the
// x node (not exclusive), queues that can access x go first, then by used
// capacity in x (ties to the larger capacity in x); default-partition asks
// wait for two missed chances (two nodes) before x lends to them, and
// queues without a capacity in x are ordered by their share of x.
func TestOrderOfAllocationOnPartitions(t *testing.T) {
	p := capPrefix + "root."
	conf := map[string]string{
		p + "queues": "a,b,c,d", p + "accessible-node-labels.x.capacity": "100",
		p + "a.capacity": "25", p + "a.accessible-node-labels": "x", p + "a.accessible-node-labels.x.capacity": "30",
		p + "b.capacity": "25", p + "b.accessible-node-labels": "x", p + "b.accessible-node-labels.x.capacity": "70",
		p + "c.capacity": "25", p + "c.accessible-node-labels": " ",
		p + "d.capacity": "25", p + "d.accessible-node-labels": " ",
	}
	s := labelledCluster(t, conf, []core.NodeLabel{{Name: "x", Exclusive: false}},
		labelNode("h1", "x", 10*1024), labelNode("h2", "", 10*1024))
	apps := map[string]string{"a": "app1", "b": "app2", "c": "app3", "d": "app4"}
	for _, q := range []string{"a", "b", "c", "d"} {
		submitAM(t, s, core.Submission{App: apps[q], User: "user", Queue: q}, "h2")
	}
	on := func(app string) int { return onNode(t, s, app, "h1") }
	beat := func(n int) {
		for range n {
			require.NoError(t, s.Heartbeat("h1"))
		}
		require.NoError(t, s.CheckInvariants())
	}
	require.NoError(t, s.Request(append(ask("app1", 1, 1, label("x")), ask("app2", 1, 1, label("x"))...)))
	beat(1)
	require.Equal(t, 1, on("app2"), "a tie at 0: b has the larger capacity in x")
	require.NoError(t, s.Request(ask("app2", 1, 1, label("x"))))
	beat(1)
	require.Equal(t, 1, on("app1"), "a is at 0 of its guarantee in x, b above")
	require.NoError(t, s.Request(append(ask("app1", 1, 1, label("")), ask("app2", 1, 1, label(""))...)))
	beat(2)
	require.Equal(t, 2, on("app2"))
	require.Equal(t, 1, on("app1"))
	beat(2)
	require.Equal(t, 2, on("app2"))
	require.Equal(t, 2, on("app1"))
	require.NoError(t, s.Request(append(append(ask("app2", 1, 1, label("")), ask("app3", 1, 2, label(""))...), ask("app4", 1, 2, label(""))...)))
	beat(2)
	require.Equal(t, []int{2, 3, 0, 0}, []int{on("app1"), on("app2"), on("app3"), on("app4")})
	beat(1)
	require.Equal(t, []int{2, 3, 1, 0}, []int{on("app1"), on("app2"), on("app3"), on("app4")})
	beat(1)
	require.Equal(t, []int{2, 3, 1, 1}, []int{on("app1"), on("app2"), on("app3"), on("app4")})
	beat(1)
	require.Equal(t, []int{2, 3, 2, 1}, []int{on("app1"), on("app2"), on("app3"), on("app4")})
}
