package bench

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"yarnplay/build/site"
)

// stepAhead presses → on the page and resolves, once the step counter
// says step k, with the milliseconds from the key to the animation frame
// in which the page first shows it: when that frame's callback runs, the
// page has drawn the step, and the browser lays it out and paints it
// next. (The callback's argument, the frame's begin, is not that time: a
// frame begun while the page was busy runs its callbacks after the busy
// task, so that it could read less than the step took, even less than
// nothing.)
const stepAhead = `(k => new Promise(resolve => {
  const c = document.querySelector('.playground[data-app="live"] #tl-counter');
  const t0 = performance.now();
  const look = () => c.textContent.startsWith('step ' + k + ' of ') ? resolve(performance.now() - t0) : requestAnimationFrame(look);
  document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
  requestAnimationFrame(look);
}))`

// BenchmarkLesson is benchmark 7: the default lesson in the real
// playground, in headless Chromium, stepped through with the → key, every
// step from the key to the frame that shows it (ms-lesson-step-p50, -p95
// and -max, over the lesson's steps; the target is two frames, 33 ms).
// With LESSON_TRACE=file.json it writes a Chrome trace of the steps (with
// the WebAssembly compiler's events too when TRACE_WASM is set:
// traceWasmEnv), and with LESSON_PROFILE=file.cpuprofile a CPU profile of
// the page over them (app.wasm then keeps its name section:
// site.KeepNamesEnv). With
// LESSON_MUTATIONS=1 it logs, for each step, where the page added or
// removed the most elements (lessonMutations).
func BenchmarkLesson(b *testing.B) {
	b.StopTimer()
	if os.Getenv("LESSON_PROFILE") != "" {
		b.Setenv(site.KeepNamesEnv, "1") // the profile names Go's functions
	}
	srv := servedSite(b)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tab, closeTab := probedChromium(b, ctx, 1280, 900, "")
	defer closeTab()
	require.NoError(b, chromedp.Do(tab, chromedp.Navigate(srv.URL+"/")))
	counter, err := chromedp.Run(tab, chromedp.Poll[string](`(() => {
  const c = document.querySelector('.playground[data-app="live"] #tl-counter');
  return c && c.textContent.startsWith('step 0 of ') ? c.textContent : false;
})()`, chromedp.WithPollingTimeout(2*time.Minute)))
	require.NoError(b, err, "the default lesson did not open")
	steps, err := strconv.Atoi(strings.Fields(counter)[3])
	require.NoError(b, err, "the counter %q", counter)

	if path := os.Getenv("LESSON_TRACE"); path != "" {
		stop := startTrace(b, tab)
		defer func() { require.NoError(b, os.WriteFile(path, stop(), 0o644)) }()
	}
	if path := os.Getenv("LESSON_PROFILE"); path != "" {
		startProfile(b, tab)
		defer stopProfile(b, tab, path)
	}
	var ms []float64
	mut := os.Getenv("LESSON_MUTATIONS") != ""
	if mut {
		_, err := chromedp.Run(tab, chromedp.Evaluate[any](lessonMutations))
		require.NoError(b, err)
	}
	for k := 1; k <= steps; k++ {
		t, err := chromedp.Run(tab, chromedp.Evaluate[float64](fmt.Sprintf("%s(%d)", stepAhead, k), chromedp.EvalAwaitPromise))
		require.NoError(b, err, "step %d", k)
		ms = append(ms, t)
		if mut {
			// The step's later frames (a long narration's lines) too.
			time.Sleep(300 * time.Millisecond)
			m, err := chromedp.Run(tab, chromedp.Evaluate[map[string]int](`(() => { const m = window.__muts; window.__muts = {}; return m; })()`))
			require.NoError(b, err)
			keys := slices.Sorted(maps.Keys(m))
			slices.SortStableFunc(keys, func(a, c string) int { return m[c] - m[a] })
			for _, key := range keys[:min(8, len(keys))] {
				b.Logf("step %d: %5d elements added or removed in %s", k, m[key], key)
			}
		}
	}
	b.ReportMetric(float64(len(ms)), "steps")
	b.ReportMetric(quantile(ms, 0.5), "ms-lesson-step-p50")
	b.ReportMetric(quantile(ms, 0.95), "ms-lesson-step-p95")
	b.ReportMetric(slices.Max(ms), "ms-lesson-step-max")
	b.Logf("the default lesson's %d steps, from → to the frame: %v ms", len(ms), rounded(ms))
}

// lessonMutations counts the elements the page adds and removes, by their
// parent and grandparent (tag, id and first class), in window.__muts.
const lessonMutations = `(() => {
  window.__muts = {};
  const name = n => !n ? '?' : (n.tagName || n.nodeName).toLowerCase() + (n.id ? '#' + n.id : '') +
    (typeof n.className === 'string' && n.className ? '.' + n.className.split(' ')[0] : '');
  new MutationObserver(list => {
    for (const m of list) {
      const k = name(m.target.parentNode) + ' > ' + name(m.target);
      window.__muts[k] = (window.__muts[k] || 0) + m.addedNodes.length + m.removedNodes.length;
    }
  }).observe(document.body, {childList: true, subtree: true});
})()`
