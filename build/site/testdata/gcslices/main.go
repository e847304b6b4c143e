//go:build js && wasm

// Command gcslices is run under Node by TestRuntimeEditsLetJavaScriptRunWhileMarking,
// built with and without the runtime edits of build/site/gcslices.go. It
// holds about 100 MB of pointers, then:
//
//   - counts the turns a chain of JavaScript timeouts gets while a
//     goroutine waits for a whole collection (runtime.GC) and nothing else
//     runs: with the edits the collector marks in slices and JavaScript
//     runs in between; without them it marks in one go;
//   - has JavaScript call a Go function that waits for a collection, which
//     must return (the scheduler cannot go back to JavaScript before it
//     does, so the collector must not wait for JavaScript either).
//
// It prints "RESULT turns=<n> handler=<what the function returned>".
package main

import (
	"fmt"
	"runtime"
	"syscall/js"
)

type node struct {
	next *node
	pad  [6]*node
}

var keep []*node

func collect() {
	done := make(chan struct{})
	go func() {
		runtime.GC()
		close(done)
	}()
	<-done
}

func main() {
	for i := 0; i < 1_500_000; i++ {
		keep = append(keep, &node{next: &node{}})
	}
	js.Global().Call("eval", `globalThis.turns = 0; globalThis.counting = true;
(function tick() { if (!globalThis.counting) return; globalThis.turns++; setTimeout(tick, 0); })();`)
	collect()
	js.Global().Set("counting", false)
	turns := js.Global().Get("turns").Int()

	wait := js.FuncOf(func(js.Value, []js.Value) any {
		collect()
		return "returned"
	})
	defer wait.Release()
	got := js.Global().Call("eval", "(f) => f()").Invoke(wait).String()
	fmt.Printf("RESULT turns=%d handler=%s\n", turns, got)
	runtime.KeepAlive(keep)
}
