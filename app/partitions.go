package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/protocol"
)

// PartitionPicker chooses the partition (node label) the queue bars and
// the formulas show, when the cluster has node labels: the default
// partition, or one of the labels, each with its resources and whether it
// is exclusive. Nothing is drawn for a cluster without labels.
type PartitionPicker struct {
	app.Compo

	// Partitions are the frame's labelled partitions; Selected the one
	// shown ("" the default).
	Partitions []store.Partition
	Cluster    string // the default partition's resources, in words
	Selected   string
	// OnPick is called with the partition chosen.
	OnPick *Callback[string]
}

// Render draws one button per partition.
func (c *PartitionPicker) Render() app.UI {
	if len(c.Partitions) == 0 {
		return app.Div().Class("partitions").Hidden(true)
	}
	type choice struct{ label, text, title string }
	choices := []choice{{"", "default", "The default partition (nodes without a label): " + c.Cluster}}
	for _, p := range c.Partitions {
		kind := "exclusive: its idle resources go to its own asks only"
		if !p.Exclusive {
			kind = "not exclusive: lends idle resources to the default partition's asks"
		}
		choices = append(choices, choice{p.Label, p.Label, "Partition " + p.Label + " (" + rmText(p.Resource) + "), " + kind})
	}
	return app.Div().Class("partitions").Role("group").Aria("label", "Partition shown").Body(
		app.Span().Class("muted").Text("Partition "),
		app.Range(choices).Slice(func(i int) app.UI {
			ch := choices[i]
			return app.Button().Type("button").Class("partition").DataSet("partition", ch.label).
				Aria("pressed", strconv.FormatBool(ch.label == c.Selected)).Title(ch.title).Text(ch.text).
				OnClick(c.pick)
		}),
	)
}

// pickPartition shows another partition in the queue bars and formulas.
func (p *Page) pickPartition(label string) {
	p.ctl.Do(protocol.Command{Op: protocol.OpSelectPartition, Name: label})
}

// partitionFrame is the frame the queue bars and formulas show: the
// selected partition's numbers (store.InPartition).
func partitionFrame(f *store.Frame) store.Frame {
	return store.InPartition(f, f.Partition)
}

// labelBadge marks a node of a labelled partition with its label.
func labelBadge(label string) app.UI {
	return app.Span().Class("node-label").DataSet("label", label).Title("Node label " + label + ": the node is in partition " + label).Text(label)
}

// pick calls OnPick with the partition of the button clicked, which its
// data-partition says when it is clicked (see the package's doc on
// handlers); the default partition's button has none.
func (c *PartitionPicker) pick(ctx app.Context, _ app.Event) {
	c.OnPick.Call(data(ctx, "partition"))
}
