package app

import (
	"fmt"
	"strconv"
	"strings"

	"yarnplay/core"
	"yarnplay/core/resource"
)

// QueueView is one queue of the tree as the page shows it: the configured
// capacities (fractions, as core computes them) and the resources the
// absolute capacities stand for on the current cluster. A QueueView is
// built once and never changed afterwards.
type QueueView struct {
	// Name is the queue's short name ("pesky-testers").
	Name string
	// Path is the queue's full path ("root.grumpy-engineers.pesky-testers").
	Path string
	// Depth is 0 for root, 1 for its children, and so on.
	Depth int
	// Capacity is the configured capacity, a fraction of the parent's.
	Capacity float32
	// MaxCapacity is the configured maximum capacity, a fraction of the parent's.
	MaxCapacity float32
	// AbsCapacity is the guaranteed share of the whole cluster.
	AbsCapacity float32
	// AbsMaxCapacity is the largest share of the whole cluster the queue may use.
	AbsMaxCapacity float32
	// Guaranteed is the cluster resource times AbsCapacity.
	Guaranteed resource.Resource
	// Max is the cluster resource times AbsMaxCapacity.
	Max resource.Resource
	// Auto marks Hadoop 3.3's auto-created queues: "auto-created" for a
	// leaf made when the queue mappings placed an application in it,
	// "auto-create parent" for the parent it is made under, else "".
	Auto string
	// Children are the child queues in configuration order.
	Children []QueueView
}

// ClusterView summarises the cluster the queues share.
type ClusterView struct {
	// Nodes is the number of NodeManagers.
	Nodes int64
	// NodeResource is one node's resource.
	NodeResource resource.Resource
	// Total is the whole cluster's resource.
	Total resource.Resource
}

// ScenarioView is everything the page renders for a scenario.
type ScenarioView struct {
	// Name is the scenario's title.
	Name string
	// Cluster is the cluster summary.
	Cluster ClusterView
	// Root is the queue tree.
	Root QueueView
}

// Walk calls fn for q and then for its descendants, depth first, in
// configuration order (the order the tree is drawn in).
func (q QueueView) Walk(fn func(QueueView)) {
	fn(q)
	for _, c := range q.Children {
		c.Walk(fn)
	}
}

// Percent formats a fraction as a percentage with one decimal, the way the
// ResourceManager UI shows capacities: 0.12 -> "12.0%".
func Percent(f float32) string {
	return strconv.FormatFloat(float64(f)*100, 'f', 1, 64) + "%"
}

// Memory formats megabytes for people: "512 MB", "10 GB", "122.5 GB".
func Memory(mb int64) string {
	if mb < 1024 && mb > -1024 {
		return strconv.FormatInt(mb, 10) + " MB"
	}
	gb := strconv.FormatFloat(float64(mb)/1024, 'f', 1, 64)
	return strings.TrimSuffix(gb, ".0") + " GB"
}

// Resources formats a resource for people: "600 GB, 480 vcores".
func Resources(r resource.Resource) string {
	unit := " vcores"
	if r.VCores == 1 {
		unit = " vcore"
	}
	return Memory(r.MemoryMB) + ", " + strconv.FormatInt(r.VCores, 10) + unit
}

// Text renders the view as plain text, one queue a line, indented by depth:
// the form the golden file testdata/default-queue-tree.txt holds and the
// browser test reads back from the page.
func (v ScenarioView) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cluster: %d nodes x (%s) = %s\n", v.Cluster.Nodes, Resources(v.Cluster.NodeResource), Resources(v.Cluster.Total))
	v.Root.Walk(func(q QueueView) {
		b.WriteString(QueueLine(q.Depth, q.Path, Percent(q.Capacity), Percent(q.MaxCapacity),
			Percent(q.AbsCapacity), Percent(q.AbsMaxCapacity), Resources(q.Guaranteed), Resources(q.Max)))
		b.WriteByte('\n')
	})
	return b.String()
}

// QueueLine is one line of Text: the path indented two spaces per level,
// then capacity, max capacity, absolute capacity, absolute max capacity and
// the guaranteed and maximum resources, separated by " | ".
func QueueLine(depth int, path string, cells ...string) string {
	return strings.Repeat("  ", depth) + path + " | " + strings.Join(cells, " | ")
}

// autoMark is a queue's Auto mark and its explanation, for the tree and
// the bars.
func autoMark(q *core.QueueView) (mark, title string) {
	managedParent, autoCreated, active := q.ManagedParent, q.AutoCreated, q.AutoActive
	switch {
	case q.Dynamic:
		return "auto-created", "Dynamic queue (Hadoop 3.4's flexible auto-queue creation): created when an application was " +
			"placed in it, with its parent's template and a weight of 1w unless the template or its own properties set one"
	case q.FlexibleParent:
		return "auto-create parent", "Flexible auto-queue creation (auto-queue-creation-v2.enabled): queues are created under it " +
			"when applications are placed in queues that do not exist"
	case autoCreated && active:
		return "auto-created", "Auto-created leaf queue: made from its parent's leaf-queue-template when the queue mappings " +
			"placed an application in it; its parent's queue-management policy gives it the template's capacity"
	case autoCreated:
		return "auto-created", "Auto-created leaf queue: made from its parent's leaf-queue-template when the queue mappings " +
			"placed an application in it; capacity 0 (its parent had no room for the template's capacity, or it has no applications)"
	case managedParent:
		return "auto-create parent", "Auto-create enabled parent (auto-create-child-queue.enabled): its leaves are created " +
			"when the queue mappings place applications in them"
	}
	return "", ""
}
