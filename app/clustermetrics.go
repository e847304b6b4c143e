package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/core"
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

// clusterMetricsOf counts a frame's numbers as the RM's ClusterMetrics and
// root QueueMetrics do: Apps Submitted are the applications accepted into
// a queue (a rejected submission never reaches one); Pending are those
// ACCEPTED and not yet RUNNING; Completed FINISHED or KILLED. Memory Used
// is the containers' (reservations apart, in Memory Reserved).
func clusterMetricsOf(f *store.Frame) clusterMetrics {
	// The totals are every node's, every partition's (the frame's
	// Cluster is the default partition's when nodes carry labels).
	m := clusterMetrics{MemTotal: f.Cluster.MemoryMB, VCoresTotal: f.Cluster.VCores, Nodes: len(f.Nodes), Dominant: f.Dominant}
	for _, p := range f.Partitions {
		m.MemTotal += p.Resource.MemoryMB
		m.VCoresTotal += p.Resource.VCores
	}
	for i := range f.Apps {
		a := &f.Apps[i]
		switch a.State {
		case core.AppRejected:
			continue
		case core.AppAccepted:
			m.Pending++
		case core.AppRunning:
			m.Running++
		case core.AppFinished, core.AppKilled:
			m.Completed++
		}
		m.Submitted++
	}
	for i := range f.Nodes {
		n := &f.Nodes[i]
		m.MemUsed += n.Allocated.MemoryMB
		m.VCoresUsed += n.Allocated.VCores
		if r := n.Reservation; r != nil {
			m.MemReserved += r.Size.MemoryMB
			m.VCoresRes += r.Size.VCores
		}
	}
	for _, c := range f.Containers {
		if !c.Reserved {
			m.Containers++
		}
	}
	return m
}

// Render draws the bar.
func (c *ClusterMetrics) Render() app.UI {
	m := c.M
	item := func(field, label, value string) app.UI {
		return app.Div().Class("cm-item").DataSet("field", field).Body(
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
