package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// QueueTree shows a queue hierarchy as an indented list, one row per queue,
// with the column names of the ResourceManager's scheduler page so that the
// numbers are recognisable on a real cluster. Rows keep configuration order.
type QueueTree struct {
	app.Compo

	// Root is the hierarchy to show.
	Root QueueView
}

// Column labels, as the ResourceManager UI names them.
const (
	labelCapacity       = "Configured Capacity"
	labelMaxCapacity    = "Configured Max Capacity"
	labelAbsCapacity    = "Absolute Capacity"
	labelAbsMaxCapacity = "Absolute Max Capacity"
)

// Render draws the tree.
func (t *QueueTree) Render() app.UI {
	return app.Section().Class("queues").Aria("labelledby", "queues-title").Body(
		app.H2().ID("queues-title").Text("Queues"),
		app.Div().Class("queue-row queue-head").Aria("hidden", "true").Body(
			app.Span().Text("Queue"),
			app.Span().Text(labelCapacity),
			app.Span().Text(labelMaxCapacity),
			app.Span().Text(labelAbsCapacity),
			app.Span().Text(labelAbsMaxCapacity),
		),
		app.Ul().ID("queue-tree").Class("queue-list").DataSet("rendered-by", "wasm").Body(
			t.item(t.Root),
		),
	)
}

func (t *QueueTree) item(q QueueView) app.UI {
	return app.Li().Class("queue").DataSet("queue", q.Path).DataSet("depth", q.Depth).Body(
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
		app.If(len(q.Children) > 0, func() app.UI {
			return app.Ul().Class("queue-list").Body(
				app.Range(q.Children).Slice(func(i int) app.UI {
					return t.item(q.Children[i])
				}),
			)
		}),
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
func shareBar(q QueueView) app.UI {
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
