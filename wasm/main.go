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
	// Go's stock runtime marks the page's heap in one go, inside the task
	// that allocates (a render). The page holds no simulation (the worker
	// does), so its heap is small (tens of MB at 500 queues): it is
	// collected once it has grown tenfold, which keeps the marks out of
	// most renders, and at the latest at 512 MiB, which bounds what a big
	// cluster's frames make it hold. TestBrowserLinksAtTheLimits, 500
	// queues, on a loaded machine: drawn in 4 to 6 s with tasks of 3 to 5 s
	// at Go's default, 2.3 to 3.1 s with tasks of 1.3 to 1.6 s so.
	debug.SetGCPercent(1000)
	debug.SetMemoryLimit(512 << 20)
	goapp.RunWhenOnBrowser()
}
