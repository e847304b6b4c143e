package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// loadMeasure puts a phase of the page's opening on its performance
// timeline, as a "yarnplay:load <name>" measure from start (the page's
// clock, in ms) to now; benchmark 5 logs them (bench/playground_load_test.go).
// Natively it does nothing.
func loadMeasure(name string, start float64) {
	if !app.IsClient {
		return
	}
	perf := app.Window().Get("performance")
	if !perf.Truthy() {
		return
	}
	perf.Call("measure", "yarnplay:load "+name, map[string]any{"start": start, "end": perf.Call("now").Float()})
}

// pageNow is the page's clock (performance.now(), in ms); 0 natively.
func pageNow() float64 {
	if !app.IsClient {
		return 0
	}
	perf := app.Window().Get("performance")
	if !perf.Truthy() {
		return 0
	}
	return perf.Call("now").Float()
}
