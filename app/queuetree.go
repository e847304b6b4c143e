package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// QueueTree shows a queue hierarchy as an indented list, one row per queue,
// with the column names of the ResourceManager's scheduler page so that the
// numbers are recognisable on a real cluster. Rows keep configuration order.
//
// The list is flat, a row per queue in the order of a depth-first walk;
// each row tells screen readers its level and its place among its
// siblings, as nested lists would. Past virtualRows queues only the rows on
// screen (and overscanRows around them) are drawn; the others are empty
// placeholders at their places (rowwindow.go).
type QueueTree struct {
	app.Compo

	// Root is the hierarchy to show.
	Root QueueView

	win slotWindow
}

// Column labels, as the ResourceManager UI names them.
const (
	labelCapacity       = "Configured Capacity"
	labelMaxCapacity    = "Configured Max Capacity"
	labelAbsCapacity    = "Absolute Capacity"
	labelAbsMaxCapacity = "Absolute Max Capacity"
)

// treeRow is one queue of the flat list: the queue, and its place among
// its siblings (from 1, of size).
type treeRow struct {
	q         *QueueView
	pos, size int
}

// treeRows lists root and its descendants depth first, in configuration
// order.
func treeRows(root *QueueView) []treeRow {
	rows := []treeRow{{q: root, pos: 1, size: 1}}
	var walk func(q *QueueView)
	walk = func(q *QueueView) {
		for i := range q.Children {
			rows = append(rows, treeRow{q: &q.Children[i], pos: i + 1, size: len(q.Children)})
			walk(&q.Children[i])
		}
	}
	walk(root)
	return rows
}

// Render draws the tree.
func (t *QueueTree) Render() app.UI {
	rows := treeRows(&t.Root)
	n := len(rows)
	first, last := 0, n
	list := app.Ul().ID("queue-tree").Class("queue-list").DataSet("rendered-by", "wasm")
	if n > virtualRows {
		first, last = t.win.span(n)
		list = list.Class("slotted").Style("--slot-h", t.win.height("3.6rem"))
	}
	return app.Section().Class("queues").Aria("labelledby", "queues-title").Body(
		app.H2().ID("queues-title").Text("Queues"),
		app.Div().Class("queue-row queue-head").Aria("hidden", "true").Body(
			app.Span().Text("Queue"),
			app.Span().Text(labelCapacity),
			app.Span().Text(labelMaxCapacity),
			app.Span().Text(labelAbsCapacity),
			app.Span().Text(labelAbsMaxCapacity),
		),
		list.Body(
			app.Range(rows[:t.win.children(n)]).Slice(func(i int) app.UI {
				if !t.win.drawn(i, first, last) {
					return slotPlaceholder()
				}
				return treeItem(rows[i])
			}),
		),
	)
}

// OnMount follows the page's scrolling, in the browser, to draw the rows on
// screen when there are many.
func (t *QueueTree) OnMount(ctx app.Context) { t.win.follow(ctx, t.count(), t.scan) }

// OnUpdate looks again where the list is when the tree changed size.
func (t *QueueTree) OnUpdate(ctx app.Context) { t.win.recheck(ctx, t.count(), t.scan) }

// OnDismount stops following the page.
func (t *QueueTree) OnDismount() { t.win.stop() }

func (t *QueueTree) count() int {
	n := 0
	t.Root.Walk(func(QueueView) { n++ })
	return n
}

// scan looks which rows are on screen; it reports whether the rows to draw
// changed.
func (t *QueueTree) scan() bool {
	if !t.Mounted() || !t.JSValue().Truthy() {
		return false
	}
	return t.win.scan(t.JSValue().Call("querySelector", "#queue-tree"), t.count())
}

// treeItem is one queue's row.
func treeItem(r treeRow) app.UI {
	q := r.q
	return app.Li().Class("queue").DataSet("queue", q.Path).DataSet("depth", q.Depth).
		Style("--depth", strconv.Itoa(q.Depth)).
		Aria("level", q.Depth+1).Aria("setsize", r.size).Aria("posinset", r.pos).Body(
		app.Div().Class("queue-row").Body(
			app.Div().Class("queue-name").Body(
				app.Span().Class("name").Text(q.Name),
				app.Span().Class("path").Text(q.Path),
				app.If(q.Auto != "", func() app.UI {
					return app.Span().Class("badge b-auto").DataSet("field", "auto").Text(q.Auto)
				}),
				shareBar(q),
			),
			cell(labelCapacity, "capacity", Percent(q.Capacity), "", ""),
			cell(labelMaxCapacity, "max-capacity", Percent(q.MaxCapacity), "", ""),
			cell(labelAbsCapacity, "abs-capacity", Percent(q.AbsCapacity), "guaranteed", Resources(q.Guaranteed)),
			cell(labelAbsMaxCapacity, "abs-max-capacity", Percent(q.AbsMaxCapacity), "max", Resources(q.Max)),
		),
	)
}

// cell is one number of a row; its label is shown on narrow screens, where
// the column heads are hidden, and read by screen readers everywhere.
func cell(label, field, value, subField, sub string) app.UI {
	return app.Div().Class("cell").Body(
		app.Span().Class("cell-label").Text(label),
		app.Span().Class("value").DataSet("field", field).Text(value),
		app.If(sub != "", func() app.UI {
			return app.Span().Class("sub").DataSet("field", subField).Text(sub)
		}),
	)
}

// shareBar draws the queue's absolute max capacity as a track and its
// absolute capacity as the solid part, on a scale of the whole cluster.
// It repeats numbers the row states in text, so it is hidden from screen
// readers.
func shareBar(q *QueueView) app.UI {
	return app.Div().Class("share").Aria("hidden", "true").Body(
		app.Div().Class("share-max").Style("width", "%s", widthPercent(q.AbsMaxCapacity)),
		app.Div().Class("share-guaranteed").Style("width", "%s", widthPercent(q.AbsCapacity)),
	)
}

func widthPercent(f float32) string {
	v := float64(f) * 100
	v = min(max(v, 0), 100)
	return strconv.FormatFloat(v, 'f', 2, 64) + "%"
}
