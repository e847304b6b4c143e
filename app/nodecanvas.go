package app

import (
	"yarnplay/app/store"
	"yarnplay/core"
)

// The canvas drawing of many nodes: every node a strip, laid row by row
// in columns, rasterised in Go into one RGBA buffer that the browser puts
// on a <canvas> in one call. It is a pure function of the frame, tested
// natively pixel by pixel.

// Canvas layout constants, in CSS pixels.
const (
	canvasBarH   = 6  // a strip's height
	canvasRowGap = 4  // between rows (the heartbeat's outline lives there)
	canvasPad    = 3  // around the drawing
	canvasMinCol = 90 // the shortest strip worth drawing
	canvasColGap = 14 // between columns (a reservation's shortfall spills there)
)

// Past denseNodes nodes, the strips are drawn smaller (denseBarH high,
// rows denseRowGap apart, at least denseMinCol long, columns denseColGap
// apart): ten thousand strips at full size make a canvas twenty thousand
// pixels high, tens of megabytes to draw every step.
const (
	denseNodes  = 2000
	denseBarH   = 3
	denseRowGap = 2
	denseMinCol = 40
	denseColGap = 8
)

// canvasLayout places n strips on a canvas of a given width.
type canvasLayout struct {
	N, W, H    int
	Cols, Rows int
	// ColW is a full-size strip's length; Stride = ColW + the column gap.
	ColW, Stride int
	// RowH is a row's height: the strip (BarH) plus the gap between rows
	// (RowGap); ColGap is the gap between columns.
	RowH, BarH, RowGap, ColGap int
}

// newCanvasLayout fits n strips into width pixels: as many columns as fit
// strips of at least canvasMinCol pixels (denseMinCol past denseNodes
// strips), rows as needed.
func newCanvasLayout(n, width int) canvasLayout {
	barH, rowGap, minCol, colGap := canvasBarH, canvasRowGap, canvasMinCol, canvasColGap
	if n > denseNodes {
		barH, rowGap, minCol, colGap = denseBarH, denseRowGap, denseMinCol, denseColGap
	}
	width = max(width, minCol+colGap+2*canvasPad)
	cols := max(1, (width-2*canvasPad)/(minCol+colGap))
	cols = min(cols, max(n, 1))
	stride := (width - 2*canvasPad) / cols
	rows := (n + cols - 1) / cols
	rowH := barH + rowGap
	return canvasLayout{
		N: n, W: width, H: 2*canvasPad + max(rows, 1)*rowH,
		Cols: cols, Rows: rows, ColW: stride - colGap, Stride: stride,
		RowH: rowH, BarH: barH, RowGap: rowGap, ColGap: colGap,
	}
}

// at is the top left corner of strip i.
func (l canvasLayout) at(i int) (x, y int) {
	return canvasPad + (i%l.Cols)*l.Stride, canvasPad + l.RowGap/2 + (i/l.Cols)*l.RowH
}

// hit is the strip under the point (x, y), or -1.
func (l canvasLayout) hit(x, y int) int {
	x -= canvasPad
	y -= canvasPad
	if x < 0 || y < 0 {
		return -1
	}
	col, row := x/l.Stride, y/l.RowH
	if col >= l.Cols || x%l.Stride >= l.ColW+l.ColGap/2 {
		return -1
	}
	i := row*l.Cols + col
	if i >= l.N {
		return -1
	}
	return i
}

// canvasPalette are the canvas's colours in one scheme.
type canvasPalette struct {
	track, separator, ghost, hb, focus, amDot rgbColor
	dark                                      bool
}

// paletteFor returns the light or dark canvas colours, matching web/app.css.
func paletteFor(dark bool) canvasPalette {
	if dark {
		return canvasPalette{
			track: rgbColor{0x2b, 0x33, 0x3a}, separator: rgbColor{0x15, 0x19, 0x1c}, ghost: rgbColor{0xe6, 0xe9, 0xeb},
			hb: rgbColor{0xff, 0xc8, 0x57}, focus: rgbColor{0x5a, 0xa9, 0xe0}, amDot: rgbColor{0xff, 0xff, 0xff}, dark: true,
		}
	}
	return canvasPalette{
		track: rgbColor{0xe3, 0xe6, 0xdf}, separator: rgbColor{0xff, 0xff, 0xff}, ghost: rgbColor{0x1d, 0x23, 0x27},
		hb: rgbColor{0xd9, 0x7a, 0x00}, focus: rgbColor{0x1f, 0x5f, 0x8b}, amDot: rgbColor{0x00, 0x00, 0x00},
	}
}

// nodeRaster is an RGBA image under construction.
type nodeRaster struct {
	w, h int
	pix  []byte
}

// set paints one pixel, if it is inside.
func (r *nodeRaster) set(x, y int, c rgbColor) {
	if x < 0 || y < 0 || x >= r.w || y >= r.h {
		return
	}
	i := (y*r.w + x) * 4
	r.pix[i], r.pix[i+1], r.pix[i+2], r.pix[i+3] = c.R, c.G, c.B, 255
}

// fill paints a rectangle, clipped to the image: its first row pixel by
// pixel, the others copied from it.
func (r *nodeRaster) fill(x0, y0, x1, y1 int, c rgbColor) {
	x0, y0 = max(x0, 0), max(y0, 0)
	x1, y1 = min(x1, r.w), min(y1, r.h)
	if x0 >= x1 || y0 >= y1 {
		return
	}
	first := r.pix[(y0*r.w+x0)*4 : (y0*r.w+x1)*4]
	for i := 0; i < len(first); i += 4 {
		first[i], first[i+1], first[i+2], first[i+3] = c.R, c.G, c.B, 255
	}
	for y := y0 + 1; y < y1; y++ {
		copy(r.pix[(y*r.w+x0)*4:], first)
	}
}

// outline draws a rectangle's border; dash > 0 draws it dashed.
func (r *nodeRaster) outline(x0, y0, x1, y1 int, c rgbColor, dash int) {
	on := func(k int) bool { return dash <= 0 || (k/dash)%2 == 0 }
	for x := x0; x < x1; x++ {
		if on(x - x0) {
			r.set(x, y0, c)
			r.set(x, y1-1, c)
		}
	}
	for y := y0; y < y1; y++ {
		if on(y - y0) {
			r.set(x0, y, c)
			r.set(x1-1, y, c)
		}
	}
}

// rasterNodes draws every node as a strip: the track as long as the node
// is large, each container a block of its queue's hue and app's shade with
// a one-pixel separator, AM containers dotted, the reservation a dashed
// outline after the used part that spills past the strip's end by the
// shortfall, the heartbeating node and the focused one (-1: none)
// outlined. It returns l.W x l.H RGBA pixels, in buf when it is large
// enough (the canvas redraws into the same buffer every step). It reads
// the frame's containers in brief: ten thousand nodes run hundreds of
// thousands.
func rasterNodes(buf []byte, f *store.Frame, l canvasLayout, nc *nodeCtx, p canvasPalette, focus int) []byte {
	np := newNodePainter(buf, f, l, nc, p, focus)
	np.paint(len(f.Nodes))
	return np.r.pix
}

// PaintNodes paints a frame's nodes as NodeGrid's canvas shows them: on a
// canvas width CSS pixels wide (the room the page gives it), in the dark
// palette or the light one, the node named focus outlined. It returns
// rasterNodes' picture, in buf when it is large enough, and its size. The
// simulation's worker paints the page's canvas with it (wasm/worker), so
// that the nodes' containers stay where the frame is built.
func PaintNodes(buf []byte, f *store.Frame, width int, dark bool, focus string) (pix []byte, w, h int) {
	l := newCanvasLayout(len(f.Nodes), width)
	at := nodeIndex(f.Nodes, focus)
	return rasterNodes(buf, f, l, frameNodeCtx(f), paletteFor(dark), at), l.W, l.H
}

// nodePainter draws rasterNodes' picture in parts: paint draws the next
// nodes, in node order, and the picture once every node is painted is
// rasterNodes' to the pixel (each node's marks are painted in the same
// order; the strips overlap only there, by their outlines). The canvas
// draws ten thousand nodes part by part, letting the browser paint between
// the parts.
type nodePainter struct {
	r     nodeRaster
	f     *store.Frame
	l     canvasLayout
	nc    *nodeCtx
	p     canvasPalette
	focus int
	// next is the first node not painted yet.
	next int
	// A block's colour depends on its app (its queue's hue and its shade):
	// computed once per app, not once per container.
	colors []rgbColor
	known  []bool
}

// newNodePainter starts a picture of the frame's nodes, in buf when it is
// large enough, cleared; f must not change while the painter draws it.
func newNodePainter(buf []byte, f *store.Frame, l canvasLayout, nc *nodeCtx, p canvasPalette, focus int) *nodePainter {
	n := l.W * l.H * 4
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	clear(buf)
	return &nodePainter{
		r: nodeRaster{w: l.W, h: l.H, pix: buf}, f: f, l: l, nc: nc, p: p, focus: focus,
		colors: make([]rgbColor, f.AppCount()), known: make([]bool, f.AppCount()),
	}
}

// done reports whether every node is painted.
func (np *nodePainter) done() bool { return np.next >= len(np.f.Nodes) }

// paint paints the next count nodes (fewer at the end).
func (np *nodePainter) paint(count int) {
	end := min(np.next+count, len(np.f.Nodes))
	for i := np.next; i < end; i++ {
		np.node(i)
	}
	np.next = end
}

func (np *nodePainter) blockColor(c *core.ContainerBrief) rgbColor {
	if !np.known[c.App] {
		a := np.f.App(int(c.App)) // nil: an app the page does not hold (store.Shown)
		if a == nil {
			a = &core.AppView{}
		}
		np.colors[c.App], np.known[c.App] = np.nc.colors.blockRGB(a.Queue, a.ID, np.p.dark), true
	}
	return np.colors[c.App]
}

// node paints node i.
func (np *nodePainter) node(i int) {
	r, f, l, nc, p := &np.r, np.f, np.l, np.nc, np.p
	n := &f.Nodes[i] // its name and capacity: its usage is f.NodeUsed[i]
	x0, y0 := l.at(i)
	// nodeStrip's geometry, without building the strip.
	capMB := float64(n.Capacity.MemoryMB)
	scale := 1.0
	if nc.largest > 0 {
		scale = unit01(capMB / float64(nc.largest))
	}
	length := max(int(scale*float64(l.ColW)+0.5), 1)
	y1 := y0 + l.BarH
	r.fill(x0, y0, x0+length, y1, p.track)
	px := func(f float64) int { return x0 + int(f*float64(length)+0.5) }
	if capMB > 0 {
		at := 0.0
		cs := f.NodeBriefs(i)
		for ci := range cs {
			c := &cs[ci]
			w := float64(c.Size.MemoryMB) / capMB
			a, b := px(at), px(at+w)
			at += w
			b = max(b, a+1)
			r.fill(a, y0, b, y1, np.blockColor(c))
			if c.IsAM {
				for x := a + 1; x < b-1; x += 2 {
					r.set(x, y0+1, p.amDot)
					r.set(x, y1-2, p.amDot)
				}
			}
			if b-a >= 3 {
				r.fill(b-1, y0, b, y1, p.separator)
			}
		}
		if res := f.NodeReservation(i); res != nil {
			used := float64(f.NodeUsed[i].MemoryMB) / capMB
			a, b := px(used), px(used+float64(res.Size.MemoryMB)/capMB)
			b = min(max(b, a+2), x0+l.Stride-2)
			r.outline(a, y0, b, y1, p.ghost, 2)
		}
	}
	if n.Name == nc.heartbeat {
		r.outline(x0-2, y0-2, x0+length+2, y1+2, p.hb, 0)
		r.outline(x0-1, y0-1, x0+length+1, y1+1, p.hb, 0)
	}
	if i == np.focus {
		r.outline(x0-2, y0-2, x0+length+2, y1+2, p.focus, 1)
	}
}
