package app

import (
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/core"
	"yarnplay/protocol"
)

// Node counts at which NodeGrid changes how it draws.
const (
	// cardsMax: up to this many nodes, every node is a card of cells.
	cardsMax = 36
	// stripsMax: up to this many, every node is a strip in the page; past
	// it, all strips are drawn on one canvas.
	stripsMax = 200
)

// Node grid modes, as the data-mode attribute names them.
const (
	modeCards  = "cards"
	modeStrips = "strips"
	modeCanvas = "canvas"
)

// nodeMode is how n nodes are drawn.
func nodeMode(n int) string {
	switch {
	case n <= cardsMax:
		return modeCards
	case n <= stripsMax:
		return modeStrips
	default:
		return modeCanvas
	}
}

// NodeGrid shows the cluster's nodes. Up to a few dozen, each node is a
// card whose body is a grid of minimum-allocation cells (see nodeCard);
// up to stripsMax, each is a compact strip; past that, one canvas draws
// every strip in one pass, so a thousand nodes stay responsive. A strip or
// a point of the canvas opens the node as a card. The heartbeating node is
// outlined and named in words in every mode.
type NodeGrid struct {
	app.Compo

	// Frame is the step to show.
	Frame store.Frame

	expanded string // the node opened as a card in the strip and canvas modes
	width    int    // the canvas's width, measured from the page
	drawn    string // what the canvas holds, to skip drawing it again
	// The canvas's pixels in Go and in the page, kept from one drawing to
	// the next (a thousand nodes make megabytes).
	pix        []byte
	arr, img   app.Value
	imgW, imgH int
	scheme     app.Value
	onScheme   app.Func
	// sizer reports the grid's width as the browser lays it out (a
	// ResizeObserver, browser only): reading it from the page in a render
	// would make the browser lay the whole page out at once.
	sizer  app.Value
	onSize app.Func
	// yielder lets the browser run (browser only): the canvas is drawn
	// after, part by part (job is the drawing under way).
	yielder *Yielder
	job     *canvasJob
	// told is what the simulation was told of the canvas it paints
	// (workerCanvas), its zero value when it paints none.
	told protocol.Canvas
}

// canvasJob is a drawing of the canvas under way: in the browser, ten
// thousand nodes are painted in parts of at most about paintBudget, the
// browser painting frames and taking input between them, and the canvas
// is put on the page whole once every node is painted (never half a new
// picture over an old one).
type canvasJob struct {
	key     string      // what it draws (NodeGrid.drawn once on the canvas)
	frame   store.Frame // the frame drawn: the component's changes with the next step
	painter *nodePainter
	// waiting is true while the next part waits for the browser's turn.
	waiting bool
}

// canvasPart is the number of nodes painted between two looks at the
// clock.
const canvasPart = 200

// OnMount measures the canvas's room, draws it and redraws it when the
// colour scheme changes.
func (c *NodeGrid) OnMount(ctx app.Context) {
	if app.IsServer {
		return
	}
	if nodeMode(len(c.Frame.Nodes)) != modeCanvas {
		// Only the canvas depends on the room measured once mounted:
		// cards and strips need no second render.
		ctx.PreventUpdate()
	}
	c.yielder = NewYielder()
	c.scheme = app.Window().Call("matchMedia", "(prefers-color-scheme: dark)")
	c.onScheme = app.FuncOf(func(app.Value, []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) { c.drawn = ""; c.draw(ctx) })
		return nil
	})
	c.scheme.Call("addEventListener", "change", c.onScheme)
	c.observeSize(ctx)
	ctx.Defer(c.draw)
}

// observeSize has the browser report the grid's width whenever its layout
// changes it, the first time once it has laid the grid out: the canvas is
// drawn then, at that width. Without ResizeObserver, canvasWidth reads it.
func (c *NodeGrid) observeSize(ctx app.Context) {
	ro := app.Window().Get("ResizeObserver")
	root := c.JSValue()
	if !ro.Truthy() || !root.Truthy() {
		return
	}
	c.onSize = app.FuncOf(func(_ app.Value, args []app.Value) any {
		// The layout is done when the observer reports: reading the
		// width costs nothing now.
		w := root.Get("clientWidth").Int()
		ctx.Dispatch(func(ctx app.Context) {
			if w <= 0 || w == c.width {
				ctx.PreventUpdate()
				return
			}
			c.width = w
			if nodeMode(len(c.Frame.Nodes)) != modeCanvas {
				ctx.PreventUpdate()
				return
			}
			ctx.Defer(c.draw) // after the render that sizes the canvas
		})
		return nil
	})
	c.sizer = ro.New(c.onSize)
	c.sizer.Call("observe", root)
}

// OnDismount releases the scheme listener and the yielder, and takes the
// canvas back from the simulation.
func (c *NodeGrid) OnDismount() {
	c.tell(protocol.Canvas{})
	if c.yielder != nil {
		c.yielder.Release()
		c.yielder = nil
	}
	if c.onScheme != nil {
		c.scheme.Call("removeEventListener", "change", c.onScheme)
		c.onScheme.Release()
		c.onScheme = nil
	}
	if c.onSize != nil {
		c.sizer.Call("disconnect")
		c.onSize.Release()
		c.onSize, c.sizer = nil, nil
	}
}

// OnUpdate redraws the canvas after the new frame is rendered: in the
// browser, in a task of its own once the browser has shown the rest of the
// page (drawing ten thousand nodes takes tens of milliseconds).
func (c *NodeGrid) OnUpdate(ctx app.Context) {
	if c.yielder == nil || nodeMode(len(c.Frame.Nodes)) != modeCanvas {
		ctx.Defer(c.draw)
		return
	}
	later(ctx, c.yielder, func(ctx app.Context) {
		ctx.PreventUpdate()
		c.draw(ctx)
	})
}

// OnResize redraws the canvas at its new width (the size observer does,
// where there is one).
func (c *NodeGrid) OnResize(ctx app.Context) {
	if c.sizer != nil {
		ctx.PreventUpdate()
		return
	}
	c.width = 0
	ctx.Defer(c.draw)
}

// ctx is what drawing the frame's nodes needs.
func (c *NodeGrid) ctx() *nodeCtx { return frameNodeCtx(&c.Frame) }

// frameNodeCtx is what drawing a frame's nodes needs.
func frameNodeCtx(f *store.Frame) *nodeCtx {
	return &nodeCtx{
		done:   doneByNode(f),
		colors: NewColors(f), minAlloc: frameMinAlloc(f),
		heartbeat: f.HeartbeatNode, tick: f.Tick, largest: largestNode(f.Nodes),
	}
}

// nodeIndex is the index of the node named name, or -1.
func nodeIndex(nodes []core.NodeView, name string) int {
	for i := range nodes {
		if nodes[i].Name == name {
			return i
		}
	}
	return -1
}

// Render draws the nodes in the mode their number calls for.
func (c *NodeGrid) Render() app.UI {
	f := &c.Frame
	mode := nodeMode(len(f.Nodes))
	nc := c.ctx()
	var body app.UI
	switch mode {
	case modeCards:
		body = app.Div().Class("ng-cards").Body(
			app.Range(f.Nodes).Slice(func(i int) app.UI { n := f.Node(i); return nodeCard(&n, nc) }),
		)
	case modeStrips:
		body = app.Ol().Class("ng-strips").OnClick(c.onStripClick).Body(
			app.Range(f.Nodes).Slice(func(i int) app.UI { n := f.Node(i); return &stripRow{S: stripOf(&n, nc, n.Name == c.expanded)} }),
		)
	default:
		l := newCanvasLayout(len(f.Nodes), c.canvasWidth())
		cv := app.Canvas().Class("ng-canvas")
		if workerCanvas == nil {
			// A canvas the simulation paints has the size it gives it.
			cv = cv.Width(l.W).Height(l.H)
		}
		wrap := "ng-canvas-wrap"
		if f.NodesBehind {
			wrap += " behind"
		}
		body = app.Div().Class(wrap).Body(
			// Said while the simulation rebuilds the step's state to
			// paint the canvas (a step back shown from a kept frame):
			// the picture is of another step meanwhile.
			app.P().Class("ng-behind").Role("status").DataSet("field", "nodes-behind").Body(
				app.If(f.NodesBehind, func() app.UI {
					return app.Text("The picture of the nodes is catching up with step " + strconv.Itoa(f.Step) + "…")
				}),
			),
			cv.Style("width", strconv.Itoa(l.W)+"px").Style("height", strconv.Itoa(l.H)+"px").
				Role("img").Aria("label", nodesSummary(f)+". Click a strip to open its node.").
				OnClick(c.onCanvasClick).OnMouseMove(c.onCanvasHover),
			app.P().Class("ng-hover").Aria("live", "polite").Text("Point at a strip to name its node; click to open it."),
		)
	}
	return app.Section().Class("nodegrid").DataSet("mode", mode).DataSet("step", f.Step).Aria("label", "Nodes").Body(
		app.P().Class("ng-summary").DataSet("field", "nodes-summary").Text(nodesSummary(f)),
		nodeLegend(mode),
		app.If(mode != modeCards, func() app.UI { return c.finder() }),
		app.If(mode != modeCards && c.expandedNode() != nil, func() app.UI {
			return app.Div().Class("ng-expanded").Body(
				app.Button().Type("button").Class("ng-close").Aria("label", "Close node "+c.expanded).
					OnClick(func(ctx app.Context, e app.Event) { c.open(c.expanded); ctx.Defer(c.redraw) }).Text("×"),
				nodeCard(c.expandedNode(), nc),
			)
		}),
		body,
	)
}

// finder opens a node by name, and the heartbeating node in one click:
// the keyboard's way into the strips and the canvas.
func (c *NodeGrid) finder() app.UI {
	hb := c.Frame.HeartbeatNode
	return app.Div().Class("ng-finder").Body(
		app.Label().For("ng-find").Text("Open node "),
		app.Input().ID("ng-find").Type("search").Placeholder("name").
			OnChange(func(ctx app.Context, e app.Event) { c.open(ctx.JSSrc().Get("value").String()); ctx.Defer(c.redraw) }),
		app.If(hb != "", func() app.UI {
			return app.Button().Type("button").Class("ng-open-hb").
				OnClick(func(ctx app.Context, e app.Event) { c.open(c.Frame.HeartbeatNode); ctx.Defer(c.redraw) }).
				Body(app.Span().Aria("hidden", "true").Text("♥ "), app.Text("open "+hb))
		}),
	)
}

// redraw draws the canvas once the page shows the new state (the opened
// node is outlined on it).
func (c *NodeGrid) redraw(ctx app.Context) { c.draw(ctx) }

// open shows a node as a card (a second time closes it).
func (c *NodeGrid) open(name string) {
	if c.expanded == name {
		name = ""
	}
	c.expanded = name
	c.drawn = ""
}

// expandedNode is the node opened as a card, its containers included, or
// nil.
func (c *NodeGrid) expandedNode() *core.NodeView {
	if c.expanded == "" || (c.Frame.NodesPainted && c.Frame.FocusNode != c.expanded) {
		// The simulation sends the node's containers with its next frame.
		return nil
	}
	if i := nodeIndex(c.Frame.Nodes, c.expanded); i >= 0 {
		n := c.Frame.Node(i)
		return &n
	}
	return nil
}

// onStripClick opens the strip clicked (one handler for every strip).
func (c *NodeGrid) onStripClick(ctx app.Context, e app.Event) {
	t := e.Get("target")
	if !t.Truthy() {
		return
	}
	if row := t.Call("closest", "[data-node]"); row.Truthy() {
		c.open(row.Get("dataset").Get("node").String())
	}
}

// canvasPoint is the strip under a mouse event on the canvas, or -1.
func (c *NodeGrid) canvasPoint(e app.Event) int {
	l := newCanvasLayout(len(c.Frame.Nodes), c.canvasWidth())
	return l.hit(e.Get("offsetX").Int(), e.Get("offsetY").Int())
}

// onCanvasClick opens the node under the pointer.
func (c *NodeGrid) onCanvasClick(ctx app.Context, e app.Event) {
	if i := c.canvasPoint(e); i >= 0 {
		c.open(c.Frame.Nodes[i].Name)
		ctx.Defer(c.redraw)
	}
}

// onCanvasHover names the node under the pointer without re-rendering.
func (c *NodeGrid) onCanvasHover(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	i := c.canvasPoint(e)
	text := "Point at a strip to name its node; click to open it."
	if i >= 0 {
		n := c.Frame.NodeBrief(i)
		text = n.Name + ": " + nodeUsageText(&n)
		if n.Reservation != nil {
			text += "; " + reservationText(*n.Reservation, n.Reservation.Size.SubNonNegative(n.Capacity.Sub(n.Allocated)))
		}
	}
	ctx.JSSrc().Set("title", text)
	if root := c.JSValue(); root.Truthy() {
		if p := root.Call("querySelector", ".ng-hover"); p.Truthy() {
			p.Set("textContent", text)
		}
	}
}

// canvasWidth is the room the canvas has, measured once mounted: as the
// size observer reported it (until it has, a guess), else read from the
// page.
func (c *NodeGrid) canvasWidth() int {
	if c.width > 0 {
		return c.width
	}
	if !app.IsServer && c.Mounted() && c.sizer == nil {
		// During the first render the root is not in the page yet.
		if root := c.JSValue(); root.Truthy() {
			if w := root.Get("clientWidth").Int(); w > 0 {
				c.width = w
				return w
			}
		}
	}
	return 960
}

// draw paints the canvas from the frame, unless it already shows it or a
// drawing of it is under way. In the browser it paints for at most about
// paintBudget, then lets the browser run and goes on in a later task (a
// drawing of another picture, after a new frame, starts over); natively it
// paints at once.
func (c *NodeGrid) draw(ctx app.Context) {
	if app.IsServer || !c.Mounted() || nodeMode(len(c.Frame.Nodes)) != modeCanvas {
		c.tell(protocol.Canvas{})
		return
	}
	root := c.JSValue()
	if !root.Truthy() {
		return
	}
	cv := root.Call("querySelector", "canvas.ng-canvas")
	if !cv.Truthy() {
		return
	}
	if c.sizer != nil && c.width == 0 {
		return // drawn once the size observer has reported the width
	}
	dark := c.scheme != nil && c.scheme.Truthy() && c.scheme.Get("matches").Bool()
	if workerCanvas != nil {
		c.giveCanvas(cv, protocol.Canvas{Width: c.canvasWidth(), Dark: dark, Focus: c.expanded})
		return
	}
	focus := nodeIndex(c.Frame.Nodes, c.expanded)
	l := newCanvasLayout(len(c.Frame.Nodes), c.canvasWidth())
	key := framePtr(&c.Frame) + "/" + strconv.Itoa(l.W) + "/" + strconv.FormatBool(dark) + "/" + strconv.Itoa(focus) + "/" + c.Frame.HeartbeatNode
	if key == c.drawn {
		c.job = nil
		return
	}
	job := c.job
	switch {
	case job == nil || job.key != key:
		job = &canvasJob{key: key, frame: c.Frame}
		job.painter = newNodePainter(c.pix, &job.frame, l, c.ctx(), paletteFor(dark), focus)
		c.pix = job.painter.r.pix
		c.job = job
	case job.waiting:
		// Its next part is on its way.
		return
	}
	start := time.Now()
	for !job.painter.done() {
		job.painter.paint(canvasPart)
		if c.yielder != nil && !job.painter.done() && time.Since(start) >= paintBudget {
			c.drawLater(ctx, job)
			return
		}
	}
	if cv.Get("width").Int() != l.W || cv.Get("height").Int() != l.H {
		cv.Set("width", l.W)
		cv.Set("height", l.H)
	}
	if c.img == nil || c.imgW != l.W || c.imgH != l.H {
		c.arr = app.Window().Get("Uint8ClampedArray").New(len(c.pix))
		c.img = app.Window().Get("ImageData").New(c.arr, l.W, l.H)
		c.imgW, c.imgH = l.W, l.H
	}
	app.CopyBytesToJS(c.arr, c.pix)
	cv.Call("getContext", "2d").Call("putImageData", c.img, 0, 0)
	c.drawn = key
	c.job = nil
}

// giveCanvas has the simulation paint the canvas cv as want says: the
// first time it sees cv, it hands it over as an OffscreenCanvas (the
// page never paints it again), then it tells the simulation of every
// change of width, scheme or node opened.
func (c *NodeGrid) giveCanvas(cv app.Value, want protocol.Canvas) {
	if !cv.Get(givenMark).Truthy() {
		off := cv.Call("transferControlToOffscreen")
		cv.Set(givenMark, true)
		workerCanvas.worker.Call("postMessage", map[string]any{"canvas": off}, []any{off})
		c.told = protocol.Canvas{} // a new canvas: to be told all
	}
	c.tell(want)
}

// givenMark marks a canvas element handed over to the simulation.
const givenMark = "yarnplayGiven"

// tell tells the simulation of the canvas it paints (a zero Canvas: it
// paints none), if that changed.
func (c *NodeGrid) tell(want protocol.Canvas) {
	if workerCanvas == nil || want == c.told {
		return
	}
	c.told = want
	workerCanvas.ctl.Do(protocol.Command{Op: protocol.OpCanvas, N: want.Width, Toggle: want.Dark, Node: want.Focus})
}

// workerCanvas is how the page hands its node canvas to the simulation's
// worker, which paints it where the frame's containers are (see
// protocol.Canvas): nil when the page paints it itself (natively, in the
// views' demo, in a browser without OffscreenCanvas).
var workerCanvas *canvasLink

// canvasLink reaches the simulation's worker: worker is its Worker
// object, and ctl the controller sending it commands.
type canvasLink struct {
	worker app.Value
	ctl    *Controller
}

// drawLater goes on with the drawing once the browser has run, unless
// another drawing has replaced it.
func (c *NodeGrid) drawLater(ctx app.Context, job *canvasJob) {
	job.waiting = true
	later(ctx, c.yielder, func(ctx app.Context) {
		ctx.PreventUpdate()
		job.waiting = false
		if c.job == job {
			c.draw(ctx)
		}
	})
}

// stripRow is one node as a compact strip (strip): a component of its
// own, so that a step redraws the strips of the nodes it changed, go-app
// finding the others' field equal to the last step's.
type stripRow struct {
	app.Compo
	S strip
}

// strip is what a node's strip shows: a button (to open it) with the
// node's name, the strip and what is allocated.
type strip struct {
	Name, Title, Label, Usage string
	Heartbeat, Open, Reserved bool
	// Width is the strip's length, against the largest node's; Blocks are
	// its containers then those completed in this step (doneBlocks), Ghost
	// the style of its reservation ("" none).
	Width  string
	Blocks []stripBlock
	Ghost  string
}

// stripBlock is one block of a strip: its class, title ("" none) and
// style (its colours, left and width).
type stripBlock struct{ Class, Title, Style string }

// stripOf computes node n's strip.
func stripOf(n *core.NodeView, nc *nodeCtx, open bool) strip {
	g := nodeStrip(n, nc.largest)
	s := strip{
		Name: n.Name, Title: n.Name + ": " + nodeUsageText(n), Label: n.Label,
		Usage:     memText(n.Allocated.MemoryMB) + " / " + memText(n.Capacity.MemoryMB),
		Heartbeat: n.Name == nc.heartbeat, Open: open, Reserved: n.Reservation != nil, Width: cssPct(g.Scale),
	}
	for _, sg := range g.Segs {
		class := "ns-blk"
		if sg.C.IsAM {
			class += " am"
		}
		s.Blocks = append(s.Blocks, stripBlock{class, containerTitle(sg.C),
			nc.colors.blockStyle(sg.C.Queue, sg.C.App) + ";left:" + cssPct(sg.Left) + ";width:" + cssPct(sg.Width)})
	}
	s.Blocks = doneBlocks(s.Blocks, nc.done[n.Name], n, g.Used, nc)
	if g.Ghost != nil {
		// The ghost may end past the strip (width over 100%): the shortfall.
		s.Ghost = "left:" + cssPct(g.Ghost.Left) + ";width:" + strconv.FormatFloat(g.Ghost.Width*100, 'f', 2, 64) + "%"
	}
	return s
}

// Render draws the strip.
func (r *stripRow) Render() app.UI {
	s := &r.S
	class := "ng-strip"
	if s.Heartbeat {
		class += " hb"
	}
	return app.Li().Body(
		app.Button().Type("button").Class(class).DataSet("node", s.Name).Aria("expanded", strconv.FormatBool(s.Open)).
			Title(s.Title).Body(
			app.Span().Class("ns-name").Body(
				app.If(s.Heartbeat, func() app.UI { return app.Span().Class("ns-hb").Aria("label", "heartbeat").Text("♥") }),
				app.Text(s.Name),
				app.If(s.Label != "", func() app.UI { return labelBadge(s.Label) }),
			),
			app.Span().Class("ns-bar").Aria("hidden", "true").Style("width", s.Width).Body(
				app.Range(s.Blocks).Slice(func(i int) app.UI {
					b := s.Blocks[i]
					return app.Span().Class(b.Class).Title(b.Title).Attr("style", b.Style)
				}),
				app.If(s.Ghost != "", func() app.UI { return app.Span().Class("ns-ghost").Attr("style", s.Ghost) }),
			),
			app.Span().Class("ns-usage").Text(s.Usage),
			app.If(s.Reserved, func() app.UI {
				return app.Span().Class("ns-res").Body(app.Span().Aria("hidden", "true").Text("⌛ "), app.Text("reserved"))
			}),
		),
	)
}

// nodesSummary says the nodes in a sentence: how many, how many containers
// they run (every container drawn) and on how many of them, how full, how
// many reserved, and whose heartbeat this step is.
func nodesSummary(f *store.Frame) string {
	var alloc, capa int64
	for i := range f.Nodes {
		capa += f.Nodes[i].Capacity.MemoryMB
	}
	for _, u := range f.NodeUsed {
		alloc += u.MemoryMB
	}
	reserved := len(f.Reserved)
	busy := f.Metrics.NodesBusy
	s := plural(len(f.Nodes), "node", "nodes") + ", " + plural(f.Metrics.Containers, "running container", "running containers")
	if busy > 0 && busy < len(f.Nodes) {
		s += " on " + plural(busy, "node", "nodes")
	}
	s += ": " + memText(alloc) + " of " + memText(capa) + " allocated"
	if reserved > 0 {
		s += ", " + strconv.Itoa(reserved) + " reserved"
	}
	if f.HeartbeatNode != "" {
		s += "; heartbeat of " + f.HeartbeatNode
	}
	return s
}

// nodeLegend explains the marks of the node views.
func nodeLegend(mode string) app.UI {
	item := func(class, text string) app.UI {
		return app.Li().Body(app.Span().Class("lg-swatch "+class).Aria("hidden", "true"), app.Text(text))
	}
	am := "AM container (letter A)"
	if mode != modeCards {
		am = "AM container (dotted)"
	}
	return app.Ul().Class("legend").Aria("label", "How to read the nodes").Body(
		item("lg-blk", "container: hue = queue, shade = app"),
		item("lg-am", am),
		item("lg-ghost", "reservation (dashed; past the edge = shortfall)"),
		item("lg-hb", "heartbeating node"),
	)
}

// paintBudget is the longest the node canvas paints before it lets the
// browser render a frame and take input, when the painting is longer: a
// few parts fit a frame's 16.7 ms with the browser's own work.
const paintBudget = 5 * time.Millisecond
