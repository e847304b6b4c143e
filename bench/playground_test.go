package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/bench/workload"
	"yarnplay/build/site"
	"yarnplay/protocol"
	"yarnplay/scenarios"
	"yarnplay/wasm/bridge"
)

// Benchmark 5's warm-up and measured ticks.
const playgroundWarm, playgroundMeasured = 10, 30

// playgroundTicks is how many ticks the playground benchmark's scenario
// offers work for: its warm-up and measured ticks, with room to spare.
const playgroundTicks = 50

// playgroundStore returns benchmark 5's scenario and a store that opened
// it, standing on its first step.
func playgroundStore(tb testing.TB) (*store.Store, *scenarios.Scenario) {
	tb.Helper()
	sc := workload.Scenario(workload.Allocation(), playgroundTicks)
	s := store.New()
	require.NoError(tb, s.Load(sc, ""))
	return s, sc
}

// playgroundProbe runs in the page before its own scripts: it keeps the
// long tasks (PerformanceObserver "longtask") and, while rec is set, the
// time between animation frames.
const playgroundProbe = `(() => {
  const p = window.__bench = {tasks: [], frames: [], rec: false};
  new PerformanceObserver(l => { for (const e of l.getEntries()) p.tasks.push([e.startTime, e.duration]); })
    .observe({type: 'longtask', buffered: true});
  let last = 0;
  const loop = t => { if (p.rec && last) p.frames.push(t - last); last = t; requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
  // The DOM's changes while rec is set, by the nearest element with an id
  // (or the panel's class) and kind (PLAYGROUND_MUTATIONS).
  p.muts = {};
  new MutationObserver(rs => {
    if (!p.rec) return;
    for (const r of rs) {
      const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      const at = el && el.closest('[id]');
      const k = (at ? '#' + at.id : '') + ' ' + (el ? el.localName + '.' + (el.getAttribute('class') || '').split(' ')[0] : '?') +
        ' ' + r.type + (r.attributeName ? ':' + r.attributeName : '');
      p.muts[k] = (p.muts[k] || 0) + 1;
    }
  }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})()`

// atStep is a page expression that is performance.now() once the step
// counter shows step `step` of `steps` on the live page, else false.
func atStep(step, steps int) string {
	return fmt.Sprintf(`(() => {
  const c = document.querySelector('.playground[data-app="live"] #tl-counter');
  return c && c.textContent.startsWith('step %d of %d ') ? performance.now() : false;
})()`, step, steps)
}

// pageFigures are what the page measured over the measured ticks.
type pageFigures struct {
	// Actions are the playground's "yarnplay:action" measures (controller.go):
	// start and wall duration, and the detail's CPU time and kind of step.
	Actions []struct {
		Start, Wall float64
		CPU         float64 `json:"cpu"`
		Play        float64 `json:"play"`
		Longest     float64 `json:"longest"`
		Slices      int     `json:"slices"`
		MarkWaits   int     `json:"markWaits"`
		Kind        string  `json:"kind"`
		Op          string  `json:"op"`
		PageMB      float64 `json:"pageMB"`
		AllocMB     float64 `json:"allocMB"`
		GCs         float64 `json:"gcs"`
	}
	Tasks  [][2]float64
	Frames []float64
}

const collectFigures = `(() => {
  const b = window.__bench;
  return {
    actions: performance.getEntriesByName('yarnplay:action').filter(e => e.startTime >= b.from)
      .map(e => ({start: e.startTime, wall: e.duration, ...e.detail})),
    tasks: b.tasks.filter(t => t[0] >= b.from),
    frames: b.frames,
  };
})()`

// traceWasmEnv is the environment variable that, set to anything, adds to
// the traces the benchmarks write (startTrace) the WebAssembly compiler's
// events, each thread's: a function compiled on its first call
// (wasm.CompileLazy, with its index in app.wasm), the optimising tier's
// jobs (V8.WasmOptimization), and the CPU profiler's samples on the
// trace's clock (ProfileChunk). The samples slow the page: for finding
// where a step's time goes, not for its figures.
const traceWasmEnv = "TRACE_WASM"

// traceWasmCategories are the categories traceWasmEnv adds.
var traceWasmCategories = []string{"v8.wasm", "disabled-by-default-v8.wasm.turbofan", "disabled-by-default-v8.cpu_profiler"}

// startTrace starts a Chromium trace of the page (the DevTools timeline's
// categories, and traceWasmCategories when traceWasmEnv is set); the
// function it returns stops it and returns the trace's events as a JSON
// array (Chromium's trace format).
func startTrace(b *testing.B, tab context.Context) func() []byte {
	b.Helper()
	categories := []string{"devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "blink.user_timing"}
	if os.Getenv(traceWasmEnv) != "" {
		categories = append(categories, traceWasmCategories...)
	}
	var events []json.RawMessage
	done := make(chan struct{})
	require.NoError(b, chromedp.Listen(tab, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			for _, v := range e.Value {
				events = append(events, json.RawMessage(v))
			}
		case *tracing.EventTracingComplete:
			close(done)
		}
	}))
	_, err := chromedp.Call(tab, tracing.Start, tracing.StartParams{TraceConfig: &tracing.TraceConfig{
		IncludedCategories: categories,
	}})
	require.NoError(b, err)
	return func() []byte {
		_, err := chromedp.Call(tab, tracing.End, cdp.Empty{})
		require.NoError(b, err)
		<-done
		data, err := json.Marshal(events)
		require.NoError(b, err)
		return data
	}
}

// rounded rounds each of xs to a tenth, for the log.
func rounded(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Round(x*10) / 10
	}
	return out
}

// vsyncMs is the display's refresh period in headless Chromium (60 Hz).
const vsyncMs = 1000.0 / 60

// frameVsyncs is how many vsyncs a frame interval (requestAnimationFrame's
// timestamps) spans, at least one. The page's clock is coarsened to 0.1 ms,
// so an interval of exactly one vsync reads 16.6, 16.7 or 16.8 ms; since a
// frame is shown only at a vsync, the interval rounded to whole vsyncs is
// the frame's time on screen. An interval over one and a half vsyncs (25
// ms) counts two or more: the browser missed a vsync before that frame.
func frameVsyncs(interval float64) int {
	return max(1, int(math.Round(interval/vsyncMs)))
}

func TestFrameVsyncs(t *testing.T) {
	for _, c := range []struct {
		interval float64
		want     int
	}{
		{16.6, 1}, {16.7, 1}, {16.8, 1}, // one vsync, as the coarsened clock reads it
		{8, 1},    // never less than one
		{24.9, 1}, // under one and a half vsyncs
		{25.1, 2}, // a vsync missed
		{33.3, 2}, {50.1, 3},
	} {
		require.Equal(t, c.want, frameVsyncs(c.interval), "interval %v ms", c.interval)
	}
}

// quantile is the q-quantile of xs (nearest rank); 0 for none.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(len(s)-1, int(math.Ceil(q*float64(len(s))))-1)]
}

// servedSite builds the site as `go run ./build run` does (app.wasm and
// the static pages, uncompressed) and serves it; the caller closes it.
func servedSite(b *testing.B) *httptest.Server {
	b.Helper()
	dist := b.TempDir()
	ctx := context.Background()
	root, err := site.ModuleRoot(ctx)
	require.NoError(b, err)
	var out bytes.Buffer
	require.NoError(b, site.BuildWasm(ctx, root, dist, &out), "building app.wasm:\n%s", out.String())
	require.NoError(b, site.GenerateStatic(root, dist))
	return httptest.NewServer(site.Handler(dist))
}

// BenchmarkPlayground is benchmark 5: the real playground, built and
// served as `go run ./build run` serves it, in headless Chromium, with
// benchmark 1's workload (10,000 nodes, 1,000 leaves, 20,000 apps from 200
// users; workload.Scenario) loaded the way a returning visitor's work
// is: from the saved work in localStorage. The benchmark opens the page
// (ms-load: navigation to the first frame of the scenario on the live
// page), goes to the end of the scenario's steps with the End key
// (ms-to-end), ticks playgroundWarm times with the T key, then measures
// playgroundMeasured more ticks, each pressed once the last is on
// screen:
//
//   - ms-tick-cpu-p50/p95/max: the scheduler's CPU time in each tick (the
//     controller's measure of the step played; WebAssembly runs on one
//     thread, so the time inside the calls is CPU time), and
//     ms-tick-store-p50/p95 the whole action's in the store (the step, its
//     record and the frame's views);
//   - ms-tick-wall-p50: from the key to the frame on screen;
//   - ms-longest-task and long-tasks: the browser's long tasks (over 50
//     ms) while ticking: any work the page did in one go, the rendering of
//     the frames included;
//   - ms-frame-p50/p95 and fps: the time between animation frames while
//     ticking, the queue tree's 1,111 rows updating with each tick, each
//     counted in whole vsyncs (frameVsyncs), as the frames are shown;
//     ms-frame-p95-clock and fps-clock the same from the page's clock as
//     it reads (to 0.1 ms), whose jitter moves a p95 of frames that all
//     took one vsync between 16.7 and 16.8 ms and fps either side of 60;
//   - MB-page-alloc-per-tick and page-gcs: what the page's Go allocated
//     per measured action and how many times its collector ran over them
//     (Go's stock runtime marks the page's heap in one task);
//   - ms-back-first, ms-back-next and ms-back-p95: then ten steps back with
//     the ← key, each from the key to the frame on screen: the first, the
//     median of the next two, and the 95th percentile of the ten;
//   - x-history: then the bytes the simulation holds to travel in time
//     over one state's (OpMemory, asked inside its Web Worker: askWorker),
//     and MB-state, one state's;
//   - ms-load-warm: last, the saved work opened again from navigation to
//     its first frame, as by its visitor coming back (the browser's caches
//     and go-app's service worker filled; not with PLAYGROUND_PROFILE or
//     PLAYGROUND_TRACE).
//
// With PLAYGROUND_PROFILE=file.cpuprofile it also writes CPU profiles of
// the page and of the worker (file.worker.cpuprofile) over the measured
// ticks and steps back (app.wasm then keeps its name section:
// site.KeepNamesEnv), and with PLAYGROUND_TRACE=file.json a
// trace of the measured ticks, both in Chromium's DevTools formats, and
// with PLAYGROUND_BACK_TRACE=file.json a trace of the ten steps back.
// PLAYGROUND_LOAD_TRACE=file.json traces the opening; PLAYGROUND_LOAD_ONLY=1
// stops the benchmark after it (ms-load), logging the longest task in the
// afterLoad that follow. With
// PLAYGROUND_LOAD_PROFILE=file.cpuprofile it writes CPU profiles of the
// opening instead (ms-load): the page's from the navigation, and the
// simulation's Web Worker's from its start (file.worker.cpuprofile); it
// always logs the "yarnplay:load" measures of the page and the worker
// (loadWatch), on the page's clock.
func BenchmarkPlayground(b *testing.B) {
	b.StopTimer()
	if os.Getenv("PLAYGROUND_PROFILE") != "" || os.Getenv("PLAYGROUND_LOAD_PROFILE") != "" {
		b.Setenv(site.KeepNamesEnv, "1") // the profile names Go's functions
	}
	ctx := context.Background()
	srv := servedSite(b)
	defer srv.Close()

	s, sc := playgroundStore(b)
	saved := bridge.NewMemoryStorage()
	require.NoError(b, s.Save(saved))
	work, _, _ := saved.Get(store.SaveKey)
	steps := len(sc.Steps)

	ctx, cancel := context.WithTimeout(ctx, 15*time.Minute)
	defer cancel()
	tab, closeTab := probedChromium(b, ctx, 1280, 900, playgroundProbe)
	defer closeTab()
	// The visitor's saved work (keepWork, on a page of the site that is
	// not the playground), then the visit.
	keepWork := func() {
		require.NoError(b, chromedp.Do(tab, chromedp.Navigate(srv.URL+"/web/app.css")))
		key, _ := json.Marshal(store.SaveKey)
		value, _ := json.Marshal(work)
		_, err := chromedp.Run(tab, chromedp.Evaluate[any](fmt.Sprintf("localStorage.setItem(%s, %s)", key, value)))
		require.NoError(b, err)
	}
	keepWork()
	load := watchLoad(b, tab)
	load.keep = os.Getenv("PLAYGROUND_PROFILE") != ""
	stopLoadTrace := func() {}
	if path := os.Getenv("PLAYGROUND_LOAD_TRACE"); path != "" {
		stop := startTrace(b, tab)
		stopLoadTrace = func() { require.NoError(b, os.WriteFile(path, stop(), 0o644)) }
	}
	require.NoError(b, chromedp.Do(tab, chromedp.Navigate(srv.URL+"/")))
	// wait waits for the page to show step `step` of `of`.
	wait := func(step, of int) float64 {
		b.Helper()
		at, err := chromedp.Run(tab, chromedp.Poll[float64](atStep(step, of), chromedp.WithPollingTimeout(5*time.Minute)))
		require.NoError(b, err, "the page did not show step %d of %d", step, of)
		return at
	}
	loaded := wait(0, steps)
	b.ReportMetric(math.Round(loaded), "ms-load")
	b.Logf("loaded in %.0f ms", loaded)
	stopLoadTrace()
	if os.Getenv("PLAYGROUND_LOAD_ONLY") != "" {
		// What the page still does once the work shows (its later
		// stages), in which a key pressed at once would wait; the
		// measures then include what the worker does meanwhile (the
		// later steps of saved work opened in two parts, "worker
		// rest").
		time.Sleep(afterLoad)
		load.done()
		tasks, err := chromedp.Run(tab, chromedp.Evaluate[[][2]float64]("window.__bench.tasks"))
		require.NoError(b, err)
		longest := 0.0
		for _, t := range tasks {
			if t[0] > loaded {
				longest = max(longest, t[1])
			}
		}
		b.Logf("the longest task in the %v after: %.0f ms", afterLoad, longest)
		return
	}
	load.done()

	now := func() float64 {
		t, err := chromedp.Run(tab, chromedp.Evaluate[float64]("performance.now()"))
		require.NoError(b, err)
		return t
	}
	press := func(k string) { require.NoError(b, chromedp.Do(tab, chromedp.KeyEvent(k))) }
	t0 := now()
	press(kb.End)
	toEnd := wait(steps, steps) - t0
	b.ReportMetric(math.Round(toEnd), "ms-to-end")
	b.Logf("at the end in %.0f ms", toEnd)

	for i := 1; i <= playgroundWarm; i++ {
		press("t")
		wait(steps+i, steps+i)
	}
	if path := os.Getenv("PLAYGROUND_PROFILE"); path != "" {
		startProfile(b, tab)
		defer load.profileWorker(strings.TrimSuffix(path, ".cpuprofile") + ".worker.cpuprofile")()
		defer stopProfile(b, tab, path)
	}
	stopTrace := func() {}
	if path := os.Getenv("PLAYGROUND_TRACE"); path != "" {
		stop := startTrace(b, tab)
		stopTrace = func() { require.NoError(b, os.WriteFile(path, stop(), 0o644)) }
	}
	_, err := chromedp.Run(tab, chromedp.Evaluate[any]("(b => { b.from = performance.now(); b.frames = []; b.rec = true; })(window.__bench)"))
	require.NoError(b, err)
	var walls []float64
	for i := playgroundWarm + 1; i <= playgroundWarm+playgroundMeasured; i++ {
		t0 := now()
		press("t")
		walls = append(walls, wait(steps+i, steps+i)-t0)
	}
	_, err = chromedp.Run(tab, chromedp.Evaluate[any]("window.__bench.rec = false"))
	require.NoError(b, err)
	stopTrace()
	fig, err := chromedp.Run(tab, chromedp.Evaluate[pageFigures](collectFigures))
	require.NoError(b, err)
	if os.Getenv("PLAYGROUND_MUTATIONS") != "" {
		muts, err := chromedp.Run(tab, chromedp.Evaluate[map[string]int]("window.__bench.muts"))
		require.NoError(b, err)
		keys := slices.Sorted(maps.Keys(muts))
		slices.SortStableFunc(keys, func(a, b string) int { return muts[b] - muts[a] })
		for _, k := range keys {
			b.Logf("mutations over %d ticks: %6d %s", playgroundMeasured, muts[k], k)
		}
	}

	var cpu, whole []float64
	var waits []int
	pageMB := 0.0
	for _, a := range fig.Actions {
		pageMB = max(pageMB, a.PageMB)
		if a.Kind == "tick" {
			// The simulation runs in its Web Worker: its time on the
			// action (the step, its record and the frame's views) is the
			// detail's cpu; the scheduler's part alone is not measured
			// apart any more, and play is the same figure.
			cpu, whole = append(cpu, a.CPU), append(whole, a.CPU)
			waits = append(waits, a.MarkWaits)
		}
	}
	require.GreaterOrEqual(b, len(cpu), playgroundMeasured, "every measured tick is an action of the controller")
	cpu, whole = cpu[len(cpu)-playgroundMeasured:], whole[len(whole)-playgroundMeasured:]
	longest := 0.0
	for _, t := range fig.Tasks {
		longest = max(longest, t[1])
	}
	// Frames are presented at vsyncs, so each interval is counted in
	// whole vsyncs (frameVsyncs): a frame is late when it took more than
	// one, that is when the browser missed a vsync before it.
	var clock float64
	var shown []float64
	late, vsyncs := 0, 0
	for _, f := range fig.Frames {
		clock += f
		n := frameVsyncs(f)
		vsyncs += n
		shown = append(shown, float64(n)*vsyncMs)
		if n > 1 {
			late++
		}
	}
	b.ReportMetric(quantile(cpu, 0.5), "ms-tick-cpu-p50")
	b.ReportMetric(quantile(cpu, 0.95), "ms-tick-cpu-p95")
	b.ReportMetric(slices.Max(cpu), "ms-tick-cpu-max")
	b.ReportMetric(quantile(whole, 0.5), "ms-tick-store-p50")
	b.ReportMetric(quantile(whole, 0.95), "ms-tick-store-p95")
	b.ReportMetric(quantile(walls, 0.5), "ms-tick-wall-p50")
	b.ReportMetric(longest, "ms-longest-task")
	b.ReportMetric(math.Round(pageMB), "MB-page")
	b.ReportMetric(float64(len(fig.Tasks)), "long-tasks")
	b.ReportMetric(quantile(shown, 0.5), "ms-frame-p50")
	b.ReportMetric(quantile(shown, 0.95), "ms-frame-p95")
	b.ReportMetric(quantile(fig.Frames, 0.95), "ms-frame-p95-clock")
	b.ReportMetric(float64(late), "late-frames")
	b.ReportMetric(float64(len(fig.Frames)), "frames")
	if vsyncs > 0 {
		b.ReportMetric(60*float64(len(fig.Frames))/float64(vsyncs), "fps")
		b.ReportMetric(float64(len(fig.Frames))*1000/clock, "fps-clock")
	}
	if n := len(fig.Actions); n > 1 {
		// What the page's Go allocated and how often it collected over
		// the measured actions (app.pageAllocated, pageCollections).
		first, last := fig.Actions[0], fig.Actions[n-1]
		alloc := (last.AllocMB - first.AllocMB) / float64(n-1)
		b.ReportMetric(math.Round(alloc*10)/10, "MB-page-alloc-per-tick")
		b.ReportMetric(last.GCs-first.GCs, "page-gcs")
	}
	b.Logf("%d ticks measured; scheduler CPU %v ms; store CPU %v ms; turns waited for a mark %v; long tasks %v", len(cpu), rounded(cpu), rounded(whole), waits, fig.Tasks)

	// Back a step, three times, from the key to the frame on screen: the
	// first replays from the nearest checkpoint, the next from the one it
	// left near (see store.nearMark).
	last := steps + playgroundWarm + playgroundMeasured
	var backs []float64
	stopBackTrace := func() {}
	if path := os.Getenv("PLAYGROUND_BACK_TRACE"); path != "" {
		stop := startTrace(b, tab)
		stopBackTrace = func() { require.NoError(b, os.WriteFile(path, stop(), 0o644)) }
	}
	for i := 1; i <= playgroundBacks; i++ {
		t0 := now()
		press(kb.ArrowLeft)
		backs = append(backs, wait(last-i, last)-t0)
	}
	stopBackTrace()
	b.ReportMetric(backs[0], "ms-back-first")
	b.ReportMetric(quantile(backs[1:3], 0.5), "ms-back-next")
	b.ReportMetric(quantile(backs, 0.95), "ms-back-p95")
	b.Logf("steps back: %v ms", rounded(backs))
	// Each step back's reply, from the key's command to the reply read
	// (wall: the worker's part, the crossing and the reading), and the
	// worker's part alone (cpu); the rest of the key to the frame is the
	// page's rendering.
	fig, err = chromedp.Run(tab, chromedp.Evaluate[pageFigures](collectFigures))
	require.NoError(b, err)
	var replies, worker []float64
	for _, a := range fig.Actions {
		if a.Op == string(protocol.OpBack) {
			replies, worker = append(replies, a.Wall), append(worker, a.CPU)
		}
	}
	b.Logf("steps back, to the reply read: %v ms; the worker's part: %v ms", rounded(replies), rounded(worker))

	// What the simulation holds to travel in time, against one state.
	m, err := protocol.MemoryOf(askWorker(b, tab, protocol.Command{Op: protocol.OpMemory}))
	require.NoError(b, err)
	b.ReportMetric(float64(m.History)/float64(m.State), "x-history")
	b.ReportMetric(float64(m.State)/1e6, "MB-state")
	b.Logf("one state %.1f MB, the history %.1f MB (%d frames kept, %.1f MB of them)",
		float64(m.State)/1e6, float64(m.History)/1e6, m.Frames, float64(m.FrameBytes)/1e6)

	// The same saved work opened again, as its visitor comes back: the
	// browser's caches (app.wasm compiled among them) and go-app's service
	// worker are filled by the visit above. Not while profiling, whose
	// profile of the page would take it in.
	if os.Getenv("PLAYGROUND_PROFILE") == "" && os.Getenv("PLAYGROUND_TRACE") == "" {
		keepWork()
		require.NoError(b, chromedp.Do(tab, chromedp.Navigate(srv.URL+"/")))
		again := wait(0, steps)
		b.ReportMetric(math.Round(again), "ms-load-warm")
		b.Logf("loaded again, warm, in %.0f ms", again)
	}
}

// afterLoad is how long benchmark 5 with PLAYGROUND_LOAD_ONLY watches the
// page's tasks once the opened work shows.
const afterLoad = 3 * time.Second

// playgroundBacks is how many steps back benchmark 5 times after its ticks.
const playgroundBacks = 10
