package app

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/core"
	"yarnplay/core/resource"
)

// nodeCtx is what drawing a node needs besides the node.
type nodeCtx struct {
	// done are the containers completed in this step, by node.
	done      map[string][]doneBlock
	colors    Colors
	minAlloc  resource.Resource
	heartbeat string
	tick      int64
	largest   int64
}

// nodeCard draws one node as a card: its header (name, rack, what is
// allocated, the heartbeat mark) and a grid of minimum-allocation cells in
// which every container is a run of cells coloured by queue and shaded by
// app, an AM's first cell lettered "A". A reservation is a dashed ghost
// run after the containers, its shortfall spilling past the node's edge,
// with a line saying what it waits for and since when.
func nodeCard(n *core.NodeView, nc *nodeCtx) app.UI {
	l := nodeCells(n, nc.minAlloc)
	hb := n.Name == nc.heartbeat
	class := "node-card"
	if hb {
		class += " hb"
	}
	return app.Article().Class(class).DataSet("node", n.Name).Aria("label", "Node "+n.Name).Body(
		app.Header().Class("nc-head").Body(
			app.H3().Class("nc-name").Text(n.Name),
			app.Span().Class("nc-rack").Text(n.Rack),
			app.If(n.Label != "", func() app.UI { return labelBadge(n.Label) }),
			app.If(hb, func() app.UI { return heartbeatBadge() }),
			app.Span().Class("nc-usage").DataSet("field", "node-allocated").
				Title("Allocated "+rmText(n.Allocated)+" of "+rmText(n.Capacity)).
				Text(nodeUsageText(n)),
		),
		app.Div().Class("nc-body").Aria("hidden", "true").Body(
			app.Div().Class("nc-grid").Style("--cols", strconv.Itoa(l.Cols)).Body(cardCells(&l, nc, nc.done[n.Name])...),
			app.If(l.Ghost != nil && l.Ghost.Over > 0, func() app.UI {
				return app.Div().Class("nc-over").Title("short by " + shortText(l.Short) + ": past the node's edge").Body(
					ghostCells(l.Ghost.Over, reservationTitle(l.Ghost.C, l.Short, nc.tick))...)
			}),
		),
		app.Div().Class("nc-unit").Text("one cell = "+memText(l.Unit.MemoryMB)),
		app.If(l.Ghost != nil, func() app.UI {
			return app.P().Class("nc-res").DataSet("field", "reservation").
				Title(reservationTitle(l.Ghost.C, l.Short, nc.tick)).Body(
				app.Span().Aria("hidden", "true").Text("⌛ "),
				app.Text(reservationText(l.Ghost.C, l.Short)),
			)
		}),
		app.Ul().Class("sr-only").Body(
			app.Range(n.Containers).Slice(func(i int) app.UI {
				return app.Li().Text(containerTitle(n.Containers[i]))
			}),
		),
	)
}

// heartbeatBadge marks the node whose heartbeat this step is, in words.
func heartbeatBadge() app.UI {
	return app.Span().Class("badge b-hb").Body(
		app.Span().Aria("hidden", "true").Text("♥ "),
		app.Text("heartbeat"),
	)
}

// nodeUsageText is "6 GB of 10 GB, 4 of 8 vcores".
func nodeUsageText(n *core.NodeView) string {
	return memText(n.Allocated.MemoryMB) + " of " + memText(n.Capacity.MemoryMB) + ", " +
		strconv.FormatInt(n.Allocated.VCores, 10) + " of " + strconv.FormatInt(n.Capacity.VCores, 10) + " vcores"
}

// cardCells is the grid's cells: containers, then the reservation's ghost
// cells that fall inside the node, then free cells.
func cardCells(l *cellLayout, nc *nodeCtx, done []doneBlock) []app.UI {
	cells := make([]app.UI, 0, l.Cells)
	for _, b := range l.Blocks {
		style := nc.colors.blockStyle(b.C.Queue, b.C.App)
		title := containerTitle(b.C)
		for i := 0; i < b.Len; i++ {
			class := "cell blk"
			text := ""
			if i == 0 {
				class += " first"
				text = appMark(b.C)
			}
			if i == b.Len-1 {
				class += " last"
			}
			if b.C.IsAM {
				class += " am"
			}
			if i > 0 && len(cells)%l.Cols == 0 {
				class += " cont" // a container that goes on from the row above
			}
			cells = append(cells, app.Span().Class(class).Attr("style", style).Title(title).Text(text))
		}
	}
	if g := l.Ghost; g != nil {
		cells = append(cells, ghostCells(g.Len, reservationTitle(g.C, l.Short, nc.tick))...)
	}
	cells = append(cells, doneCells(done, l.Unit, l.Cells-len(cells), nc)...)
	for len(cells) < l.Cells {
		cells = append(cells, app.Span().Class("cell free"))
	}
	return cells
}

// ghostCells are n dashed cells of a reservation.
func ghostCells(n int, title string) []app.UI {
	out := make([]app.UI, n)
	for i := range out {
		out[i] = app.Span().Class("cell ghost").Title(title)
	}
	return out
}

// appMark is the letter on a container's first cell: "A" for an
// ApplicationMaster, else the app's number (the digits its id ends with).
func appMark(c core.ContainerView) string {
	if c.IsAM {
		return "A"
	}
	return appNumber(c.App)
}

// appNumber is the digits an application id ends with ("app_12" -> "12"),
// at most three; the id's last character when it has none.
func appNumber(id string) string {
	i := len(id)
	for i > 0 && id[i-1] >= '0' && id[i-1] <= '9' && len(id)-i < 3 {
		i--
	}
	if i == len(id) && id != "" {
		return id[len(id)-1:]
	}
	s := strings.TrimLeft(id[i:], "0")
	if s == "" && i < len(id) {
		s = "0"
	}
	return s
}

// containerTitle says a container in words.
func containerTitle(c core.ContainerView) string {
	var b strings.Builder
	if c.IsAM {
		b.WriteString("AM container ")
	} else {
		b.WriteString("container ")
	}
	b.WriteString(strconv.FormatInt(c.ID, 10) + " of " + c.App + " (user " + c.User + ", queue " + c.Queue + "): " + resText(c.Size))
	if c.Locality != "" {
		b.WriteString(", " + string(c.Locality))
	}
	b.WriteString(", since tick " + strconv.FormatInt(c.StartTick, 10))
	return b.String()
}

// reservationText says what a reservation waits for.
func reservationText(r core.ContainerView, short resource.Resource) string {
	s := "reserved for " + r.App + " (" + r.User + "): " + resText(r.Size)
	if short.AnyPositive() {
		s += ", " + shortText(short) + " short"
	}
	return s
}

// reservationTitle adds the queue, priority and since when.
func reservationTitle(r core.ContainerView, short resource.Resource, now int64) string {
	s := "Reservation " + strconv.FormatInt(r.ID, 10) + " for " + r.App + " (user " + r.User + ", queue " + r.Queue +
		", priority " + strconv.Itoa(r.Priority) + "): waits for " + resText(r.Size)
	if short.AnyPositive() {
		s += ", " + shortText(short) + " more than the node has free"
	}
	s += "; reserved since tick " + strconv.FormatInt(r.StartTick, 10)
	switch {
	case now == r.StartTick:
		s += " (this tick)"
	case now > r.StartTick:
		s += " (" + plural(int(now-r.StartTick), "tick", "ticks") + " ago)"
	}
	return s
}

// shortText says a shortfall: "2 GB", "1 vcore", "2 GB and 1 vcore".
func shortText(short resource.Resource) string {
	var parts []string
	if short.MemoryMB > 0 {
		parts = append(parts, memText(short.MemoryMB))
	}
	if short.VCores > 0 {
		parts = append(parts, plural(int(short.VCores), "vcore", "vcores"))
	}
	return strings.Join(parts, " and ")
}
