package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/protocol"
	"yarnplay/scenarios"
)

// The node editor's choices for a label the cluster does not have yet.
const (
	labelExclusive = "exclusive"
	labelShared    = "not exclusive"
)

// nodeListMax is how many nodes the editor lists with a remove button.
const nodeListMax = 40

// NodeEditor adds nodes (one, or many with a count: names take "{i}"),
// with a rack and a size, and removes them. At the start it changes the
// cluster the scenario starts with; later it adds add_node/remove_node
// steps.
type NodeEditor struct {
	app.Compo

	// F is the frame shown; Ctl reaches the store.
	F   *store.Frame
	Ctl *Controller
	// Undo, if set, keeps the work before an action at an earlier step.
	Undo *Undo
}

// Render draws the editor.
func (e *NodeEditor) Render() app.UI {
	if e.F == nil {
		return app.Section().Class("node-editor")
	}
	nodes := e.F.Nodes
	shown := nodes[:min(len(nodes), nodeListMax)]
	return app.Section().ID("node-editor").Class("panel node-editor").Aria("labelledby", "ne-title").Body(
		app.H2().ID("ne-title").Text("Nodes"),
		app.Form().ID("ne-add").Class("form-row").OnSubmit(e.add).Body(
			textField("ne-name", "Name", "text", "", "n{i}"),
			textField("ne-count", "Count", "number", "1", ""),
			textField("ne-rack", "Rack", "text", "", "/default-rack"),
			textField("ne-mb", "Memory (MB)", "number", "8192", ""),
			textField("ne-vcores", "Vcores", "number", "8", ""),
			textField("ne-label", "Node label", "text", "", "none: default partition"),
			selectField("ne-exclusive", "A new label is", []string{labelExclusive, labelShared}, labelExclusive),
			app.Button().Type("submit").ID("ne-add-button").Text("Add nodes"),
		),
		app.Ul().ID("ne-list").Class("chip-list").Body(app.Range(shown).Slice(func(i int) app.UI {
			n := shown[i]
			return app.Li().DataSet("node", n.Name).Body(
				app.Span().Text(n.Name+" ("+n.Rack+", "+Resources(n.Capacity)+")"),
				app.If(n.Label != "", func() app.UI { return labelBadge(n.Label) }),
				app.Button().Type("button").Class("chip-remove").DataSet("node", n.Name).
					Aria("label", "Remove node "+n.Name).Text("✕").OnClick(e.remove),
			)
		})),
		app.If(len(nodes) > len(shown), func() app.UI {
			return app.P().Class("muted").Text("and " + nOf(len(nodes)-len(shown), "more node", "more nodes"))
		}),
	)
}

func (e *NodeEditor) add(ctx app.Context, ev app.Event) {
	ev.PreventDefault()
	spec := scenarios.NodeSpec{
		Name:     orText(inputValue("ne-name"), "n{i}"),
		Count:    int(inputInt("ne-count", 1)),
		Rack:     inputValue("ne-rack"),
		MemoryMB: inputInt("ne-mb", 0),
		VCores:   inputInt("ne-vcores", 0),
		Label:    inputValue("ne-label"),
	}
	exclusive := inputValue("ne-exclusive") != labelShared
	if spec.Count > 1 || spec.Name == "n{i}" {
		spec.Name = freeNodeName(e.F, spec.Name)
	}
	doAt(e.Undo, e.Ctl, e.F, "added nodes", protocol.Command{Op: protocol.OpAddNodes, Nodes: &spec, Exclusive: exclusive}, nil)
}

// freeNodeName makes "{i}" names unique: n{i} becomes n2-{i} when n0 is
// taken.
func freeNodeName(f *store.Frame, name string) string {
	taken := map[string]bool{}
	for _, n := range f.Nodes {
		taken[n.Name] = true
	}
	base := name
	for i := 2; ; i++ {
		clash := false
		for _, n := range scenarios.ExpandNames(name, 1) {
			clash = clash || taken[n]
		}
		if !clash {
			return name
		}
		name = base[:len(base)-3] + itoa(i) + "-{i}"
		if len(base) < 3 || base[len(base)-3:] != "{i}" {
			name = base + itoa(i)
		}
	}
}

func (e *NodeEditor) remove(ctx app.Context, _ app.Event) {
	name := data(ctx, "node")
	doAt(e.Undo, e.Ctl, e.F, "removed node "+name, protocol.Command{Op: protocol.OpRemoveNode, Node: name}, nil)
}
