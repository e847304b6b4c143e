package app

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/core/config"
	"yarnplay/internal/noeq"
)

// QueueBars shows the queue tree as an indented list, as the old
// ResourceManager UI does: one row per queue in configuration order (rows
// are never re-sorted, so nothing moves under the reader), each a bar on
// the scale of the whole cluster whose track runs to the queue's absolute
// max capacity. The bar shows usage within the guarantee solid, borrowed
// usage above it hatched, the guarantee as a dashed box, max as a tick,
// pending demand as a ghost and reservations as a dashed segment inside the
// used part; its widths animate as frames change. The text repeats it in
// the RM UI's words; exact resources are in the title and for screen
// readers.
//
// Selecting a row (click, or Enter or Space on its button) calls OnSelect
// with the queue's path.
type QueueBars struct {
	app.Compo

	// Frame is the step to show.
	Frame store.Frame
	// OnSelect, if set, is called with a queue's path when its row is chosen.
	OnSelect *Callback[string]

	// Past virtualRows queues, only the rows on screen (and overscan rows
	// around them, and the one holding the focus) are drawn; the others
	// are empty placeholders at their places (rowwindow.go), so that a
	// row keeps its button, and the focus, while the window moves.
	win slotWindow
}

// Render draws the list. Rows are components whose only field points at a
// small value, so go-app re-renders only the rows whose numbers changed.
func (c *QueueBars) Render() app.UI {
	n := len(c.Frame.Queues)
	list := app.Ol().Class(listClass(n)).Attr("data-step", strconv.Itoa(c.Frame.Step)).OnClick(c.onClick)
	var body app.UI
	if n <= virtualRows {
		rows := queueBarRows(&c.Frame)
		body = app.Range(rows).Slice(func(i int) app.UI { return &queueBarRowView{Row: &rows[i]} })
	} else {
		first, last := c.win.span(n)
		rows := queueBarRowsRange(&c.Frame, first, last)
		// The row holding the focus, when scrolled away.
		var focused []queueBarRow
		if f := c.win.focused - 1; f >= 0 && f < n && (f < first || f >= last) {
			focused = queueBarRowsRange(&c.Frame, f, f+1)
		}
		list = list.Class("virtual slotted").Style("--slot-h", c.win.height("1.9rem"))
		body = app.Range(c.Frame.Queues[:c.win.children(n)]).Slice(func(i int) app.UI {
			var r *queueBarRow
			switch {
			case i >= first && i < last:
				r = &rows[i-first]
			case len(focused) > 0 && i == c.win.focused-1:
				r = &focused[0]
			default:
				return slotPlaceholder()
			}
			// Screen readers learn each row's place among all of them.
			r.Pos, r.Of = i+1, n
			return &queueBarRowView{Row: r}
		})
	}
	return app.Section().Class("qbars").Aria("label", "Queues").Body(barLegend(), list.Body(body))
}

// OnMount follows the page's scrolling and size, in the browser, to draw
// the rows on screen when there are many.
func (c *QueueBars) OnMount(ctx app.Context) { c.win.follow(ctx, len(c.Frame.Queues), c.scan) }

// OnUpdate looks again where the list is when the number of queues
// changed (a new tree).
func (c *QueueBars) OnUpdate(ctx app.Context) { c.win.recheck(ctx, len(c.Frame.Queues), c.scan) }

// OnDismount stops following the page.
func (c *QueueBars) OnDismount() { c.win.stop() }

// scan looks which rows are on screen; it reports whether the rows to draw
// changed.
func (c *QueueBars) scan() bool {
	if !c.Mounted() || !c.JSValue().Truthy() {
		return false
	}
	return c.win.scan(c.JSValue().Call("querySelector", "ol.qb-list"), len(c.Frame.Queues))
}

// denseRows is the number of queues past which rows are drawn tighter.
const denseRows = 30

// listClass is the list's class: dense past denseRows rows.
func listClass(n int) string {
	if n > denseRows {
		return "qb-list dense"
	}
	return "qb-list"
}

// onClick finds the row the click landed in (one handler for every row).
func (c *QueueBars) onClick(ctx app.Context, e app.Event) {
	if c.OnSelect == nil {
		return
	}
	t := e.Get("target")
	if !t.Truthy() {
		return
	}
	row := t.Call("closest", "[data-queue]")
	if !row.Truthy() {
		return
	}
	c.OnSelect.Call(row.Get("dataset").Get("queue").String())
}

// barLegend explains the bars' patterns in words.
func barLegend() app.UI {
	item := func(class, text string) app.UI {
		return app.Li().Body(app.Span().Class("lg-swatch "+class).Aria("hidden", "true"), app.Text(text))
	}
	return app.Ul().Class("legend").Aria("label", "How to read the bars").Body(
		item("lg-used", "used within guarantee"),
		item("lg-borrowed", "borrowed (above guarantee)"),
		item("lg-guar", "guarantee"),
		item("lg-max", "max"),
		item("lg-pending", "pending demand"),
		item("lg-reserved", "reserved"),
	)
}

// barGeom is the geometry of a queue's bar, every number a fraction of the
// cluster in [0, 1]: the bar's full width is the cluster.
type barGeom struct {
	// Max is the track's end (absolute max capacity); Guar the guarantee
	// (absolute capacity).
	Max, Guar float64
	// Used is the whole usage; Within the part up to the guarantee and
	// Borrowed the part above it (from Guar to Used).
	Used, Within, Borrowed float64
	// ResStart and Reserved place the reserved segment at the end of Used.
	ResStart, Reserved float64
	// Pending is the ghost of pending demand after Used, cut at Max;
	// PendingCut says that more is pending than fits under Max.
	Pending    float64
	PendingCut bool
}

// queueBarGeom computes a queue's bar from core's numbers: the absolute
// capacities as core reports them, reserved and pending as shares of the
// cluster under the frame's calculator.
func queueBarGeom(q *core.QueueView, f *store.Frame) barGeom {
	g := barGeom{
		Max:  unit01(float64(q.AbsMaxCapacity)),
		Guar: unit01(float64(q.AbsCapacity)),
		Used: unit01(float64(q.AbsUsedCapacity)),
	}
	g.Within = min(g.Used, g.Guar)
	g.Borrowed = g.Used - g.Within
	g.Reserved = min(unit01(resShare(q.Reserved, f.Cluster, f.Dominant)), g.Used)
	g.ResStart = g.Used - g.Reserved
	pend := unit01(resShare(q.Pending, f.Cluster, f.Dominant))
	room := max(g.Max-g.Used, 0)
	g.Pending = min(pend, room)
	g.PendingCut = pend > room+1e-9
	return g
}

// queueBarRow is everything one row shows, as plain values: comparing two
// rows is cheap, so an unchanged row is not rendered again.
type queueBarRow struct {
	_ noeq.T
	// Pos is the row's place in the list, from 1, of Of rows, when not
	// every row is drawn (0 otherwise).
	Pos, Of    int
	Path, Name string
	Depth      int
	Leaf       bool
	Selected   bool
	Hue        int
	Geom       barGeom
	// Summary is the RM UI's line: "35.0% used / 20.0% guaranteed / 60.0% max".
	Summary string
	// Detail lists the exact resources, for the title and screen readers.
	Detail string
	// Apps is the apps badge ("3 active, 1 pending") and AppsTitle its RM names.
	Apps, AppsTitle string
	// AM is the AM usage badge of a leaf and AMTitle its RM names.
	AM, AMTitle string
	// State is "STOPPED" or "DRAINING", empty when running.
	State string
	// Auto marks an auto-created leaf or its parent (autoMark), AutoTitle
	// explains it.
	Auto, AutoTitle string
	// Broken is the configuration rule the queue breaks, if any.
	Broken string
	// Rank is the row's place in its parent's order in this step ("" when
	// the step did not walk the parent); RankParity alternates as the
	// rank changes, so the stylesheet moves the badge when it does.
	Rank, RankParity string
}

// queueBarRows builds the rows of a frame, in the frame's (configuration) order.
func queueBarRows(f *store.Frame) []queueBarRow {
	return queueBarRowsRange(f, 0, len(f.Queues))
}

// queueBarRowsRange builds the rows first to last-1 of a frame.
func queueBarRowsRange(f *store.Frame, first, last int) []queueBarRow {
	colors := NewColors(f)
	ranks := childRanks(f)
	rows := make([]queueBarRow, last-first)
	for i := first; i < last; i++ {
		q := &f.Queues[i]
		r := queueBarRow{
			Path: q.Path, Name: q.Name, Depth: q.Depth, Leaf: q.Leaf,
			Selected: q.Path == f.Selected,
			Hue:      colors.Hue(q.Path),
			Geom:     queueBarGeom(q, f),
			Summary:  queueSummary(q),
			Detail:   queueDetail(q),
			Broken:   f.Broken[q.Path],
		}
		if r.Name == "" {
			r.Name = q.Path
		}
		if rk, ok := ranks[q.Path]; ok {
			r.Rank, r.RankParity = rankText(rk), strconv.Itoa(rk.Rank%2)
		}
		r.Auto, r.AutoTitle = autoMark(q)
		if q.State == config.Stopped || q.State == config.Draining {
			r.State = string(q.State)
		}
		if q.NumActiveApps+q.NumPendingApps > 0 {
			r.Apps = strconv.Itoa(q.NumActiveApps) + " active"
			if q.NumPendingApps > 0 {
				r.Apps += ", " + strconv.Itoa(q.NumPendingApps) + " pending"
			}
			r.AppsTitle = "Num Schedulable Applications: " + strconv.Itoa(q.NumActiveApps) +
				"; Num Non-Schedulable Applications: " + strconv.Itoa(q.NumPendingApps)
		}
		if q.Leaf && (q.AMUsed.AnyPositive() || q.NumActiveApps > 0) {
			r.AM = "AM " + memText(q.AMUsed.MemoryMB) + " of " + memText(q.AMLimit.MemoryMB)
			r.AMTitle = "Used Application Master Resources: " + rmText(q.AMUsed) +
				"; Max Application Master Resources: " + rmText(q.AMLimit) +
				"; Max Application Master Resources Per User: " + rmText(q.UserAMLimit)
		}
		rows[i-first] = r
	}
	return rows
}

// queueSummary is the row's line in the RM UI's terms: Absolute Used
// Capacity, Absolute Capacity and Absolute Max Capacity.
func queueSummary(q *core.QueueView) string {
	return pctText(float64(q.AbsUsedCapacity)) + " used / " +
		pctText(float64(q.AbsCapacity)) + " guaranteed / " +
		pctText(float64(q.AbsMaxCapacity)) + " max"
}

// queueDetail names every number of the bar with the RM UI's labels and
// the exact memory and vcores.
func queueDetail(q *core.QueueView) string {
	var b strings.Builder
	b.WriteString("Absolute Used Capacity: " + pctText(float64(q.AbsUsedCapacity)))
	b.WriteString("; Absolute Capacity: " + pctText(float64(q.AbsCapacity)))
	b.WriteString("; Absolute Max Capacity: " + pctText(float64(q.AbsMaxCapacity)))
	b.WriteString("; Used Capacity: " + pctText(float64(q.UsedCapacity)) + " of the guarantee")
	b.WriteString("; Used Resources: " + rmText(q.Used))
	if q.Reserved.AnyPositive() {
		b.WriteString(", of which reserved " + rmText(q.Reserved))
	}
	b.WriteString("; Effective Capacity: " + rmText(q.EffectiveMin))
	b.WriteString("; Effective Max Capacity: " + rmText(q.EffectiveMax))
	if q.Pending.AnyPositive() {
		b.WriteString("; Pending: " + rmText(q.Pending))
	}
	return b.String()
}

// queueBarRowView renders one row, a value built afresh at each render
// and held by pointer (as laneCardRow's).
type queueBarRowView struct {
	app.Compo

	Row *queueBarRow
}

// Render draws the row: a button (so Enter and Space select it) holding the
// name, the bar, the summary and the badges.
func (v *queueBarRowView) Render() app.UI {
	r := *v.Row
	g := r.Geom
	class := "qb-row"
	if r.Selected {
		class += " selected"
	}
	if r.Leaf {
		class += " leaf"
	}
	li := app.Li().Class("qb-item").Attr("data-depth", strconv.Itoa(r.Depth)).Style("--depth", strconv.Itoa(r.Depth))
	if r.Of > 0 {
		li = li.Aria("setsize", r.Of).Aria("posinset", r.Pos)
	}
	return li.Body(
		app.Button().Type("button").Class(class).Attr("data-queue", r.Path).
			Aria("pressed", strconv.FormatBool(r.Selected)).Title(r.Detail).Body(
			app.Span().Class("qb-name").Body(
				app.Span().Class("qb-swatch").Style("--h", strconv.Itoa(r.Hue)).Aria("hidden", "true"),
				app.Span().Class("qb-label").Text(r.Name),
			),
			app.Span().Class("qb-bar").Aria("hidden", "true").Body(
				barSeg("qb-track", 0, g.Max),
				barSeg("qb-guar", 0, g.Guar),
				barSeg("qb-used", 0, g.Within),
				barSeg("qb-borrowed", g.Guar, g.Borrowed),
				barSeg("qb-reserved", g.ResStart, g.Reserved),
				barSeg(pendingClass(g), g.Used, g.Pending),
				app.Span().Class("qb-max").Style("left", cssPct(g.Max)),
			),
			app.Span().Class("qb-summary").Attr("data-field", "summary").Text(r.Summary),
			app.Span().Class("sr-only").Text(r.Detail),
			app.Span().Class("qb-badges").Body(
				app.If(r.Rank != "", func() app.UI {
					return app.Span().Class("badge b-rank").Attr("data-field", "rank").Attr("data-parity", r.RankParity).
						Title("the order the parent tried its children in this step: lower used capacity first").Text(r.Rank)
				}),
				viewBadge("b-apps", "▶ ", r.Apps, r.AppsTitle),
				viewBadge("b-am", "", r.AM, r.AMTitle),
				viewBadge("b-state", stateIcon(r.State), r.State, "Queue State: "+r.State),
				viewBadge("b-auto", "✚ ", r.Auto, r.AutoTitle),
				viewBadge("b-broken", "⚠ ", r.Broken, r.Broken),
			),
		),
	)
}

// pendingClass marks a pending ghost cut at max.
func pendingClass(g barGeom) string {
	if g.PendingCut {
		return "qb-pending cut"
	}
	return "qb-pending"
}

// barSeg is one positioned segment of a bar; its left and width transition.
func barSeg(class string, left, width float64) app.UI {
	return app.Span().Class(class).Attr("style", "left:"+cssPct(left)+";width:"+cssPct(width))
}

// viewBadge is a small labelled mark; nothing when text is empty. The icon
// repeats the meaning in a shape, the text says it in words.
func viewBadge(class, icon, text, title string) app.UI {
	if text == "" {
		return nil
	}
	b := app.Span().Class("badge " + class)
	if title != "" {
		b = b.Title(title)
	}
	return b.Body(
		app.If(icon != "", func() app.UI { return app.Span().Aria("hidden", "true").Text(icon) }),
		app.Text(text),
	)
}

// stateIcon repeats a queue state as a shape.
func stateIcon(state string) string {
	switch state {
	case string(config.Stopped):
		return "■ "
	case string(config.Draining):
		return "◐ "
	}
	return ""
}
