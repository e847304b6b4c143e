package browsertest

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// firstFrameOf presses → and resolves, in the first animation frame whose
// callbacks see the counter say step k, with what each later stage's panel
// (the usage chart, the editors) then shows: the step it says
// (data-frame-step), and whether its box is in the window.
const firstFrameOf = `(k => new Promise(resolve => {
  const look = () => {
    if (!` + counter + `.startsWith('step ' + k + ' of ')) return requestAnimationFrame(look);
    const at = sel => {
      const e = document.querySelector(sel);
      const r = e.getBoundingClientRect();
      return {step: e.dataset.frameStep, inWindow: r.bottom > 0 && r.top < innerHeight};
    };
    resolve({chart: at('.pg .usage-chart'), editors: at('.pg .pg-editors')});
  };
  document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
  requestAnimationFrame(look);
}))`

// panelAt is what firstFrameOf says of a panel.
type panelAt struct {
	Step     string `json:"step"`
	InWindow bool   `json:"inWindow"`
}

// awaited evaluates an expression whose value is a promise, and returns
// what it resolves with.
func awaited[T any](p *page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.tab, waitTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	require.NoError(p.t, err, "evaluating %s", expr)
	return v
}

// TestBrowserPanelsOutOfTheWindowFollowTheStep steps the default lesson
// with →: the usage chart and the editors, when out of the window, show
// the step in the task after the frame that shows it, which then has the
// machine to itself for what is in sight; in the window, they show it in
// that frame, as every panel in sight does. At a desktop's size and a
// phone's, at the page's top and scrolled to the editors.
func TestBrowserPanelsOutOfTheWindowFollowTheStep(t *testing.T) {
	_, _, p, problems := sitePage(t, 3*time.Minute)
	p.open(p.url)
	for _, size := range []struct {
		name string
		w, h int64
	}{{"desktop", 1400, 900}, {"phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			p.t = t
			require.NoError(t, chromedp.Do(p.tab, chromedp.EmulateViewport(size.w, size.h)))
			js[bool](p, `scrollTo(0, 0); document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Home', bubbles: true})); true`)
			p.wait(counter+`.startsWith('step 0 of ')`, "the default lesson's start")
			p.drawn()
			awaited[bool](p, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
			away, inWindow := 0, 0
			step := func(k int) {
				t.Helper()
				got := awaited[map[string]panelAt](p, firstFrameOf+`(`+strconv.Itoa(k)+`)`)
				for _, name := range []string{"chart", "editors"} {
					want := strconv.Itoa(k - 1)
					if got[name].InWindow {
						want = strconv.Itoa(k)
						inWindow++
					} else {
						away++
					}
					require.Equal(t, want, got[name].Step, "%s at step %d, in the window: %t", name, k, got[name].InWindow)
				}
				p.drawn() // and every panel in the task after it
			}
			step(1)
			step(2)
			p.screenshot("sight-" + size.name + "-top.png")
			js[bool](p, `document.querySelector('.pg .pg-editors').scrollIntoView(); true`)
			// The observer says the editors are in the window once the
			// frame after the scroll has run.
			awaited[bool](p, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
			step(3)
			step(4)
			p.screenshot("sight-" + size.name + "-editors.png")
			require.GreaterOrEqual(t, away, 3, "panels out of the window")
			require.GreaterOrEqual(t, inWindow, 2, "panels in the window")
		})
	}
	require.Empty(t, problems(), "the page reported JavaScript errors")
}
