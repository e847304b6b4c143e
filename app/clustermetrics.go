package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
)

// ClusterMetrics is the ResourceManager UI's Cluster Metrics bar over the
// page: applications by state, running containers, memory and vcores used
// of the total, reserved memory, and the nodes by state, under the RM UI's
// labels. Its Containers Running counts the containers the nodes draw.
type ClusterMetrics struct {
	app.Compo

	// M is what the bar shows, plain values: the bar renders again only
	// when a number changed.
	M clusterMetrics
}

// clusterMetrics are the numbers of the bar.
type clusterMetrics struct {
	Submitted, Pending, Running, Completed int
	Containers                             int
	MemUsed, MemTotal, MemReserved         int64
	VCoresUsed, VCoresTotal, VCoresRes     int64
	Nodes                                  int
	// Dominant is true when vcores count (DominantResourceCalculator).
	Dominant bool
}

// clusterMetricsOf is the bar's numbers for a frame: the counts the store
// made of the whole state (store.Metrics), with the totals of every
// node, every partition's (the frame's Cluster is the default
// partition's when nodes carry labels).
func clusterMetricsOf(f *store.Frame) clusterMetrics {
	fm := &f.Metrics
	m := clusterMetrics{
		Submitted: fm.AppsSubmitted, Pending: fm.AppsPending, Running: fm.AppsRunning, Completed: fm.AppsCompleted,
		Containers: fm.Containers,
		MemUsed:    fm.MemUsed, MemTotal: f.Cluster.MemoryMB, MemReserved: fm.MemReserved,
		VCoresUsed: fm.VCoresUsed, VCoresTotal: f.Cluster.VCores, VCoresRes: fm.VCoresReserved,
		Nodes: len(f.Nodes), Dominant: f.Dominant,
	}
	for _, p := range f.Partitions {
		m.MemTotal += p.Resource.MemoryMB
		m.VCoresTotal += p.Resource.VCores
	}
	return m
}

// Render draws the bar.
func (c *ClusterMetrics) Render() app.UI {
	m := c.M
	item := func(field, label, value string) app.UI {
		return app.Div().Class("cm-item").Attr("data-field", field).Body(
			app.Dt().Text(label),
			app.Dd().Text(value),
		)
	}
	i := strconv.Itoa
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	vcoreWhy := "Vcores are counted but not compared: the DefaultResourceCalculator schedules by memory alone."
	if m.Dominant {
		vcoreWhy = "Vcores count: the DominantResourceCalculator compares the larger share."
	}
	return app.Section().ID("cluster-metrics").Class("cluster-metrics").Aria("label", "Cluster Metrics").Body(
		app.Dl().Class("cm-items").Body(
			item("apps-submitted", "Apps Submitted", i(m.Submitted)),
			item("apps-pending", "Apps Pending", i(m.Pending)),
			item("apps-running", "Apps Running", i(m.Running)),
			item("apps-completed", "Apps Completed", i(m.Completed)),
			item("containers-running", "Containers Running", i(m.Containers)),
			item("memory-used", "Memory Used", memText(m.MemUsed)),
			item("memory-total", "Memory Total", memText(m.MemTotal)),
			item("memory-reserved", "Memory Reserved", memText(m.MemReserved)),
			item("vcores-used", "VCores Used", i64(m.VCoresUsed)),
			item("vcores-total", "VCores Total", i64(m.VCoresTotal)),
			item("vcores-reserved", "VCores Reserved", i64(m.VCoresRes)),
			item("active-nodes", "Active Nodes", i(m.Nodes)),
			item("decommissioned-nodes", "Decommissioned Nodes", "0"),
			item("lost-nodes", "Lost Nodes", "0"),
			item("unhealthy-nodes", "Unhealthy Nodes", "0"),
		),
		app.P().Class("why cm-why").Body(
			app.Text(vcoreWhy+" "),
			app.Text("Nodes are RUNNING until a step removes them (a removed node leaves the cluster); lost, unhealthy and decommissioned nodes are not simulated."),
		),
	)
}
