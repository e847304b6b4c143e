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
//     does, so the collector must not wait for JavaScript either);
//   - watches, from a goroutine that sleeps 1 ms at a time, whether the
//     collector says it is marking (runtime.jsMarking, which the edits add
//     and the build tag yarnplay_gcslices links) while another goroutine
//     waits for a collection, and whether it says so after: the page's
//     wait for a mark to end (app/controller.go) relies on both;
//   - counts the turns the timeouts get while one allocation of 64 MB,
//     made just after a mark began, pays its assist: with the edits it
//     marks a slice and waits for the mark workers' slices, between which
//     JavaScript runs; without them it marks in one go. Then a function
//     JavaScript called makes the same allocation: it must return, as
//     the first such function must ("handler" is "returned" if both did).
//
// It prints "RESULT turns=<n> handler=<what the function returned>
// marking=<seen during>,<seen after> assist=<turns>".
package main

import (
	"fmt"
	"runtime"
	"syscall/js"
	"time"
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

	done := make(chan struct{})
	go func() {
		runtime.GC()
		close(done)
	}()
	during := false
	for waiting := true; waiting; {
		select {
		case <-done:
			waiting = false
		default:
			during = during || marking()
			time.Sleep(time.Millisecond)
		}
	}
	after := marking()

	js.Global().Set("turns", 0)
	js.Global().Set("counting", true)
	js.Global().Call("eval", `(function tick() { if (!globalThis.counting) return; globalThis.turns++; setTimeout(tick, 0); })();`)
	time.Sleep(time.Millisecond) // the chain of timeouts starts
	done = make(chan struct{})
	go func() {
		runtime.GC()
		close(done)
	}()
	runtime.Gosched() // the collection starts, and waits for its mark
	// The collection may not have begun its mark when Gosched returns (one
	// run of the test in CI measured no turns during the assist): the
	// edited runtime says when it has.
	for i := 0; markingKnown && !marking() && i < 1000; i++ {
		runtime.Gosched()
	}
	from := js.Global().Get("turns").Int()
	big := make([]*node, 8<<20)
	assist := js.Global().Get("turns").Int() - from
	js.Global().Set("counting", false)
	<-done
	runtime.KeepAlive(big)

	// The same from a function JavaScript called, which cannot let
	// JavaScript run before it returns: its assist must still end.
	alloc := js.FuncOf(func(js.Value, []js.Value) any {
		go runtime.GC()
		runtime.Gosched()
		big = make([]*node, 8<<20)
		return "returned"
	})
	defer alloc.Release()
	if got == "returned" {
		got = js.Global().Call("eval", "(f) => f()").Invoke(alloc).String()
	}
	fmt.Printf("RESULT turns=%d handler=%s marking=%v,%v assist=%d\n", turns, got, during, after, assist)
	runtime.KeepAlive(keep)
}
