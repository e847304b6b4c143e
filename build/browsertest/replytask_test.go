package browsertest

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// replyTasks records, from before the page's first script, the timeline's
// counter before and after each message from the worker is handled (the
// handler the page sets on its Worker, wrapped), in window.__replies.
const replyTasks = `(() => {
  window.__replies = [];
  const d = Object.getOwnPropertyDescriptor(Worker.prototype, 'onmessage');
  const counter = () => ` + counter + `;
  Object.defineProperty(Worker.prototype, 'onmessage', {
    configurable: true,
    enumerable: d.enumerable,
    get() { return d.get.call(this); },
    set(fn) {
      d.set.call(this, typeof fn !== 'function' ? fn : function (e) {
        const before = counter();
        const r = fn.call(this, e);
        window.__replies.push([before, counter()]);
        return r;
      });
    },
  });
})()`

// TestBrowserAStepIsDrawnInItsRepliesTask presses → and ← on the default
// lesson: the page draws each step in the task in which the worker's reply
// arrives (the browser build's go-app renders in the dispatch's task, and
// a small frame is handed over at once), not in a later one, between
// which and the reply the browser would often paint a frame without it.
func TestBrowserAStepIsDrawnInItsRepliesTask(t *testing.T) {
	_, _, p, problems := sitePage(t, 3*time.Minute)
	p.probe(replyTasks)
	p.open(p.url)
	p.wait(counter+`.startsWith('step 0 of ')`, "the default lesson's start")

	step := func(key, from, to string) {
		t.Helper()
		js[bool](p, `window.__replies = []; document.dispatchEvent(new KeyboardEvent('keydown', {key: '`+key+`', bubbles: true})); true`)
		p.wait(counter+`.startsWith('`+to+`')`, to)
		drawnIn := js[[][]string](p, `window.__replies`)
		found := slices.ContainsFunc(drawnIn, func(r []string) bool {
			return len(r) == 2 && strings.HasPrefix(r[0], from) && strings.HasPrefix(r[1], to)
		})
		require.True(t, found, "%s: no reply's task drew %q over %q; the counter before and after each reply: %q", key, to, from, drawnIn)
	}
	step("ArrowRight", "step 0 of ", "step 1 of ")
	step("ArrowRight", "step 1 of ", "step 2 of ")
	step("ArrowLeft", "step 2 of ", "step 1 of ")
	require.Empty(t, problems(), "the page reported JavaScript errors")
}
