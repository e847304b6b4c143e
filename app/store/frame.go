// Package store owns the playground's simulation: the scenario being
// played or edited, the scheduler replaying it, time travel, and the Frames
// it publishes. It knows nothing of go-app or the browser, so it is tested
// natively; the UI only renders Frames and sends the store actions.
package store

import (
	"cmp"
	"slices"

	"yarnplay/core"
	"yarnplay/core/resource"
	"yarnplay/internal/noeq"
)

// Frame is the state of the simulation at one step, as the views render it.
// A published Frame is never changed: the store builds a new one for every
// step, so components may keep it (go-app copies state shallowly).
type Frame struct {
	// Step is the step the viewer stands on: 0 is the start (configuration
	// and nodes), n the state after the scenario's n-th step.
	Step int
	// Steps is the number of steps in the scenario.
	Steps int
	// Label says what the step did, e.g. "step 42: heartbeat of n3".
	Label string
	// Kind is the step's kind ("heartbeat", "submit", ...; "" at the start).
	Kind string
	// Note is the lesson's narration for this step, if any.
	Note string
	// Tick is the scheduler's simulated time.
	Tick int64

	// Cluster is the sum of the nodes; ClusterUsed includes reservations.
	Cluster, ClusterUsed resource.Resource
	// Dominant is true when the dominant resource calculator is in use
	// (vcores count); false means memory only.
	Dominant bool
	// MinAlloc is the scheduler's minimum allocation
	// (yarn.scheduler.minimum-allocation-mb/-vcores): the cell of the node
	// grid and the "required" term of the user-limit formula. Added for the
	// views; zero makes them fall back to 1024 MB, 1 vcore.
	MinAlloc resource.Resource
	// Queues are pre-order, children in configuration order: the rows never
	// move as usage changes. Only the queues whose users the page may show
	// (the selected queue and the lanes' leaves) carry their Users.
	Queues []core.QueueView
	// Nodes are in registration order, without what changes as they
	// run: each node's name, rack, capacity and label (NodeView's
	// Allocated, Reservation and Containers are not set), shared by the
	// frames while the nodes do not change. NodeUsed and Reserved hold
	// their usage, Containers their containers in brief; NodeBrief gives
	// a node's view with its usage, Node its whole view.
	Nodes []core.NodeView
	// NodeUsed is, for each of Nodes, what its containers use
	// (NodeView.Allocated): a flat array without pointers, which the page
	// reads at every step far faster than it would the nodes' views.
	NodeUsed []resource.Resource
	// Reserved are the nodes' reservations, in node order.
	Reserved []NodeReservation
	// Containers are the nodes' containers in brief, node after node, each
	// node's in its order: node i's are Containers[NodeAt[i]:NodeAt[i+1]]
	// (NodeAt has one element more than Nodes). Hundreds of thousands of
	// containers cost far less to build and keep that way.
	Containers []core.ContainerBrief
	NodeAt     []int
	// Apps are in submission order, without their containers
	// (AppView.Containers is nil): Containers lists them, and tens of
	// thousands of applications cost far less to show without. A page's
	// frame holds only those the page shows, and Shown says which (see
	// shown.go); look an application up by its index with App.
	Apps  []core.AppView
	Shown *Shown
	// Events are the decisions of this step; Narration says them in
	// sentences, one per decision.
	Events    []core.Event
	Narration []string
	// HeartbeatNode is the node whose heartbeat this step was, if any.
	HeartbeatNode string
	// Walk is, per leaf queue path, the apps the scheduler considered in
	// this step in the order it walked them, with what happened to each.
	Walk map[string][]AppVisit

	// History is the usage of every queue at every step up to this one,
	// for the usage-over-time chart.
	History []HistoryPoint

	// Selected is the selected queue's path ("" for none); SelectedUser the
	// selected user in it. UserLimit and AMLimit are the selected leaf's
	// formulas with today's numbers (nil when the selection is not a leaf).
	Selected     string
	SelectedUser string
	UserLimit    *core.UserLimitTerms
	AMLimit      *core.AMLimitTerms

	// Broken names, by queue path, the configuration rule the queue breaks
	// in words (the editor's validation: "capacities of the children of
	// root.a sum to 90%, not 100%"), for a badge on its row; nil or empty
	// when the configuration is valid. Added for the views.
	Broken map[string]string

	// Check reports the lesson's expectations up to this step: failures say
	// what was expected and found.
	Check []string
	// Err is the last error shown to the user in words (a refused step, a
	// bad import), or "".
	Err string

	// StepError is the error of this step itself, when it failed (a step
	// written to fail, or one that fails in a loaded scenario); Expected is
	// true when the step says it must fail.
	StepError string
	Expected  bool

	// Title, Description and Source are the scenario's name, markdown
	// description and origin; Lesson is the built-in lesson's slug ("" for
	// other work).
	Title, Description, Source, Lesson string
	// Profile is the scenario's profile as written: "hadoop-3" (or
	// "hadoop-3.3"), "hadoop-3.4" or "hadoop-2"; "" is hadoop-3.
	Profile string
	// Conf is the configuration in force at this step, Hadoop's keys and
	// values (the queue editor starts from it; copy it before changing it).
	Conf map[string]string
	// Groups are the users' groups (for ACLs), from the start.
	Groups map[string][]string
	// Users are the users the scenario names (apps' owners and users with
	// groups), sorted.
	Users []string
	// NextNode is the node a "forward one heartbeat" at the end would
	// heartbeat: the one after the last heartbeat, in node order.
	NextNode string
	// Revision counts the changes to the scenario since it was loaded: a
	// new value means the work changed (and should be saved).
	Revision int
	// Warnings are the configuration's warnings (properties read but not
	// simulated), from core.
	Warnings []string
	// Assumptions are what an imported cluster snapshot did not say and
	// the import chose (the scenario's assumptions), for a banner.
	Assumptions []string

	// Partitions are the cluster's node labels (nil when it has none):
	// each a partition with its nodes' resources. Cluster is then the
	// default partition's. PartitionLimits are the selected leaf's
	// user-limit and AM-limit formulas in each labelled partition
	// (InPartition shows a frame through one of them).
	Partitions      []Partition
	PartitionLimits map[string]PartitionLimits
	// Partition is the partition the queue bars and formulas show
	// (SelectPartition): "" for the default one, else one of Partitions.
	Partition string

	// NodesPainted is true in the frames the page gets when the
	// simulation paints the node canvas itself (ForPaintedNodes):
	// Containers and NodeAt then hold only FocusNode's containers (none
	// without one), and Metrics counts them all.
	NodesPainted bool
	FocusNode    string
	// NodesBehind is true in a page's frame shown from the frames kept
	// (going back without replaying) while the simulation paints the node
	// canvas: the canvas shows another step until the simulation has
	// rebuilt this one's state, and then it sends the frame again without
	// it.
	NodesBehind bool

	// Metrics are the Cluster Metrics bar's counts over the whole state,
	// counted where the state is, so that showing them needs neither
	// every application nor every container.
	Metrics Metrics
}

// Metrics are what the ResourceManager's ClusterMetrics and root
// QueueMetrics count: AppsSubmitted are the applications accepted into a
// queue (a rejected submission never reaches one), AppsPending those
// ACCEPTED and not yet RUNNING, AppsCompleted those FINISHED or KILLED;
// Containers the running containers (reservations apart), and NodesBusy
// the nodes that run at least one; MemUsed and VCoresUsed the nodes'
// allocations, MemReserved and VCoresReserved their reservations.
type Metrics struct {
	AppsSubmitted, AppsPending, AppsRunning, AppsCompleted int
	Containers, NodesBusy                                  int
	MemUsed, VCoresUsed, MemReserved, VCoresReserved       int64
}

// CountMetrics counts the Metrics of the frame's views, whole: what the
// store sets Metrics to (for frames made by hand, as tests make them).
func (f *Frame) CountMetrics() Metrics {
	return countMetrics(f.Apps, f.NodeUsed, f.Reserved, f.Containers, f.NodeAt)
}

// countMetrics counts the Metrics of a state's views.
// Node i's containers are cs[nodeAt[i]:nodeAt[i+1]].
func countMetrics(apps []core.AppView, used []resource.Resource, reserved []NodeReservation, cs []core.ContainerBrief, nodeAt []int) Metrics {
	var m Metrics
	for i := range apps {
		switch apps[i].State {
		case core.AppRejected:
			continue
		case core.AppAccepted:
			m.AppsPending++
		case core.AppRunning:
			m.AppsRunning++
		case core.AppFinished, core.AppKilled:
			m.AppsCompleted++
		}
		m.AppsSubmitted++
	}
	for _, u := range used {
		m.MemUsed += u.MemoryMB
		m.VCoresUsed += u.VCores
	}
	for _, r := range reserved {
		m.MemReserved += r.Container.Size.MemoryMB
		m.VCoresReserved += r.Container.Size.VCores
	}
	for i := range len(nodeAt) - 1 {
		running := 0
		for _, c := range cs[nodeAt[i]:nodeAt[i+1]] {
			if !c.Reserved {
				running++
			}
		}
		m.Containers += running
		if running > 0 {
			m.NodesBusy++
		}
	}
	return m
}

// Partition is one labelled partition of the cluster.
type Partition struct {
	Label     string
	Exclusive bool
	Resource  resource.Resource
}

// PartitionLimits are a leaf's limit formulas in one partition.
type PartitionLimits struct {
	UserLimit core.UserLimitTerms
	AMLimit   core.AMLimitTerms
}

// NodeReservation is a node's reservation (NodeView.Reservation): Node
// is the node's index in Frame.Nodes.
type NodeReservation struct {
	Node      int
	Container core.ContainerView
}

// NodeBrief returns node i's view with its usage (Allocated and
// Reservation), without its containers.
func (f *Frame) NodeBrief(i int) core.NodeView {
	n := f.Nodes[i]
	if i < len(f.NodeUsed) {
		n.Allocated = f.NodeUsed[i]
	}
	if r := f.NodeReservation(i); r != nil {
		c := *r
		n.Reservation = &c
	}
	return n
}

// SetNodes sets the frame's nodes (Nodes, NodeUsed and Reserved) from
// their views, as the store does: for frames made by hand.
func (f *Frame) SetNodes(views []core.NodeView) {
	f.Nodes, f.NodeUsed, f.Reserved = splitNodes(views, nil)
}

// NodeReservation returns node i's reservation (nil when it holds none),
// which the caller must not change.
func (f *Frame) NodeReservation(i int) *core.ContainerView {
	k, ok := slices.BinarySearchFunc(f.Reserved, i, func(r NodeReservation, i int) int { return cmp.Compare(r.Node, i) })
	if !ok {
		return nil
	}
	return &f.Reserved[k].Container
}

// NodeBriefs returns node i's containers in brief.
func (f *Frame) NodeBriefs(i int) []core.ContainerBrief {
	return f.Containers[f.NodeAt[i]:f.NodeAt[i+1]]
}

// NodeContainers returns the views of node i's containers, in its order
// (nil when it runs none). A container whose application the frame does
// not hold (a page's frame, of a node it does not show) names none.
func (f *Frame) NodeContainers(i int) []core.ContainerView {
	var out []core.ContainerView
	for _, c := range f.NodeBriefs(i) {
		a := f.App(int(c.App))
		if a == nil {
			a = &core.AppView{}
		}
		out = append(out, c.View(a, f.Nodes[i].Name))
	}
	return out
}

// Node returns node i's whole view, its usage and containers included.
func (f *Frame) Node(i int) core.NodeView {
	n := f.NodeBrief(i)
	n.Containers = f.NodeContainers(i)
	return n
}

// AppVisit is one application the scheduler considered in a leaf during a
// step, in order.
type AppVisit struct {
	_    noeq.T
	App  string
	User string
	// Outcome is "allocated", "reserved", "skipped" or "considered".
	Outcome string
	// Reason says why an app was skipped, in the scheduler's own words.
	Reason core.Reason
}

// HistoryPoint is the usage of every queue after one step.
type HistoryPoint struct {
	Step int
	Tick int64
	// Used is aligned with Frame.Queues: Used[i] is Queues[i]'s usage.
	Used []resource.Resource
	// Marks are the notable events of the step: "submit", "finish",
	// "reserve", "preempt".
	Marks []string
}
