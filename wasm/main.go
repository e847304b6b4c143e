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

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"yarnplay/app"
	"yarnplay/wasm/worker"
)

func main() {
	if worker.InWorker() {
		// The second role: the simulation, in its Web Worker.
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
	goapp.RunWhenOnBrowser()
}
