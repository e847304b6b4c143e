package app

import (
	"runtime"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
)

// Go's stock runtime collects the page's heap in one run, marking then
// sweeping, inside whatever task is running when a collection is due: at
// a thousand queues and ten thousand nodes, a run of several frames' time
// in which the page paints nothing and takes no key. wasm/main.go has a
// run come due only once the heap has grown sixteenfold since the last
// one; the page also runs the collector itself when nobody waits for it
// (collectGarbage):
//   - once every panel shows the frame of a jump (an opening, Home, End,
//     the timeline), whose panels it rebuilt. A run during that drawing
//     finds a smaller live heap than the drawn page's, and the next run
//     comes due after that much less garbage: a burst of ticks right
//     after the jump met it.
//   - once quietCollect went by without a frame coming, when a burst of
//     steps left garbage behind, so that the next burst starts with the
//     most room.

// quietCollect is how long the page waits without a frame before it
// collects the garbage of the frames before (Page.collectWhenQuiet).
const quietCollect = time.Second

// gcFrameCame notes a frame f that came after was: a jump (isJump) has
// the page collect once every panel shows it, and the quiet collection
// waits for the frames to stop.
func (p *Page) gcFrameCame(ctx app.Context, was, f *store.Frame) {
	if isJump(was, f) {
		p.gcJumped = true
	}
	p.gcFrames++
	if !p.gcWaiting {
		p.gcWaiting = true
		p.collectWhenQuiet(ctx, p.gcFrames)
	}
}

// collectWhenQuiet collects the garbage once quietCollect went by without
// a frame after the n-th: one timer, which waits again while frames come
// (every frame of a burst would otherwise start a timer of its own).
func (p *Page) collectWhenQuiet(ctx app.Context, n int) {
	ctx.After(quietCollect, func(ctx app.Context) {
		ctx.PreventUpdate()
		if n != p.gcFrames {
			p.collectWhenQuiet(ctx, p.gcFrames)
			return
		}
		p.gcWaiting = false
		if !p.drawing() {
			p.gcJumped = false
			collectGarbage()
		}
	})
}

// isJump reports whether the frame f, coming after was (nil before the
// first), is a jump: the first, or more than a step away.
func isJump(was, f *store.Frame) bool {
	return was == nil || f.Step > was.Step+1 || f.Step < was.Step-1
}

// collectGarbage runs Go's collector when it is worth its pause
// (worthCollecting).
func collectGarbage() {
	if worthCollecting(runtimeMetric("/gc/heap/live:bytes"), runtimeMetric("/memory/classes/heap/objects:bytes")) {
		runtime.GC()
	}
}

// worthCollecting reports whether a heap of objects bytes, live of them
// at the last collection, is worth collecting: a run marks the live heap
// and sweeps the whole, which is worth a pause once the garbage is at
// least the live heap, and a few MB.
func worthCollecting(live, objects float64) bool {
	return objects-live >= max(live, 4<<20)
}
