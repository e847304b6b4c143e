package browsertest

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/app/viewsdemo"
	"yarnplay/build/site"
)

// builtViewsSite builds the site with the views' test page (build tag
// viewsdemo) into a temporary directory and serves it; it returns the
// module root and the test page's address.
func builtViewsSite(ctx context.Context, t *testing.T) (root, url string) {
	t.Helper()
	root, err := site.ModuleRoot(ctx)
	require.NoError(t, err)
	dist := t.TempDir()
	t.Setenv("GOFLAGS", strings.TrimSpace(os.Getenv("GOFLAGS")+" -tags=viewsdemo"))
	var goOut strings.Builder
	start := time.Now()
	require.NoError(t, site.BuildWasm(ctx, root, dist, &goOut), "building app.wasm with -tags=viewsdemo:\n%s", goOut.String())
	require.NoError(t, site.GenerateStatic(root, dist))
	// The test page is not pre-rendered: it is served the start page's
	// shell, and the WebAssembly routes it in the browser.
	shell, err := os.ReadFile(filepath.Join(dist, "index.html"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dist, strings.TrimPrefix(viewsdemo.Path, "/")+".html"), shell, 0o644))
	t.Logf("built the site with the views' test page in %s", time.Since(start).Round(time.Millisecond))
	srv := httptest.NewServer(site.Handler(dist))
	t.Cleanup(srv.Close)
	return root, srv.URL + viewsdemo.Path
}

// domQueue is one queue row as the page shows it.
type domQueue struct {
	Path    string `json:"path"`
	Summary string `json:"summary"`
	Pressed string `json:"pressed"`
}

// domNode is one node card's allocation line.
type domNode struct {
	Name      string `json:"name"`
	Allocated string `json:"allocated"`
}

const readQueues = `[...document.querySelectorAll('.qbars [data-queue]')].map(b => ({
  path: b.dataset.queue,
  summary: b.querySelector('[data-field="summary"]').textContent.trim(),
  pressed: b.getAttribute('aria-pressed'),
}))`

const readNodes = `[...document.querySelectorAll('.node-card')].map(c => ({
  name: c.dataset.node,
  allocated: c.querySelector('[data-field="node-allocated"]').textContent.trim(),
}))`

// wantQueues is what the rows must say, computed from core's numbers here
// with formats of this test's own.
func wantQueues(f *store.Frame) []domQueue {
	pct := func(v float32) string { return strconv.FormatFloat(float64(v)*100, 'f', 1, 64) + "%" }
	var out []domQueue
	for _, q := range f.Queues {
		pressed := "false"
		if q.Path == f.Selected {
			pressed = "true"
		}
		out = append(out, domQueue{Path: q.Path, Pressed: pressed,
			Summary: pct(q.AbsUsedCapacity) + " used / " + pct(q.AbsCapacity) + " guaranteed / " + pct(q.AbsMaxCapacity) + " max"})
	}
	return out
}

func wantNodes(f *store.Frame) []domNode {
	gb := func(mb int64) string {
		if mb < 1024 {
			return fmt.Sprintf("%d MB", mb)
		}
		return strings.TrimSuffix(strconv.FormatFloat(float64(mb)/1024, 'f', 1, 64), ".0") + " GB"
	}
	var out []domNode
	for i := range f.Nodes {
		n := f.NodeBrief(i)
		out = append(out, domNode{Name: n.Name, Allocated: fmt.Sprintf("%s of %s, %d of %d vcores",
			gb(n.Allocated.MemoryMB), gb(n.Capacity.MemoryMB), n.Allocated.VCores, n.Capacity.VCores)})
	}
	return out
}

// openDemo navigates to the test page and waits until it shows step want.
func openDemo(t *testing.T, tab context.Context, url string, problems func() []string, shots string) time.Duration {
	t.Helper()
	start := time.Now()
	ctx, cancel := context.WithTimeout(tab, renderTimeout)
	err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#views-demo[data-step]`)))
	cancel()
	if err != nil {
		explainTimeout(t, tab, shots, err, problems())
	}
	took := time.Since(start)
	ok, err := chromedp.Run(tab, chromedp.Evaluate[bool](`!!document.querySelector('#views-demo .nodegrid')`))
	require.NoError(t, err)
	if !ok {
		text, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.innerText.slice(0, 2000)`))
		t.Fatalf("the test page shows no node grid; page text:\n%s\nJavaScript problems: %q", text, problems())
	}
	return took
}

// clickAndWait clicks a button that changes the step and returns how long
// the page took to show the new step (measured in the page, to the next
// animation frame after the DOM changed).
func clickAndWait(t *testing.T, tab context.Context, button string) float64 {
	t.Helper()
	ms, err := chromedp.Run(tab, chromedp.Evaluate[float64](`new Promise((resolve, reject) => {
  const demo = document.getElementById('views-demo');
  const before = demo.dataset.step;
  const t0 = performance.now();
  document.querySelector('`+button+`').click();
  const deadline = t0 + 60000;
  const check = () => {
    if (demo.dataset.step !== before) { requestAnimationFrame(() => resolve(performance.now() - t0)); return; }
    if (performance.now() > deadline) { reject(new Error('the step did not change')); return; }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})`, chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	return ms
}

// actionMS is how long the demo's last store action took, in ms.
func actionMS(t *testing.T, tab context.Context) string {
	t.Helper()
	v, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById('views-demo').dataset.actionMs`))
	require.NoError(t, err)
	return v
}

// updateMS is how long the demo's last update took in Go, from the click's
// handler until go-app had rendered the new frame into the page, in ms.
func updateMS(t *testing.T, tab context.Context) float64 {
	t.Helper()
	v, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById('views-demo').dataset.updateMs || '0'`))
	require.NoError(t, err)
	f, err := strconv.ParseFloat(v, 64)
	require.NoError(t, err)
	return f
}

func TestBrowserViewsFollowAHeartbeat(t *testing.T) {
	requireChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	root, url := builtViewsSite(ctx, t)
	tab, problems := browser(ctx, t)
	shots := screenshotDir(t, root)
	require.NoError(t, chromedp.Do(tab, chromedp.EmulateViewport(1280, 900)))

	const nodes, queues = 8, 10
	s, err := viewsdemo.NewStore(nodes, queues)
	require.NoError(t, err)
	took := openDemo(t, tab, fmt.Sprintf("%s?nodes=%d&queues=%d", url, nodes, queues), problems, shots)
	t.Logf("the views rendered %s after navigation", took.Round(time.Millisecond))

	check := func(f *store.Frame) {
		t.Helper()
		step, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById('views-demo').dataset.step`))
		require.NoError(t, err)
		require.Equal(t, strconv.Itoa(f.Step), step)
		gotQ, err := chromedp.Run(tab, chromedp.Evaluate[[]domQueue](readQueues))
		require.NoError(t, err)
		require.Equal(t, wantQueues(f), gotQ, "the queue bars say core's numbers")
		gotN, err := chromedp.Run(tab, chromedp.Evaluate[[]domNode](readNodes))
		require.NoError(t, err)
		require.Equal(t, wantNodes(f), gotN, "the node cards say core's numbers")
		hb, err := chromedp.Run(tab, chromedp.Evaluate[[]string](`[...document.querySelectorAll('.node-card.hb')].map(c => c.dataset.node)`))
		require.NoError(t, err)
		if f.HeartbeatNode == "" {
			require.Empty(t, hb)
		} else {
			require.Equal(t, []string{f.HeartbeatNode}, hb, "the heartbeating node glows")
		}
	}
	before := *s.Frame()
	check(&before)
	scheme(t, tab, false)
	screenshot(t, tab, filepath.Join(shots, "views-light.png"))

	// One heartbeat: the page and core must move together.
	require.NoError(t, s.Heartbeat(""))
	after := *s.Frame()
	require.NotEqual(t, wantNodes(&before), wantNodes(&after), "the heartbeat allocates something")
	ms := clickAndWait(t, tab, "#demo-heartbeat")
	t.Logf("a heartbeat step re-rendered the views in %.1f ms, of which the store's action took %s ms", ms, actionMS(t, tab))
	check(&after)
	heartbeatNode := after.HeartbeatNode
	require.NotEmpty(t, heartbeatNode)
	walk, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll('.app-card.cursor, .app-card.dim').length`))
	require.NoError(t, err)
	t.Logf("the lane shows %d walked apps (cursor or dimmed) after the heartbeat of %s", walk, heartbeatNode)

	// The keyboard selects a queue: Enter on a row's button.
	leaf := ""
	for _, q := range after.Queues {
		if q.Leaf && q.Path != after.Selected {
			leaf = q.Path
			break
		}
	}
	require.NoError(t, chromedp.Do(tab, chromedp.Focus(chromedp.CSS(`.qbars [data-queue="`+leaf+`"]`)), chromedp.KeyEvent("\r")))
	wctx, wcancel := context.WithTimeout(tab, 20*time.Second)
	require.NoError(t, chromedp.Do(wctx, chromedp.WaitVisible(chromedp.CSS(`.formulas[data-queue="`+leaf+`"]`))), "Enter on %s selects it", leaf)
	wcancel()
	s.Select(leaf)
	check(s.Frame())

	scheme(t, tab, true)
	screenshot(t, tab, filepath.Join(shots, "views-dark.png"))

	// A busier cluster: queues borrow, nodes fill and reserve.
	for i := 0; i < 16; i++ {
		clickAndWait(t, tab, "#demo-heartbeat")
		require.NoError(t, s.Heartbeat(""))
	}
	check(s.Frame())
	screenshot(t, tab, filepath.Join(shots, "views-busy-dark.png"))
	scheme(t, tab, false)
	screenshot(t, tab, filepath.Join(shots, "views-busy-light.png"))

	// In a box as narrow as a phone (or the page's sidebar) rows fold onto
	// two lines and nothing sticks out sideways.
	require.NoError(t, chromedp.Do(tab, chromedp.EmulateViewport(400, 900)))
	overflow, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.documentElement.scrollWidth - window.innerWidth`))
	require.NoError(t, err)
	require.LessOrEqual(t, overflow, 0, "at 400px wide the views scroll sideways by %dpx", overflow)
	screenshot(t, tab, filepath.Join(shots, "views-narrow-light.png"))
	require.Empty(t, problems(), "the page reported JavaScript errors")
}

func TestBrowserViewsAtScale(t *testing.T) {
	requireChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	root, url := builtViewsSite(ctx, t)
	tab, problems := browser(ctx, t)
	shots := screenshotDir(t, root)
	require.NoError(t, chromedp.Do(tab, chromedp.EmulateViewport(1280, 900)))

	for _, size := range []struct {
		nodes, queues int
		mode, shot    string
	}{{120, 20, "strips", "views-strips"}, {1000, 100, "canvas", "views-1000-nodes"}} {
		took := openDemo(t, tab, fmt.Sprintf("%s?nodes=%d&queues=%d", url, size.nodes, size.queues), problems, shots)
		mode, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector('.nodegrid').dataset.mode`))
		require.NoError(t, err)
		require.Equal(t, size.mode, mode)
		elems, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.getElementsByTagName('*').length`))
		require.NoError(t, err)
		rows, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll('.qbars [data-queue]').length`))
		require.NoError(t, err)
		s, err := viewsdemo.NewStore(size.nodes, size.queues)
		require.NoError(t, err)
		require.Equal(t, len(s.Frame().Queues), rows)
		t.Logf("%d nodes, %d queues (%s): first render %s after navigation (the store plays %d steps first); %d DOM elements",
			size.nodes, rows, mode, took.Round(time.Millisecond), s.Frame().Step, elems)
		if mode == "canvas" {
			painted, err := chromedp.Run(tab, chromedp.Evaluate[int](`(() => {
  const c = document.querySelector('canvas.ng-canvas');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++;
  return n; })()`))
			require.NoError(t, err)
			require.Positive(t, painted, "the canvas is drawn")

			// A click on the first strip opens its node as a card.
			_, err = chromedp.Run(tab, chromedp.Evaluate[bool](`(() => {
  const c = document.querySelector('canvas.ng-canvas');
  c.scrollIntoView();
  const r = c.getBoundingClientRect();
  return c.dispatchEvent(new MouseEvent('click', {clientX: r.left + 20, clientY: r.top + 7, bubbles: true}));
})()`))
			require.NoError(t, err)
			wctx, wcancel := context.WithTimeout(tab, 20*time.Second)
			err = chromedp.Do(wctx, chromedp.WaitVisible(chromedp.CSS(`.ng-expanded .node-card[data-node="n0"]`)))
			wcancel()
			require.NoError(t, err, "a click on the canvas opens the node as a card")
		}
		var times, actions, updates []float64
		for i := 0; i < 7; i++ {
			times = append(times, clickAndWait(t, tab, "#demo-heartbeat"))
			a, err := strconv.ParseFloat(actionMS(t, tab), 64)
			require.NoError(t, err)
			actions = append(actions, a)
			updates = append(updates, updateMS(t, tab))
		}
		slices.Sort(times)
		slices.Sort(actions)
		slices.Sort(updates)
		t.Logf("%d nodes, %d queues: a heartbeat step shows in every view %.1f ms after the click (median of 7; min %.1f, max %.1f); "+
			"in Go, the store's action takes %.1f ms and the action plus rendering every view into the page %.1f ms (medians)",
			size.nodes, rows, times[3], times[0], times[6], actions[3], updates[3])
		scheme(t, tab, false)
		screenshot(t, tab, filepath.Join(shots, size.shot+"-light.png"))
		scheme(t, tab, true)
		ms := clickAndWait(t, tab, "#demo-heartbeat") // redraws the canvas in the dark palette
		t.Logf("one more heartbeat, dark scheme: %.1f ms", ms)
		screenshot(t, tab, filepath.Join(shots, size.shot+"-dark.png"))
		scheme(t, tab, false)
	}
	require.Empty(t, problems(), "the page reported JavaScript errors")
}
