package app

import (
	"math"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/core/config"
	"yarnplay/internal/noeq"
	"yarnplay/protocol"
	"yarnplay/wasm/bridge"
)

// QueueEditor edits the queue tree of the configuration in force at the
// current step: add, rename, remove and reorder queues, and set their
// properties. Under every parent it shows the sum of the children's
// capacities and what remains, live. Every change is checked as it is
// typed: a configuration Hadoop refuses stays a draft, with Hadoop's
// message shown on the queue it concerns; one Hadoop takes is applied at
// once (at the start it is the scenario's configuration; later, a refresh
// step, and the later steps replay with it).
type QueueEditor struct {
	app.Compo

	// F is the frame shown; Ctl reaches the store.
	F   *store.Frame
	Ctl *Controller
	// Storage keeps a refused draft across reloads (qedraft.go); nil
	// keeps it in memory only.
	Storage bridge.Storage
	// Answers is the controller's count of replies (Controller.Answers):
	// a new one draws the editor again, for Hadoop's answer to a draft.
	Answers int

	draft    map[string]string
	dirty    bool
	restored bool
	edits    int // drafts applied or discarded (a kept draft's check yields to them)
	issue    *store.Issue
	open     string
}

// queueProps are the properties edited per queue, in the order shown, with
// the RM UI's names.
var queueProps = []struct{ suffix, label, hint string }{
	{config.SuffixCapacity, "Configured Capacity (%)", "percent of the parent, [memory=10240,vcores=10], or a weight such as 2w (hadoop-3.4)"},
	{config.SuffixMaximumCapacity, "Configured Max Capacity (%)", "percent of the parent, or [memory=…,vcores=…]; empty: 100"},
	{config.SuffixUserLimitFactor, "User Limit Factor", "default 1"},
	{config.SuffixMinimumUserLimitPercent, "Configured Minimum User Limit Percent", "default 100"},
	{config.SuffixMaximumAMResourcePercent, "Max AM Resource Percent", "a fraction, default 0.1"},
	{config.SuffixMaximumApplications, "Max Applications", "default from the system limit"},
	{config.SuffixState, "State", "RUNNING or STOPPED"},
	{config.SuffixACLSubmitApplications, "Submit ACL", `users and groups, e.g. "alice,bob eng"; " " nobody`},
	{config.SuffixACLAdministerQueue, "Administer ACL", `as above`},
	{config.SuffixAccessibleNodeLabels, "Accessible Node Labels", `labels, e.g. "gpu,ssd"; "*" all; " " the default partition only; empty: the parent's`},
	{config.SuffixDefaultNodeLabelExpression, "Default Node Label Expression", "the partition of asks that name none; empty: the parent's"},
}

// Render draws the editor.
func (e *QueueEditor) Render() app.UI {
	if e.F == nil {
		return app.Section().Class("queue-editor")
	}
	e.restoreDraft()
	if !e.dirty {
		e.draft = e.F.Conf
	}
	where := "the configuration the scenario starts with"
	if e.F.Step > 0 {
		where = "a refresh (yarn rmadmin -refreshQueues) after step " + strconv.Itoa(e.F.Step) + "; the later steps replay with it"
	}
	return app.Section().ID("queue-editor").Class("panel queue-editor").Aria("labelledby", "qe-title").Body(
		app.H2().ID("qe-title").Text("Edit the queues"),
		app.P().Class("muted").Text("Changes become "+where+"."),
		// Every element is drawn whatever the draft's verdict, hidden when
		// it has nothing to say: an element that came and went would
		// shift the ones after it, which go-app would then draw anew,
		// taking the focus and the caret from the field being typed in.
		app.P().Class("qe-issue").Role("alert").Hidden(e.issue == nil || e.issue.Queue != "").Text(e.issueText("")),
		app.P().Class("qe-draft").Hidden(!e.dirty).Body(
			app.Text("Draft not applied: Hadoop refuses it. "),
			app.Button().Type("button").ID("qe-discard").Text("Discard the draft").OnClick(e.discard),
		),
		&qeAddForm{Ed: e, Draft: e.draft},
		&qeTree{Ed: e, Draft: e.draft, Issue: e.issue, Open: e.open},
	)
}

// qeAddForm and qeTree are the editor's form and tree as components of
// what they show: the draft (a map the store shares between frames while
// the configuration is the same), the issue and the queue opened. A new
// frame of the same configuration does not draw them again: a tree of a
// thousand queues costs a lot to draw.
type qeAddForm struct {
	app.Compo

	Ed    *QueueEditor
	Draft map[string]string
}

// Render draws the form.
func (c *qeAddForm) Render() app.UI { return c.Ed.addForm() }

type qeTree struct {
	app.Compo

	Ed    *QueueEditor
	Draft map[string]string
	Issue *store.Issue
	Open  string

	// Past virtualRows queues only the rows on screen are drawn, and the
	// row holding the focus, the one Hadoop's message is on and the one
	// whose properties are open (rowwindow.go); n is the number of rows
	// last drawn.
	win slotWindow
	n   int
}

// qeRow is one queue of the editor's list: its path, depth and number of
// children, and its place among its siblings (from 1, of size).
type qeRow struct {
	_           noeq.T
	path        string
	depth, kids int
	pos, size   int
}

// qeRows lists the draft's queues depth first, in configuration order.
func qeRows(draft map[string]string) []qeRow {
	var rows []qeRow
	var walk func(path string, depth, pos, size int)
	walk = func(path string, depth, pos, size int) {
		kids := store.Children(draft, path)
		rows = append(rows, qeRow{path: path, depth: depth, kids: len(kids), pos: pos, size: size})
		for i, k := range kids {
			walk(path+"."+k, depth+1, i+1, len(kids))
		}
	}
	walk(config.RootQueue, 0, 1, 1)
	return rows
}

// Render draws the tree: a flat list, a row per queue, each telling
// screen readers its level and place among its siblings.
func (c *qeTree) Render() app.UI {
	rows := qeRows(c.Ed.draft)
	n := len(rows)
	c.n = n
	first, last := 0, n
	list := app.Ul().ID("qe-tree").Class("qe-tree")
	issue, open := -1, -1
	if n > virtualRows {
		first, last = c.win.span(n)
		list = list.Class("slotted").Style("--slot-h", c.win.height("2.7rem"))
		for i := range rows {
			if c.Issue != nil && rows[i].path == c.Issue.Queue {
				issue = i
			}
			if rows[i].path == c.Open {
				open = i
			}
		}
	}
	return list.Body(app.Range(rows[:c.win.children(n)]).Slice(func(i int) app.UI {
		if !c.win.drawn(i, first, last, issue, open) {
			return slotPlaceholder()
		}
		return c.Ed.row(rows[i])
	}))
}

// OnMount follows the page's scrolling, in the browser, to draw the rows on
// screen when there are many.
func (c *qeTree) OnMount(ctx app.Context) { c.win.follow(ctx, len(qeRows(c.Draft)), c.scan) }

// OnUpdate looks again where the list is when the number of queues changed.
func (c *qeTree) OnUpdate(ctx app.Context) { c.win.recheck(ctx, len(qeRows(c.Draft)), c.scan) }

// OnDismount stops following the page.
func (c *qeTree) OnDismount() { c.win.stop() }

// scan looks which rows are on screen; it reports whether the rows to draw
// changed.
func (c *qeTree) scan() bool {
	if !c.Mounted() || !c.JSValue().Truthy() {
		return false
	}
	return c.win.scan(c.JSValue(), c.n)
}

// addForm adds a queue under a chosen parent.
func (e *QueueEditor) addForm() app.UI {
	var parents []string
	e.walk("root", func(p string) { parents = append(parents, p) })
	return app.Form().ID("qe-add").Class("qe-add").OnSubmit(e.add).Body(
		app.Label().For("qe-add-name").Text("New queue"),
		app.Input().ID("qe-add-name").Type("text").Required(true).Placeholder("name").AutoComplete(false),
		app.Label().For("qe-add-parent").Text("under"),
		app.Select().ID("qe-add-parent").Body(app.Range(parents).Slice(func(i int) app.UI {
			return app.Option().Value(parents[i]).Text(parents[i])
		})),
		app.Button().Type("submit").ID("qe-add-button").Text("Add queue"),
	)
}

func (e *QueueEditor) walk(path string, fn func(string)) {
	fn(path)
	for _, c := range store.Children(e.draft, path) {
		e.walk(path+"."+c, fn)
	}
}

// row is one queue's row: its name, capacities and actions, Hadoop's
// message when it is about this queue, its properties when open, and under
// a parent the sum of its children's capacities.
func (e *QueueEditor) row(r qeRow) app.UI {
	path, depth := r.path, r.depth
	_, name := cutLast(path)
	issue := e.issue != nil && e.issue.Queue == path
	cls := "qe-row"
	if issue {
		cls += " qe-broken"
	}
	return app.Li().Class("qe-queue").DataSet("queue", path).DataSet("depth", depth).
		Style("--depth", strconv.Itoa(depth)).
		Aria("level", depth+1).Aria("setsize", r.size).Aria("posinset", r.pos).Body(
		app.Div().Class(cls).Body(
			app.If(depth == 0, func() app.UI { return app.Strong().Class("qe-name").Text("root") }).Else(func() app.UI {
				return app.Input().Class("qe-name").Type("text").Value(name).Aria("label", "Name of "+path).
					DataSet("queue", path).OnChange(e.rename)
			}),
			app.If(depth > 0, func() app.UI { return e.field(path, config.SuffixCapacity, "Capacity %") }),
			app.If(depth > 0, func() app.UI { return e.field(path, config.SuffixMaximumCapacity, "Max %") }),
			app.If(depth > 0, func() app.UI {
				return app.Span().Class("qe-actions").Body(
					e.action(path, "↑", "Move "+path+" up", "up"),
					e.action(path, "↓", "Move "+path+" down", "down"),
					e.action(path, "✕", "Remove "+path, "remove"),
				)
			}),
			app.Button().Type("button").Class("qe-more").DataSet("queue", path).Aria("expanded", e.open == path).
				Aria("label", "All properties of "+path).Text("⋯").OnClick(e.toggle),
		),
		// Drawn whether or not they show, as in Render.
		app.P().Class("qe-issue").Role("alert").DataSet("queue", path).Hidden(!issue).Body(
			app.Strong().Text("Hadoop refuses this: "), app.Text(e.issueText(path))),
		e.details(path, depth),
		app.If(r.kids > 0, func() app.UI {
			return app.P().Class("qe-sum").DataSet("queue", path).Aria("live", "polite").Text(capacitySumText(e.draft, path))
		}),
	)
}

// capacitySumText is the line under a parent's row: its children's
// percentages and what remains to 100, or that they are absolute
// resources (Hadoop then checks no sum; docs/semantics.md, section 4.1),
// or their weights and the share each gives (section 3.2).
func capacitySumText(draft map[string]string, path string) string {
	sum, rest, ok := store.CapacitySum(draft, path)
	abs, n := store.AbsoluteChildren(draft, path)
	ws, _, wok := store.Weights(draft, path)
	switch {
	case !ok || !wok:
		return "a child's capacity is not a number"
	case len(ws) == n:
		parts := make([]string, len(ws))
		for i, w := range ws {
			// The share to a tenth of a percent.
			parts[i] = w.Name + " " + w.Value + " (" + num(math.Round(w.Share*1000)/10) + "%)"
		}
		return "weights: " + strings.Join(parts, ", ")
	case (len(ws) > 0 || abs > 0) && strings.EqualFold(strings.TrimSpace(draft[config.KeyLegacyQueueMode]), "false"):
		return "mixed modes (legacy-queue-mode.enabled=false): " + strconv.Itoa(abs) + " absolute, " +
			strconv.Itoa(len(ws)) + " weighted; the percentages take " + num(sum) + "% of what the absolute children leave, " +
			"the weights share the rest"
	case len(ws) > 0:
		return strconv.Itoa(len(ws)) + " of " + strconv.Itoa(n) + " children are weights (Hadoop 3.4 takes weights " +
			"only when every sibling has one); the percentages sum to " + num(sum) + "%"
	case abs == n:
		return "children's capacities are absolute resources"
	case abs > 0:
		return strconv.Itoa(abs) + " of " + strconv.Itoa(n) + " children are absolute resources " +
			"(Hadoop 3.3 allows the mix only under root); the percentages sum to " + num(sum) + "%"
	case rest == 0:
		return "children sum to 100% ✓"
	}
	return "children sum to " + num(sum) + "%, " + num(rest) + "% remains"
}

// issueText is the message of the draft's issue on the queue path ("" for
// the configuration as a whole), or "" when the issue is elsewhere.
func (e *QueueEditor) issueText(path string) string {
	if e.issue == nil || e.issue.Queue != path {
		return ""
	}
	return withPercents(e.issue.Message)
}

// details are every edited property of a queue, when its properties are
// open (an empty, hidden box when not).
func (e *QueueEditor) details(path string, depth int) app.UI {
	d := app.Div().Class("qe-details").Hidden(e.open != path)
	if e.open != path {
		return d
	}
	return d.Body(
		app.Range(queueProps).Slice(func(i int) app.UI {
			p := queueProps[i]
			if depth == 0 && (p.suffix == config.SuffixCapacity || p.suffix == config.SuffixMaximumCapacity) {
				return app.Text("")
			}
			return e.field(path, p.suffix, p.label+" ("+p.hint+")")
		}),
		app.Range(e.F.Partitions).Slice(func(i int) app.UI {
			l := e.F.Partitions[i].Label
			pre := config.SuffixAccessibleNodeLabels + "." + l + "."
			return app.Div().Class("qe-partition").DataSet("partition", l).Body(
				e.field(path, pre+config.SuffixCapacity, "Capacity in partition "+l+" (% of the parent's there; root: 100)"),
				app.If(depth > 0, func() app.UI {
					return e.field(path, pre+config.SuffixMaximumCapacity, "Max Capacity in partition "+l+" (%; empty: 100)")
				}),
			)
		}),
	)
}

// field is one property's input; its value is the draft's.
func (e *QueueEditor) field(path, suffix, label string) app.UI {
	id := "qe-" + strings.ReplaceAll(path, ".", "-") + "-" + strings.ReplaceAll(suffix, ".", "-")
	return app.Label().Class("qe-field").For(id).Body(
		app.Span().Class("qe-label").Text(label),
		app.Input().ID(id).Type("text").Value(e.draft[config.QueueKey(path, suffix)]).
			DataSet("queue", path).DataSet("prop", suffix).AutoComplete(false).OnInput(e.set),
	)
}

func (e *QueueEditor) action(path, text, label, what string) app.UI {
	return app.Button().Type("button").Class("qe-act").DataSet("queue", path).DataSet("act", what).
		Title(label).Aria("label", label).Text(text).OnClick(e.act)
}

// data returns the data attribute key of the element whose handler runs
// ("" when it has none): how the panels' handlers learn what they act on
// when they run (see the package's doc on handlers).
func data(ctx app.Context, key string) string {
	v := ctx.JSSrc().Get("dataset").Get(key)
	if !v.Truthy() {
		return ""
	}
	return v.String()
}

func (e *QueueEditor) set(ctx app.Context, _ app.Event) {
	path, prop := data(ctx, "queue"), data(ctx, "prop")
	e.apply(ctx, store.SetQueueProperty(e.draft, path, prop, ctx.JSSrc().Get("value").String()))
}

func (e *QueueEditor) rename(ctx app.Context, _ app.Event) {
	path := data(ctx, "queue")
	c, err := store.RenameQueue(e.draft, path, ctx.JSSrc().Get("value").String())
	e.applyOr(ctx, c, err, path)
}

func (e *QueueEditor) act(ctx app.Context, _ app.Event) {
	path := data(ctx, "queue")
	var c map[string]string
	var err error
	switch data(ctx, "act") {
	case "up":
		c, err = store.MoveQueue(e.draft, path, -1)
	case "down":
		c, err = store.MoveQueue(e.draft, path, 1)
	case "remove":
		c, err = store.RemoveQueue(e.draft, path)
	}
	e.applyOr(ctx, c, err, path)
}

func (e *QueueEditor) add(ctx app.Context, ev app.Event) {
	ev.PreventDefault()
	doc := app.Window().Get("document")
	nameInput := doc.Call("getElementById", "qe-add-name")
	parent := doc.Call("getElementById", "qe-add-parent").Get("value").String()
	c, err := store.AddQueue(e.draft, parent, nameInput.Get("value").String())
	if err == nil {
		nameInput.Set("value", "")
	}
	e.applyOr(ctx, c, err, parent)
}

func (e *QueueEditor) toggle(ctx app.Context, _ app.Event) {
	path := data(ctx, "queue")
	if e.open == path {
		path = ""
	}
	e.open = path
}

func (e *QueueEditor) discard(app.Context, app.Event) {
	e.edits++
	e.dirty, e.issue = false, nil
	keepDraft(e.Storage, e.F, nil)
}

// applyOr applies c, or shows err (an edit that makes no configuration)
// on the queue path.
func (e *QueueEditor) applyOr(ctx app.Context, c map[string]string, err error, path string) {
	if err != nil {
		e.issue = &store.Issue{Queue: path, Message: err.Error()}
		return
	}
	e.apply(ctx, c)
}

// apply applies a draft when Hadoop takes it, and shows Hadoop's message
// on the queue it concerns when not (the draft stays, to be fixed).
func (e *QueueEditor) apply(ctx app.Context, c map[string]string) {
	e.edits++
	e.draft = c
	e.dirty = true
	f := e.F
	e.Ctl.Send(protocol.Command{Op: protocol.OpSetConfig, Conf: c}, func(rep protocol.Reply) {
		// The simulation checks the draft first: one Hadoop refuses leaves
		// the work and comes back with its issue.
		e.issue = rep.Issue
		e.dirty = e.issue != nil
		if e.dirty {
			keepDraft(e.Storage, f, c)
		} else {
			keepDraft(e.Storage, f, nil)
		}
		refresh(ctx)
	})
}

func cutLast(path string) (string, string) {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i], path[i+1:]
	}
	return "", path
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
