// Command wasm is yarnplay's browser entry point, compiled to web/app.wasm
// with GOOS=js GOARCH=wasm by `go run ./build wasm`. In the page it
// registers the same routes as the pre-rendered site and hands the page to
// go-app; in the Web Worker the page starts (web/worker.js) it runs the
// simulation instead (package worker).
//
// Built natively it has nothing to do: it says how to build it and exits.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app"
	"yarnplay/wasm/worker"
)

func main() {
	if worker.InWorker() {
		// The second role: the simulation, in its Web Worker, which
		// paints the page's node canvas as the page would.
		worker.PaintNodes = app.PaintNodes
		worker.Serve()
		return
	}
	app.Routes()
	if goapp.IsServer {
		fmt.Fprintln(os.Stderr, "yarnplay/wasm runs in a browser only: build it with `go run ./build wasm` (or `make run` to build and serve the site)")
		os.Exit(2)
	}
	// The browser compiles WebAssembly functions on their first call, so
	// the collector's first cycle pauses for the compilation of its own
	// code (6 to 10 ms in Chromium): one now, on the small heap of the
	// start, keeps that out of the user's first actions.
	runtime.GC()
	// Go's stock runtime collects the page's heap in one run, inside the
	// task under way (a render). The page holds no simulation (the worker
	// does), so its heap is small, and the page collects it itself after
	// a jump and when the frames stop (app/pagegc.go): the runtime's own
	// collections come in a long burst of steps only, once the heap has
	// grown sixteenfold, and at the latest at 512 MiB, which bounds what a
	// big cluster's frames make it hold. A smaller growth had a burst of
	// ticks at a thousand queues meet a collection in its first thirty
	// ticks; Go's default had every render of a big cluster's opening
	// collect (the commits that set these say by how much).
	debug.SetGCPercent(1500)
	debug.SetMemoryLimit(512 << 20)
	goapp.RunWhenOnBrowser()
}
