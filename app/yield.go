package app

import (
	"runtime/metrics"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/internal/noeq"
)

// Yielder lets the browser run in the middle of an action: Yield posts a
// message to itself and waits for it. The UI goroutine blocks, so the Go
// runtime hands the thread back to the browser, which paints and handles
// input (go-app queues the events) before it delivers the message; the
// action then goes on. A message, unlike a timer, is not clamped to 4 ms.
type Yielder struct {
	_    noeq.T
	port app.Value // the port posted to
	in   app.Value // the port listened to
	wake chan struct{}
	fn   app.Func
	// onFrame posts the message from an animation frame's callback (Frame).
	onFrame app.Func
}

// NewYielder returns a Yielder over a MessageChannel (browser only).
func NewYielder() *Yielder {
	ch := app.Window().Get("MessageChannel").New()
	y := &Yielder{port: ch.Get("port2"), in: ch.Get("port1"), wake: make(chan struct{})}
	y.fn = app.FuncOf(func(app.Value, []app.Value) any {
		// One message wakes one waiter; the callback itself never waits.
		go func() { y.wake <- struct{}{} }()
		return nil
	})
	y.in.Set("onmessage", y.fn)
	y.onFrame = app.FuncOf(func(app.Value, []app.Value) any {
		y.port.Call("postMessage", nil)
		return nil
	})
	return y
}

// Yield lets the browser run, then returns.
func (y *Yielder) Yield() {
	y.port.Call("postMessage", nil)
	<-y.wake
}

// Frame lets the browser render its next frame, then returns: the
// animation frame's callback posts the message, which the browser delivers
// after the frame's style, layout and paint. A hidden page renders no
// frames: there it yields as Yield does.
func (y *Yielder) Frame() {
	if app.Window().Get("document").Get("hidden").Truthy() {
		y.Yield()
		return
	}
	app.Window().Call("requestAnimationFrame", y.onFrame)
	<-y.wake
}

// Release frees the Yielder's callbacks; it must not be used after.
func (y *Yielder) Release() {
	y.in.Set("onmessage", nil)
	y.fn.Release()
	y.onFrame.Release()
}

// actionsBegun counts the commands the controller sent (on the UI
// goroutine, where every dispatch runs): work that waits for the
// browser's turn (later) learns from it that an action ran meanwhile.
var actionsBegun int

// later runs fn in a dispatch of ctx once the browser has rendered a frame
// (y.Frame): each piece of work deferred so (a stage's render, a slice of
// the node canvas's painting) has a frame of its own. After a posted
// message alone, two such pieces could run back to back, and the frame
// between them came late.
// Dispatches sent while an action runs wait for its end and then run in
// the same task as it and the render of its frame, which would make one
// long task of them: when an action has begun since later was called, fn
// waits for the browser's turn once more.
func later(ctx app.Context, y *Yielder, fn func(app.Context)) {
	seq := actionsBegun
	ctx.Async(func() {
		y.Frame()
		ctx.Dispatch(func(ctx app.Context) {
			if actionsBegun != seq {
				ctx.PreventUpdate()
				later(ctx, y, fn)
				return
			}
			fn(ctx)
		})
	})
}

// measure puts an action's timing on the page's performance timeline, as
// a "yarnplay:action" measure ending now, from the command's sending to
// its reply, whose detail has the simulation's time on it (cpu, ms), the
// step and its kind, and the page's memory (pageMB, see pageMemory): the browser's profiler shows them, and the
// benchmarks and the browser tests read them.
func measure(t Timing) {
	perf := app.Window().Get("performance")
	if !perf.Truthy() {
		return
	}
	perf.Call("measure", "yarnplay:action", map[string]any{
		"end":      perf.Call("now").Float(),
		"duration": t.Wall.Seconds() * 1000,
		"detail": map[string]any{"cpu": t.Work.Seconds() * 1000, "step": t.Step, "kind": t.Kind, "op": string(t.Op),
			"pageMB": pageMemory() / (1 << 20), "allocMB": pageAllocated() / (1 << 20), "gcs": pageCollections()},
	})
}

// pageMemory is the memory the page's Go runtime holds from the browser
// (its WebAssembly memory, about), in bytes: the benchmarks read it from
// the actions' measures.
func pageMemory() float64 { return runtimeMetric("/memory/classes/total:bytes") }

// pageAllocated is what the page's Go code has allocated since it
// started, in bytes, and pageCollections how many times Go's collector
// has run on the page: a collection marks the page's heap in one task
// (Go's stock runtime in the browser), so benchmark 5 counts both over
// its ticks.
func pageAllocated() float64   { return runtimeMetric("/gc/heap/allocs:bytes") }
func pageCollections() float64 { return runtimeMetric("/gc/cycles/total:gc-cycles") }

// runtimeMetric reads one of Go's runtime metrics (a count), 0 if none.
func runtimeMetric(name string) float64 {
	sample := []metrics.Sample{{Name: name}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return float64(sample[0].Value.Uint64())
}
