package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app/store"
	"yarnplay/wasm/worker"
)

// newController returns the page's controller: in the browser, a client
// of the simulation in its Web Worker, whose replies the page takes on
// its UI goroutine and renders; natively, a store in the process.
func (p *Page) newController() *Controller {
	if !app.IsClient {
		return NewLocalController(store.New())
	}
	return NewController(worker.NewClient(href(worker.ScriptPath), p.onUI))
}

// onUI runs fn (a reply's handling) on the UI goroutine, and renders the
// page after it when it brought another frame, changed the working state,
// or a component asked for it (Controller.Redraw): a reply that changes
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
		f, working := p.ctl.Frame(), p.ctl.IsWorking()
		p.ctl.redraw = false
		fn()
		if p.ctl.Frame() == f && p.ctl.IsWorking() == working && !p.ctl.redraw {
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
