package bench

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// loadWatch follows the opening of the playground (ms-load) in the page
// and in the simulation's Web Worker: it attaches to the worker as soon as
// the page starts it, and, with PLAYGROUND_LOAD_PROFILE=file.cpuprofile,
// profiles the page from the navigation and the worker from its start
// (file.worker.cpuprofile) until the first frame is on screen.
type loadWatch struct {
	b       *testing.B
	tab     context.Context
	profile string

	mu     sync.Mutex
	worker context.Context // the worker's target, once attached
	cancel context.CancelFunc
	ready  chan struct{}
	keep   bool // done leaves the worker attached (profileWorker)
}

// watchLoad starts watching, before the navigation to the page.
func watchLoad(b *testing.B, tab context.Context) *loadWatch {
	b.Helper()
	w := &loadWatch{b: b, tab: tab, profile: os.Getenv("PLAYGROUND_LOAD_PROFILE"), ready: make(chan struct{})}
	if w.profile != "" {
		_, err := chromedp.Call(tab, profiler.Enable, cdp.Empty{})
		require.NoError(b, err)
		_, err = chromedp.Call(tab, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 200})
		require.NoError(b, err)
		_, err = chromedp.Call(tab, profiler.Start, cdp.Empty{})
		require.NoError(b, err)
	}
	var once sync.Once
	require.NoError(b, chromedp.Listen(tab, func(ev any) {
		e, ok := ev.(*target.EventAttachedToTarget)
		if !ok || e.TargetInfo.Type != "worker" {
			return
		}
		once.Do(func() {
			id := e.TargetInfo.TargetID
			// Attaching runs commands: not on the goroutine that reads
			// the browser's messages.
			go w.attach(id)
		})
	}))
	return w
}

// attach attaches to the worker and starts its profile.
func (w *loadWatch) attach(id target.ID) {
	defer close(w.ready)
	ctx, cancel := chromedp.NewContext(w.tab, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel())
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		if w.profile == "" {
			return nil
		}
		if _, err := chromedp.Call(ctx, profiler.Enable, cdp.Empty{}); err != nil {
			return err
		}
		if _, err := chromedp.Call(ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 200}); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, profiler.Start, cdp.Empty{})
		return err
	})); err != nil {
		w.b.Logf("attaching to the worker: %v", err)
		cancel()
		return
	}
	w.mu.Lock()
	w.worker, w.cancel = ctx, cancel
	w.mu.Unlock()
}

// loadMeasure is one of the "yarnplay:load …" measures of the page and
// the worker (web/worker.js, wasm/worker, app/page_load.go), on the page's
// clock.
type loadMeasure struct {
	Name  string  `json:"name"`
	Start float64 `json:"start"`
	Dur   float64 `json:"dur"`
}

// measuresJS lists the measures on the clock of the page whose
// performance.timeOrigin is origin.
const measuresJS = `(origin => performance.getEntriesByType('measure')
  .filter(e => e.name.startsWith('yarnplay:load'))
  .map(e => ({name: e.name, start: e.startTime + performance.timeOrigin - origin, dur: e.duration})))`

// done stops the profiles (writing them), and logs the measures of the
// page and the worker, on the page's clock.
func (w *loadWatch) done() {
	b := w.b
	b.Helper()
	select {
	case <-w.ready:
	case <-time.After(10 * time.Second):
		b.Logf("the worker was not attached")
	}
	origin, err := chromedp.Run(w.tab, chromedp.Evaluate[float64]("performance.timeOrigin"))
	require.NoError(b, err)
	if w.profile != "" {
		stopProfile(b, w.tab, w.profile)
	}
	js := "(" + measuresJS + ")(" + jsonNumber(origin) + ")"
	var all []loadMeasure
	page, err := chromedp.Run(w.tab, chromedp.Evaluate[[]loadMeasure](js))
	require.NoError(b, err)
	all = append(all, page...)
	w.mu.Lock()
	worker := w.worker
	w.mu.Unlock()
	if worker != nil {
		if w.profile != "" {
			stopProfile(b, worker, strings.TrimSuffix(w.profile, ".cpuprofile")+".worker.cpuprofile")
		}
		ms, err := chromedp.Run(worker, chromedp.Evaluate[[]loadMeasure](js))
		if err != nil {
			b.Logf("the worker's measures: %v", err)
		}
		all = append(all, ms...)
		if !w.keep {
			w.cancel()
		}
	}
	for _, m := range all {
		b.Logf("  %8.0f ms %8.0f ms  %s", m.Start, m.Dur, m.Name)
	}
	counts, err := chromedp.Run(w.tab, chromedp.Evaluate[[][2]any](panelElements))
	require.NoError(b, err)
	b.Logf("elements on the page at its first frame, by panel: %v", counts)
}

// panelElements counts the elements of each of the playground's panels.
const panelElements = `(() => {
  const out = [['page', document.querySelectorAll('*').length]];
  for (const el of document.querySelectorAll('.pg > *, .pg-layout > * > *, .pg-editors > *')) {
    const n = el.querySelectorAll('*').length;
    if (n >= 200) out.push([el.id || el.className.split(' ')[0] || el.tagName, n]);
  }
  return out;
})()`

func jsonNumber(x float64) string {
	data, _ := json.Marshal(x)
	return string(data)
}

// profileWorker starts a CPU profile of the simulation's Web Worker, which
// the returned function stops and writes to path. The watch must have been
// kept (keep) through done.
func (w *loadWatch) profileWorker(path string) (stop func()) {
	b := w.b
	b.Helper()
	w.mu.Lock()
	ctx := w.worker
	w.mu.Unlock()
	if ctx == nil {
		b.Logf("the worker is not attached: no profile of it")
		return func() {}
	}
	startProfile(b, ctx)
	return func() {
		stopProfile(b, ctx, path)
		w.cancel()
	}
}

// startProfile starts a CPU profile of the target ctx (the page or the
// worker), which stopProfile stops and writes to path, in Chromium's
// DevTools format.
func startProfile(b *testing.B, ctx context.Context) {
	b.Helper()
	_, err := chromedp.Call(ctx, profiler.Enable, cdp.Empty{})
	require.NoError(b, err)
	// Sampled every 100 µs: a lesson's step or a tick's stage is tens of
	// milliseconds, of which the default interval gives a dozen samples.
	_, err = chromedp.Call(ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 100})
	require.NoError(b, err)
	_, err = chromedp.Call(ctx, profiler.Start, cdp.Empty{})
	require.NoError(b, err)
}

func stopProfile(b *testing.B, ctx context.Context, path string) {
	b.Helper()
	res, err := chromedp.Call(ctx, profiler.Stop, cdp.Empty{})
	require.NoError(b, err)
	data, err := json.Marshal(res.Profile)
	require.NoError(b, err)
	require.NoError(b, os.WriteFile(path, data, 0o644))
	b.Logf("wrote %s", path)
}
