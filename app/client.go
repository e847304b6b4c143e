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

// onUI runs fn on the UI goroutine and renders the page after it; before
// the page is mounted (a reply may come before OnMount) it waits for the
// mount.
func (p *Page) onUI(fn func()) {
	if !p.timers {
		p.early = append(p.early, fn)
		return
	}
	p.ui.Dispatch(func(app.Context) { fn() })
}

// runEarly runs what came before the mount.
func (p *Page) runEarly() {
	early := p.early
	p.early = nil
	for _, fn := range early {
		p.onUI(fn)
	}
}
