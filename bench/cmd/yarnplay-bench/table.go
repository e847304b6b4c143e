package main

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// row is one line of the table: a figure, how it is computed from the
// results, and its target.
type row struct {
	num, what string
	value     func(r *Results) (float64, bool)
	unit      string
	target    string
	ok        func(v float64) bool // nil: no target
}

func metric(bench, unit string) func(r *Results) (float64, bool) {
	return func(r *Results) (float64, bool) {
		m, ok := r.Benchmarks[bench]
		if !ok {
			return 0, false
		}
		v, ok := m[unit]
		return v, ok
	}
}

// ratio is the largest of a/b over the pairs of benchmarks given.
func ratio(unit string, pairs ...[2]string) func(r *Results) (float64, bool) {
	return func(r *Results) (float64, bool) {
		worst, any := 0.0, false
		for _, p := range pairs {
			a, okA := metric(p[0], unit)(r)
			b, okB := metric(p[1], unit)(r)
			if okA && okB && b > 0 {
				worst, any = math.Max(worst, a/b), true
			}
		}
		return worst, any
	}
}

// spread is max/min of a metric over benchmarks.
func spread(unit string, benches ...string) func(r *Results) (float64, bool) {
	return func(r *Results) (float64, bool) {
		lo, hi, n := math.Inf(1), 0.0, 0
		for _, b := range benches {
			if v, ok := metric(b, unit)(r); ok && v > 0 {
				lo, hi, n = math.Min(lo, v), math.Max(hi, v), n+1
			}
		}
		return hi / lo, n >= 2
	}
}

func atLeast(x float64) func(float64) bool { return func(v float64) bool { return v >= x } }
func atMost(x float64) func(float64) bool  { return func(v float64) bool { return v <= x } }

var rows = []row{
	{"1", "allocations/s, recording off", metric("Allocation/record=none", "containers/s"), "/s", ">= 50,000", atLeast(50000)},
	{"1", "heartbeats/s, recording off", metric("Allocation/record=none", "heartbeats/s"), "/s", ">= 100,000", atLeast(100000)},
	{"1", "allocations/s, record decisions", metric("Allocation/record=decisions", "containers/s"), "/s", "", nil},
	{"1", "heartbeats/s, record decisions", metric("Allocation/record=decisions", "heartbeats/s"), "/s", "", nil},
	{"1", "allocations/s, record full (playground default)", metric("Allocation/record=full", "containers/s"), "/s", "", nil},
	{"1", "heartbeats/s, record full (playground default)", metric("Allocation/record=full", "heartbeats/s"), "/s", "", nil},
	{"2", "ns/heartbeat, 10 leaves", metric("Scaling/leaves=10", "ns/heartbeat"), "ns", "", nil},
	{"2", "ns/heartbeat, 100 leaves", metric("Scaling/leaves=100", "ns/heartbeat"), "ns", "", nil},
	{"2", "ns/heartbeat, 1,000 leaves", metric("Scaling/leaves=1000", "ns/heartbeat"), "ns", "", nil},
	{"2", "ns/heartbeat, 10,000 leaves", metric("Scaling/leaves=10000", "ns/heartbeat"), "ns", "", nil},
	{"2", "100x leaves: cost ratio (worst pair)", ratio("ns/heartbeat", [2]string{"Scaling/leaves=1000", "Scaling/leaves=10"}, [2]string{"Scaling/leaves=10000", "Scaling/leaves=100"}), "x", "<= 3", atMost(3)},
	{"2", "ns/heartbeat, 100 apps", metric("Scaling/apps=100", "ns/heartbeat"), "ns", "", nil},
	{"2", "ns/heartbeat, 1,000 apps", metric("Scaling/apps=1000", "ns/heartbeat"), "ns", "", nil},
	{"2", "ns/heartbeat, 10,000 apps", metric("Scaling/apps=10000", "ns/heartbeat"), "ns", "", nil},
	{"2", "ns/heartbeat, 100,000 apps", metric("Scaling/apps=100000", "ns/heartbeat"), "ns", "", nil},
	{"2", "1,000x apps: cost ratio", ratio("ns/heartbeat", [2]string{"Scaling/apps=100000", "Scaling/apps=100"}), "x", "<= 2", atMost(2)},
	{"2", "ns/heartbeat, 100 nodes", metric("Scaling/nodes=100", "ns/heartbeat"), "ns", "", nil},
	{"2", "ns/heartbeat, 1,000 nodes", metric("Scaling/nodes=1000", "ns/heartbeat"), "ns", "", nil},
	{"2", "ns/heartbeat, 10,000 nodes", metric("Scaling/nodes=10000", "ns/heartbeat"), "ns", "", nil},
	{"2", "ns/heartbeat, 50,000 nodes", metric("Scaling/nodes=50000", "ns/heartbeat"), "ns", "", nil},
	{"2", "nodes: max/min cost per heartbeat", spread("ns/heartbeat", "Scaling/nodes=100", "Scaling/nodes=1000", "Scaling/nodes=10000", "Scaling/nodes=50000"), "x", "<= 1.2", atMost(1.2)},
	{"3", "heartbeats/s allocating nothing, recording off", metric("NoAllocation/record=none", "heartbeats/s"), "/s", ">= 1,000,000", atLeast(1e6)},
	{"3", "heartbeats/s allocating nothing, record decisions", metric("NoAllocation/record=decisions", "heartbeats/s"), "/s", "", nil},
	{"3", "heartbeats/s allocating nothing, record full", metric("NoAllocation/record=full", "heartbeats/s"), "/s", "", nil},
	{"4", "ns/heartbeat native (5,000 nodes, 500 leaves)", metric("Wasm", "ns/heartbeat-native"), "ns", "", nil},
	{"4", "Node / native", metric("Wasm", "x-node"), "x", "", nil},
	{"4", "Chromium / native", metric("Wasm", "x-chromium"), "x", "<= 3", atMost(3)},
	{"4", "longest GC pause in Chromium", metric("Wasm", "ms-max-gc-pause-chromium"), "ms", "<= 8", atMost(8)},
	{"4", "longest GC pause under Node", metric("Wasm", "ms-max-gc-pause-node"), "ms", "", nil},
	{"4", "first GC's pause in Chromium (its code compiled on first call)", metric("Wasm", "ms-first-gc-pause-chromium"), "ms", "", nil},
	{"5", "playground (Chromium, benchmark 1's workload): scheduler CPU per tick p50", metric("Playground", "ms-tick-cpu-p50"), "ms", "", nil},
	{"5", "scheduler CPU per tick p95 (10,000 heartbeats)", metric("Playground", "ms-tick-cpu-p95"), "ms", "<= 50", atMost(50)},
	{"5", "store CPU per tick p50 (step, record, views)", metric("Playground", "ms-tick-store-p50"), "ms", "", nil},
	{"5", "store CPU per tick p95", metric("Playground", "ms-tick-store-p95"), "ms", "", nil},
	{"5", "longest task while ticking", metric("Playground", "ms-longest-task"), "ms", "<= 50", atMost(50)},
	{"5", "long tasks (over 50 ms) in 30 ticks", metric("Playground", "long-tasks"), "tasks", "", nil},
	{"5", "frame time p50 while ticking (queue tree of 1,111 queues)", metric("Playground", "ms-frame-p50"), "ms", "", nil},
	{"5", "frame time p95 while ticking (in whole vsyncs, as shown)", metric("Playground", "ms-frame-p95"), "ms", "<= 16.7", atMost(16.7)},
	{"5", "frames per second while ticking (frames per vsync x 60)", metric("Playground", "fps"), "fps", ">= 60", atLeast(60)},
	{"5", "frame time p95 by the page's clock (to 0.1 ms)", metric("Playground", "ms-frame-p95-clock"), "ms", "", nil},
	{"5", "frames per second by the page's clock", metric("Playground", "fps-clock"), "fps", "", nil},
	{"5", "late frames (a vsync missed before them) while ticking", metric("Playground", "late-frames"), "frames", "", nil},
	{"5", "frames while ticking", metric("Playground", "frames"), "frames", "", nil},
	{"5", "tick from key to frame on screen, p50", metric("Playground", "ms-tick-wall-p50"), "ms", "<= 100", atMost(100)},
	{"5", "load of the big scenario (navigation to its first frame)", metric("Playground", "ms-load"), "ms", "<= 2000", atMost(2000)},
	{"5", "the same load again, as its visitor comes back (caches filled)", metric("Playground", "ms-load-warm"), "ms", "", nil},
	{"5", "to the end of its 20,200 steps (End key)", metric("Playground", "ms-to-end"), "ms", "", nil},
	{"5", "a step back after the ticks, from the key to the frame", metric("Playground", "ms-back-first"), "ms", "", nil},
	{"5", "the next steps back (median of two)", metric("Playground", "ms-back-next"), "ms", "", nil},
	{"5", "ten steps back, each from the key to the frame, p95", metric("Playground", "ms-back-p95"), "ms", "<= 100", atMost(100)},
	{"5", "the history's bytes over one state's, in the worker after the steps back", metric("Playground", "x-history"), "x", "<= 2", atMost(2)},
	{"5", "one state in the worker (as memsize counts it)", metric("Playground", "MB-state"), "MB", "", nil},
	{"5", "the page's memory (Go's, in the page's thread)", metric("Playground", "MB-page"), "MB", "", nil},
	{"5n", "benchmark 5 natively: the history's bytes over one state's, after the ticks and ten steps back", metric("StepBack", "x-history"), "x", "<= 2", atMost(2)},
	{"5n", "the history's bytes over one state's after 100 ticks (the most a scenario may make there)", metric("StepBack", "x-history-long"), "x", "<= 2", atMost(2)},
	{"5n", "one state (the scheduler's, as memsize counts it)", metric("StepBack", "MB-state"), "MB", "", nil},
	{"5n", "ten steps back natively, each handled, written and read, p95", metric("StepBack", "ms-back-p95"), "ms", "", nil},
	{"5n", "ten steps back: the most steps one replayed (ticks, at the end)", metric("StepBack", "steps-replayed-max"), "steps", "", nil},
	{"5n", "ten steps back: the worker's handling, p95", metric("StepBack", "ms-back-handle-p95"), "ms", "", nil},
	{"5n", "ten steps back: writing the reply (the frame's delta), p95", metric("StepBack", "ms-back-write-p95"), "ms", "", nil},
	{"5n", "ten steps back: reading the reply, p95", metric("StepBack", "ms-back-read-p95"), "ms", "", nil},
	{"6", "app.wasm gzipped, as served (libdeflate-gzip -12)", metric("Size", "MB-gzip"), "MB", "<= 2.3", atMost(2.3)},
	{"6", "app.wasm gzipped by compress/gzip's best level (the budget's measure)", metric("Size", "MB-gzip9"), "MB", "", nil},
	{"6", "app.wasm brotli", metric("Size", "MB-brotli"), "MB", "", nil},
	{"6", "navigation to first queue tree (pre-rendered), cold", metric("Size", "ms-first-tree-cold"), "ms", "<= 800", atMost(800)},
	{"6", "navigation to first queue tree (pre-rendered), warm", metric("Size", "ms-first-tree-warm"), "ms", "", nil},
	{"6", "navigation to interactive (wasm mounted, first frame), cold", metric("Size", "ms-interactive-cold"), "ms", "", nil},
	{"6", "navigation to interactive (wasm mounted, first frame), warm", metric("Size", "ms-interactive-warm"), "ms", "", nil},
	{"7", "default lesson: a step from the → key to its frame, p50", metric("Lesson", "ms-lesson-step-p50"), "ms", "", nil},
	{"7", "default lesson: a step from the → key to its frame, worst", metric("Lesson", "ms-lesson-step-max"), "ms", "<= 33.4", atMost(33.4)},
	{"mem", "bytes per node", metric("Memory", "B/node"), "B", "", nil},
	{"mem", "bytes per app", metric("Memory", "B/app"), "B", "", nil},
	{"mem", "bytes per container", metric("Memory", "B/container"), "B", "", nil},
	{"mem", "objects on the heap (what a collection marks)", metric("Memory", "objects"), "objects", "", nil},
	{"mem", "a full collection (shortest of five)", metric("Memory", "ms-full-gc"), "ms", "", nil},
	{"mem", "snapshot (Clone) at benchmark 1's scale", metric("Memory", "ms-snapshot"), "ms", "", nil},
	{"mem", "snapshot heap", metric("Memory", "MB-snapshot"), "MB", "", nil},
	{"mem", "next snapshot, one tick later", metric("Memory", "ms-next-snapshot"), "ms", "", nil},
	{"mem", "next snapshot heap", metric("Memory", "MB-next-snapshot"), "MB", "", nil},
}

func format(v float64, unit string) string {
	var s string
	switch {
	case unit == "fps":
		// One decimal: 59.6 fps misses a target of 60, and must not
		// print as 60.
		s = fmt.Sprintf("%.1f", v)
	case unit == "x" || unit == "MB" || (unit == "ms" && v < 100):
		s = fmt.Sprintf("%.2f", v)
	default:
		s = commas(int64(math.Round(v)))
	}
	if unit == "/s" {
		return s + "/s"
	}
	return s + " " + unit
}

func commas(n int64) string {
	neg := n < 0
	if neg {
		n = -n
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

// printTable writes the figures as a Markdown table, with the earlier
// results' beside them when given.
func printTable(w io.Writer, r, before *Results) {
	fmt.Fprintf(w, "machine: %s; %s\n\n", r.Machine, r.Go)
	head := "| # | figure | value | target | met |"
	sep := "|---|---|---:|---|---|"
	if before != nil {
		head = "| # | figure | before | after | target | met |"
		sep = "|---|---|---:|---:|---|---|"
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, sep)
	for _, x := range rows {
		cells := []string{x.num, x.what}
		val := func(res *Results) string {
			if x.value == nil {
				return "skipped"
			}
			v, ok := x.value(res)
			if !ok {
				return "n/a"
			}
			return format(v, x.unit)
		}
		if before != nil {
			cells = append(cells, val(before))
		}
		cells = append(cells, val(r), x.target)
		met := ""
		if x.ok != nil && x.value != nil {
			if v, ok := x.value(r); ok {
				met = "no"
				if x.ok(v) {
					met = "yes"
				}
			}
		}
		cells = append(cells, met)
		fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
	}
}
