package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/core/resource"
	"yarnplay/internal/noeq"
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

	// Nodes are the first nodes of the frame shown (nodeListMax), as the
	// editor lists them, and More how many more there are: plain values,
	// not the frame, so that the editor renders again only when its list
	// changes (a tick changes the nodes' usage, which it does not show).
	Nodes []nodeChip
	More  int
	// Shown is false before the first frame; Ctl reaches the store.
	Shown bool
	Ctl   *Controller
	// Undo, if set, keeps the work before an action at an earlier step.
	Undo *Undo
}

// nodeChip is a node as the node editor lists it.
type nodeChip struct {
	_                 noeq.T
	Name, Rack, Label string
	Capacity          resource.Resource
}

// nodeEditor is the node editor of frame f (nil before the first).
func nodeEditor(f *store.Frame, ctl *Controller, undo *Undo) *NodeEditor {
	e := &NodeEditor{Ctl: ctl, Undo: undo}
	if f == nil {
		return e
	}
	e.Shown = true
	shown := f.Nodes[:min(len(f.Nodes), nodeListMax)]
	e.Nodes = make([]nodeChip, len(shown))
	for i, n := range shown {
		e.Nodes[i] = nodeChip{Name: n.Name, Rack: n.Rack, Label: n.Label, Capacity: n.Capacity}
	}
	e.More = len(f.Nodes) - len(shown)
	return e
}

// Render draws the editor.
func (e *NodeEditor) Render() app.UI {
	if !e.Shown {
		return app.Section().Class("node-editor")
	}
	shown := e.Nodes
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
		app.If(e.More > 0, func() app.UI {
			return app.P().Class("muted").Text("and " + nOf(e.More, "more node", "more nodes"))
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
	f := e.Ctl.Frame()
	if f == nil {
		return
	}
	if spec.Count > 1 || spec.Name == "n{i}" {
		spec.Name = freeNodeName(f, spec.Name)
	}
	doAt(e.Undo, e.Ctl, f, "added nodes", protocol.Command{Op: protocol.OpAddNodes, Nodes: &spec, Exclusive: exclusive}, nil)
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
	doAt(e.Undo, e.Ctl, e.Ctl.Frame(), "removed node "+name, protocol.Command{Op: protocol.OpRemoveNode, Node: name}, nil)
}
