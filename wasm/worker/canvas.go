//go:build js && wasm

package worker

import (
	"syscall/js"

	"yarnplay/app/store"
	"yarnplay/protocol"
)

// canvasPainter paints the page's node canvas, handed over as an
// OffscreenCanvas: the browser shows on the page what is put on it here,
// and the page keeps neither the nodes' containers nor the pixels.
type canvasPainter struct {
	canvas, ctx js.Value
	// pix, arr and img are the picture in Go, in JavaScript and as
	// ImageData, kept from one painting to the next (megabytes).
	pix      []byte
	arr, img js.Value
	w, h     int
	// frame and as are what the canvas shows.
	frame *store.Frame
	as    protocol.Canvas
}

// take makes cv the canvas painted: the page made a new one.
func (p *canvasPainter) take(cv js.Value) {
	*p = canvasPainter{canvas: cv, ctx: cv.Call("getContext", "2d"), pix: p.pix}
}

// paint paints f as c says, unless the canvas shows it already or the
// page paints its nodes itself (c.Width 0).
func (p *canvasPainter) paint(f *store.Frame, c protocol.Canvas) {
	if PaintNodes == nil || !p.ctx.Truthy() || c.Width <= 0 || f == nil || (f == p.frame && c == p.as) {
		return
	}
	pix, w, h := PaintNodes(p.pix, f, c.Width, c.Dark, c.Focus)
	p.pix, p.frame, p.as = pix, f, c
	if w != p.w || h != p.h || !p.img.Truthy() {
		p.canvas.Set("width", w)
		p.canvas.Set("height", h)
		p.arr = js.Global().Get("Uint8ClampedArray").New(len(pix))
		p.img = js.Global().Get("ImageData").New(p.arr, w, h)
		p.w, p.h = w, h
	}
	js.CopyBytesToJS(p.arr, pix)
	p.ctx.Call("putImageData", p.img, 0, 0)
}
