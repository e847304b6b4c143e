// Command wasmharness runs benchmark 4's workload (benchmark 1 scaled to
// 5,000 nodes and 500 leaves) and prints its result as one line,
// "RESULT {json}". It is compiled with GOOS=js GOARCH=wasm and run under
// Node and in headless Chromium by the benchmarks of package bench; it
// runs natively too.
//
//	wasmharness [-record none|decisions|full] [-warm 60] [-ticks 20]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"

	"yarnplay/bench/workload"
	"yarnplay/core"
)

func main() {
	record := flag.String("record", "none", "recording level: none, decisions or full")
	warm := flag.Int("warm", 60, "warm-up ticks, untimed")
	ticks := flag.Int("ticks", 20, "measured ticks")
	flag.Parse()
	sp := workload.Wasm()
	switch *record {
	case "none":
		sp.Record = core.RecordNone
	case "decisions":
		sp.Record = core.RecordDecisions
	case "full":
		sp.Record = core.RecordFull
	default:
		fmt.Fprintf(os.Stderr, "wasmharness: unknown recording level %q\n", *record)
		os.Exit(2)
	}
	first := warmCollector()
	r, err := workload.Measure(sp, *warm, *ticks)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmharness:", err)
		os.Exit(1)
	}
	out := workload.HarnessRun{Result: r, FirstGCPauseNs: first, GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}
	b, _ := json.Marshal(out)
	fmt.Println("RESULT " + string(b))
}

// warmCollector runs a collection of the program's small starting heap and
// returns its stop-the-world pause. A browser compiles WebAssembly
// functions on their first call (V8's lazy compilation), so the
// collector's first cycle pays for compiling its own code: in headless
// Chromium, 6 to 10 ms of pause for a heap of 5 MB, whose later cycles of
// 50 MB pause for under 2 ms. The playground runs its first cycle as it
// starts (wasm/main.go); the harness runs its own here, reported apart, so
// that the pauses it measures are the collector's work.
func warmCollector() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.PauseNs[(m.NumGC+255)%256]
}
