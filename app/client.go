package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/protocol"
	"yarnplay/wasm/worker"
)

// newController returns the page's controller: in the browser, a client
// of the simulation in its Web Worker, whose replies the page takes on
// its UI goroutine and renders; natively, a store in the process.
func (p *Page) newController() *Controller {
	if !app.IsClient {
		return NewLocalController(store.New())
	}
	cl := worker.NewClient(href(worker.ScriptPath), p.onUI)
	ctl := NewController(cl)
	if pc, ok := cl.(interface{ OnPush(func(protocol.Reply)) }); ok {
		pc.OnPush(ctl.Pushed)
	}
	if d, ok := cl.(interface{ Drawn() }); ok {
		p.drawn = d.Drawn
	}
	if w, ok := cl.(interface{ Worker() any }); ok && offscreenCanvases() {
		workerCanvas = &canvasLink{worker: app.ValueOf(w.Worker()), ctl: ctl}
	}
	return ctl
}

// offscreenCanvases reports whether the browser hands canvases to
// workers (HTMLCanvasElement.transferControlToOffscreen).
func offscreenCanvases() bool {
	cv := app.Window().Get("HTMLCanvasElement")
	return cv.Truthy() && cv.Get("prototype").Get("transferControlToOffscreen").Truthy()
}

// onUI runs fn (a reply's handling) on the UI goroutine, and renders the
// page after it when it brought another frame or a component asked for it
// (Controller.Redraw); the working state shows itself (showWorking). A
// reply that changes
// nothing shown (a save, a link, an undo point) costs no render of the
// whole page, which at hundreds of queues takes longer than the command.
// Before the page is mounted (a reply may come before OnMount) it waits
// for the mount.
func (p *Page) onUI(fn func()) {
	if !p.timers {
		p.early = append(p.early, fn)
		return
	}
	p.ui.Dispatch(func(ctx app.Context) {
		f := p.ctl.Frame()
		p.ctl.redraw = false
		fn()
		if nf := p.ctl.Frame(); nf != f {
			p.gcFrameCame(ctx, f, nf)
			if p.drawn != nil {
				// Once the render that follows has drawn it: the
				// simulation then plays the next step ahead (the
				// worker's Serve), not while the page draws.
				ctx.Defer(func(app.Context) { p.drawn() })
			}
		} else if !p.ctl.redraw {
			ctx.PreventUpdate()
		}
	})
}

// runEarly runs what came before the mount.
func (p *Page) runEarly() {
	early := p.early
	p.early = nil
	for _, fn := range early {
		p.onUI(fn)
	}
}

// showWorking shows or hides the page's working state: the "Working…"
// status and aria-busy on the page's root. It changes those elements
// only, never rendering the page: a tick of a big cluster takes longer
// than workingAfter, and a render of a thousand queues' rows to show one
// word cost as much as drawing the tick's frame (twice a tick at
// benchmark 5). Render draws the state too, for the renders that come
// while it lasts.
func (p *Page) showWorking(working bool) {
	if app.IsServer || !p.Mounted() {
		return
	}
	root := p.JSValue()
	if !root.Truthy() {
		return
	}
	if working {
		root.Get("classList").Call("add", "working")
		root.Call("setAttribute", "aria-busy", "true")
	} else {
		root.Get("classList").Call("remove", "working")
		root.Call("removeAttribute", "aria-busy")
	}
	if st := app.Window().GetElementByID("working"); st.Truthy() {
		st.Set("hidden", !working)
	}
}
