package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// ClusterSummary shows the cluster's size: the nodes, what one node offers
// and the total the queues share.
type ClusterSummary struct {
	app.Compo

	// Scenario is the scenario's title.
	Scenario string
	// Cluster is the cluster to describe.
	Cluster ClusterView
}

// Render draws the summary.
func (c *ClusterSummary) Render() app.UI {
	nodes := strconv.FormatInt(c.Cluster.Nodes, 10) + " nodes"
	if c.Cluster.Nodes == 1 {
		nodes = "1 node"
	}
	return app.Section().ID("cluster").Class("cluster").Aria("labelledby", "cluster-title").Body(
		app.H2().ID("cluster-title").Body(
			app.Text("Cluster "),
			app.Span().Class("scenario-name").Text(c.Scenario),
		),
		app.P().Body(
			app.Span().DataSet("field", "nodes").Text(nodes),
			app.Text(" of "),
			app.Span().DataSet("field", "node-resource").Text(Resources(c.Cluster.NodeResource)),
			app.Text(" each: "),
			app.Strong().DataSet("field", "cluster-total").Text(Resources(c.Cluster.Total)),
			app.Text(" in all."),
		),
	)
}
