package app

import (
	"slices"

	"yarnplay/app/store"
	"yarnplay/core"
)

// frameView is the configured capacities of the frame's queues on its
// cluster, for the capacities table (QueueTree, ClusterSummary). Core has
// already computed every number (capacities as Java floats, the guaranteed
// and maximum resources): the view only arranges them as a tree.
func frameView(f *store.Frame) (ScenarioView, bool) {
	if len(f.Queues) == 0 {
		return ScenarioView{}, false
	}
	byPath := make(map[string]*core.QueueView, len(f.Queues))
	for i := range f.Queues {
		byPath[f.Queues[i].Path] = &f.Queues[i]
	}
	var build func(q *core.QueueView) QueueView
	build = func(q *core.QueueView) QueueView {
		v := QueueView{
			Name: q.Name, Path: q.Path, Depth: q.Depth,
			Capacity: q.Capacity, MaxCapacity: q.MaxCapacity,
			AbsCapacity: q.AbsCapacity, AbsMaxCapacity: q.AbsMaxCapacity,
			Guaranteed: q.EffectiveMin, Max: q.EffectiveMax,
		}
		v.Auto, _ = autoMark(q)
		for _, c := range q.Children {
			if cq := byPath[c]; cq != nil {
				v.Children = append(v.Children, build(cq))
			}
		}
		return v
	}
	return ScenarioView{Name: f.Title, Cluster: clusterView(f), Root: build(&f.Queues[0])}, true
}

// clusterView is the capacities table's summary of the frame's cluster.
func clusterView(f *store.Frame) ClusterView {
	cv := ClusterView{Nodes: int64(len(f.Nodes)), Total: f.Cluster}
	if len(f.Nodes) > 0 {
		cv.NodeResource = f.Nodes[0].Capacity
		for _, n := range f.Nodes {
			if n.Capacity != cv.NodeResource {
				n := int64(len(f.Nodes))
				cv.NodeResource = f.Cluster // nodes differ: show an average
				cv.NodeResource.MemoryMB /= n
				cv.NodeResource.VCores /= n
				break
			}
		}
	}
	return cv
}

// autoMarkOf is autoMark's mark alone.
func autoMarkOf(q *core.QueueView) string {
	m, _ := autoMark(q)
	return m
}

// sameTreeQueues reports whether two frames' queues give the same tree
// (frameView): the same queues in the same order with the same numbers,
// whatever their usage. It allocates nothing, where frameView builds a
// thousand queues' tree at benchmark 5's scale each step.
func sameTreeQueues(a, b []core.QueueView) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		p, q := &a[i], &b[i]
		if p.Name != q.Name || p.Path != q.Path || p.Depth != q.Depth ||
			p.Capacity != q.Capacity || p.MaxCapacity != q.MaxCapacity ||
			p.AbsCapacity != q.AbsCapacity || p.AbsMaxCapacity != q.AbsMaxCapacity ||
			p.EffectiveMin != q.EffectiveMin || p.EffectiveMax != q.EffectiveMax ||
			!slices.Equal(p.Children, q.Children) {
			return false
		}
		if mp, _ := autoMark(p); mp != autoMarkOf(q) {
			return false
		}
	}
	return true
}

// Equal reports whether q and o show the same tree: the same queues, in
// the same order, with the same numbers.
func (q *QueueView) Equal(o *QueueView) bool {
	if q.Name != o.Name || q.Path != o.Path || q.Depth != o.Depth ||
		q.Capacity != o.Capacity || q.MaxCapacity != o.MaxCapacity ||
		q.AbsCapacity != o.AbsCapacity || q.AbsMaxCapacity != o.AbsMaxCapacity ||
		q.Guaranteed != o.Guaranteed || q.Max != o.Max || q.Auto != o.Auto || len(q.Children) != len(o.Children) {
		return false
	}
	for i := range q.Children {
		if !q.Children[i].Equal(&o.Children[i]) {
			return false
		}
	}
	return true
}

// viewCache keeps the capacities table's view from one frame to the next
// while it shows the same numbers (usage changes every step, the
// configuration and the cluster seldom do): the components it feeds are
// then given the very same tree, which go-app finds unchanged at once
// instead of comparing a thousand queues field by field through
// reflection, and do not render again.
type viewCache struct {
	f  *store.Frame // the frame last asked about
	v  ScenarioView
	ok bool
}

// view returns the frame's view (frameView), the kept one when it is
// equal.
func (c *viewCache) view(f *store.Frame) (ScenarioView, bool) {
	if f == c.f {
		// The page renders again for each stage of the same frame.
		return c.v, c.ok
	}
	last := c.f
	c.f = f
	if c.ok && last != nil && f.Title == c.v.Name && sameTreeQueues(last.Queues, f.Queues) && clusterView(f) == c.v.Cluster {
		// Usage changed, not the tree: the kept view, without building it.
		return c.v, true
	}
	v, ok := frameView(f)
	if ok && c.ok && v.Name == c.v.Name && v.Cluster == c.v.Cluster && v.Root.Equal(&c.v.Root) {
		return c.v, true
	}
	c.v, c.ok = v, ok
	return v, ok
}
