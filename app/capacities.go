package app

import (
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
		for _, c := range q.Children {
			if cq := byPath[c]; cq != nil {
				v.Children = append(v.Children, build(cq))
			}
		}
		return v
	}
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
	return ScenarioView{Name: f.Title, Cluster: cv, Root: build(&f.Queues[0])}, true
}
