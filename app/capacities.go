package app

import (
	"yarnplay/app/store"
	"yarnplay/core/config"
	"yarnplay/core/resource"
)

// frameView is the configured capacities of the frame's configuration on
// its cluster, for the capacities table (QueueTree, ClusterSummary).
func frameView(f *store.Frame) (ScenarioView, bool) {
	profile, err := config.ParseProfile(f.Profile)
	if err != nil {
		return ScenarioView{}, false
	}
	parsed, err := config.Parse(config.FromMap(f.Conf), profile)
	if err != nil || parsed.Root == nil {
		return ScenarioView{}, false
	}
	cv := ClusterView{Nodes: int64(len(f.Nodes)), Total: f.Cluster}
	if len(f.Nodes) > 0 {
		cv.NodeResource = f.Nodes[0].Capacity
		for _, n := range f.Nodes {
			if n.Capacity != cv.NodeResource {
				n := int64(len(f.Nodes))
				cv.NodeResource = resource.New(f.Cluster.MemoryMB/n, f.Cluster.VCores/n) // an average
				break
			}
		}
	}
	return ScenarioView{Name: f.Title, Cluster: cv, Root: queueView(parsed.Root, 0, f.Cluster)}, true
}
