package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"yarnplay/app"
	"yarnplay/app/store"
	"yarnplay/scenarios/lessons"
	"yarnplay/wasm/bridge"
	"yarnplay/wasm/worker"
)

// Selectors of the start: the pre-rendered queue tree, the page once the
// WebAssembly has mounted it, and the pre-rendered page's notes.
const (
	anyTree   = `#queue-tree li.queue`
	liveTree  = `.playground[data-app="live"] #queue-tree li.queue`
	ownWork   = `.prerender-status .when-own-work`
	noScript  = `.prerender-status .when-noscript`
	wasmLabel = `#app-wasm-loader`
)

// snapshotPlayground serializes the playground's DOM (.pg) in a form that
// does not depend on how it was made: elements with their sorted
// attributes (but inert, and with go-app's "true" written bare), the
// properties go-app sets instead of attributes (value, checked...), and
// each run of text with its white space collapsed.
const snapshotPlayground = `(() => {
  const props = ['value', 'checked', 'selected', 'disabled', 'open', 'hidden', 'required', 'multiple', 'readOnly'];
  const skip = new Set(['inert', 'value', 'checked', 'selected', 'disabled', 'open', 'hidden', 'required', 'multiple', 'readonly']);
  const out = [];
  const walk = (el, depth) => {
    const attrs = [...el.attributes].filter(a => !skip.has(a.name))
      .map(a => a.name + '=' + (a.value === 'true' ? '' : a.value)).sort();
    const ps = props.filter(k => k in el && el[k]).map(k => k + ':' + el[k]);
    out.push(depth + ' <' + el.localName + ' ' + attrs.concat(ps).join(' ') + '>');
    let text = [];
    const flush = () => {
      const t = text.join(' ').replace(/\s+/g, ' ').trim();
      if (t) out.push(depth + ' "' + t + '"');
      text = [];
    };
    for (const c of el.childNodes) {
      if (c.nodeType === Node.TEXT_NODE) text.push(c.textContent);
      else if (c.nodeType === Node.ELEMENT_NODE) { flush(); walk(c, depth + 1); }
    }
    flush();
  };
  walk(document.querySelector('.pg'), 0);
  return out;
})()`

// visible is a JavaScript expression: is the element of sel rendered?
func visible(sel string) string {
	return `(e => !!e && e.checkVisibility())(document.querySelector(` + q(sel) + `))`
}

// block makes the tab fail requests for these paths (app.wasm: the page
// stays as pre-rendered; app-worker.js: no service worker fetches app.wasm
// behind the tab's back); no paths unblocks.
func block(t *testing.T, tab context.Context, url string, paths ...string) {
	t.Helper()
	var patterns []*network.BlockPattern
	for _, p := range paths {
		patterns = append(patterns, &network.BlockPattern{URLPattern: url + strings.TrimPrefix(p, "/"), Block: true})
	}
	require.NoError(t, chromedp.Do(tab, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: patterns})
		return err
	})))
}

// goldenTree is the default lesson's tree as testdata/default-queue-tree.txt
// has it, one app.QueueLine per row.
func goldenTree(t *testing.T, root string) []string {
	t.Helper()
	golden, err := os.ReadFile(filepath.Join(root, "testdata", "default-queue-tree.txt"))
	require.NoError(t, err)
	return strings.Split(strings.TrimSpace(string(golden)), "\n")[1:] // after the cluster line
}

// treeLines reads the page's queue tree back as app.QueueLine rows.
func treeLines(p *page) []string {
	p.t.Helper()
	var lines []string
	for _, r := range js[[]renderedRow](p, readRows) {
		lines = append(lines, app.QueueLine(r.Depth, r.Path, r.Cells...))
	}
	return lines
}

// TestBrowserPreRenderedStart checks the static pages' pre-rendered start:
// the default lesson's tree is on the page before any WebAssembly runs,
// the WebAssembly then renders the same playground and makes it work, and
// a visitor who will get their own work back (saved work, a share link) is
// not shown the default lesson as theirs meanwhile.
func TestBrowserPreRenderedStart(t *testing.T) {
	requireChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	root, url := builtSite(ctx, t)
	shots := screenshotDir(t, root)
	want := goldenTree(t, root)
	open := func(p *page, u string) {
		p.t.Helper()
		nav, cancel := context.WithTimeout(p.tab, renderTimeout)
		defer cancel()
		require.NoError(p.t, chromedp.Do(nav, chromedp.Navigate(u)))
	}

	var prerendered []string
	t.Run("before the WebAssembly runs", func(t *testing.T) {
		p, _ := newPage(ctx, t, url, shots)
		block(t, p.tab, url, "/web/app.wasm", "/app-worker.js")
		open(p, url)
		p.wait(visible(anyTree), "the pre-rendered queue tree")
		require.Equal(t, want, treeLines(p), "the pre-rendered tree differs from testdata/default-queue-tree.txt")
		require.True(t, js[bool](p, `document.querySelector('.playground').classList.contains('prerendered')`))
		require.True(t, js[bool](p, `document.querySelector('#tl-forward').closest('[inert]') !== null`), "the controls are inert")
		require.False(t, js[bool](p, `!!document.querySelector('[data-app]')`), "nothing says the page is live")
		require.True(t, js[bool](p, visible(wasmLabel)), "go-app's loader says what is loading")
		require.False(t, js[bool](p, visible(ownWork)))
		prerendered = js[[]string](p, snapshotPlayground)
		p.screenshot("prerendered.png")
	})

	t.Run("without JavaScript", func(t *testing.T) {
		tab, _ := browser(ctx, t)
		p := &page{t: t, tab: tab, url: url, shot: shots}
		require.NoError(t, chromedp.Do(tab, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		})))
		open(p, url)
		p.wait(visible(anyTree), "the pre-rendered queue tree")
		require.Equal(t, want, treeLines(p))
		require.True(t, js[bool](p, visible(noScript)), "the page says why it stays inert")
		require.False(t, js[bool](p, visible(wasmLabel)), "no loader for what will not load")
	})

	t.Run("after mount", func(t *testing.T) {
		require.NotEmpty(t, prerendered, "needs the pre-rendered playground of the first subtest")
		p, problems := newPage(ctx, t, url, shots)
		open(p, url)
		p.waitFor(visible(liveTree), "the page mounted by the WebAssembly", renderTimeout)
		require.False(t, js[bool](p, `!!document.querySelector('.prerendered, [inert]')`), "the live page is not inert")
		require.Equal(t, want, treeLines(p))
		require.Equal(t, prerendered, js[[]string](p, snapshotPlayground), "the WebAssembly renders what was pre-rendered")
		sc, err := lessons.Load(lessons.Default())
		require.NoError(t, err)
		p.click("#tl-forward")
		p.wait(counter+`.startsWith('step 1 of `+fmt.Sprint(len(sc.Steps))+`')`, "step 1: the page works")

		// A lesson opened from the menu is a route change inside the app,
		// not a pre-rendered page: it loads as well.
		acls, err := lessons.Load("acls")
		require.NoError(t, err)
		p.click(`.lesson-menu a[href="` + app.LessonPath("acls") + `"]`)
		p.wait(`location.pathname === `+q(app.LessonPath("acls"))+` && `+visible(liveTree)+` && `+
			counter+`.startsWith('step 0 of `+fmt.Sprint(len(acls.Steps))+`')`, "the acls lesson")
		require.Empty(t, problems(), "the page reported JavaScript errors")
	})

	t.Run("own work", func(t *testing.T) {
		const slug, step = "elastic-borrowing", 3
		sc, err := lessons.Load(slug)
		require.NoError(t, err)
		s := store.New()
		require.NoError(t, s.Load(sc, slug))
		s.Jump(step)
		saved := bridge.NewMemoryStorage()
		require.NoError(t, s.Save(saved))
		work, ok, err := saved.Get(store.SaveKey)
		require.NoError(t, err)
		require.True(t, ok)
		link, err := s.Link()
		require.NoError(t, err)

		p, _ := newPage(ctx, t, url, shots)
		block(t, p.tab, url, "/web/app.wasm", "/app-worker.js")
		open(p, url)
		p.wait(visible(anyTree), "the pre-rendered tree of a first visit")
		js[bool](p, `(localStorage.setItem(`+q(store.SaveKey)+`, `+q(work)+`), true)`)
		for _, tt := range []struct {
			path string
			own  bool
		}{
			{"", true},                          // / restores any saved work
			{app.LessonPath(slug)[1:], true},    // the saved lesson's page restores it
			{app.LessonPath("acls")[1:], false}, // another lesson's page opens that lesson
			{"#" + link, true},                  // a share link wins
			{app.LessonPath("acls")[1:] + "#" + link, true},
		} {
			if tt.path == "#"+link {
				js[bool](p, `(localStorage.clear(), true)`)
			}
			open(p, "about:blank")
			open(p, url+tt.path)
			p.wait(`document.readyState === 'complete'`, "the page of /"+tt.path)
			own := js[bool](p, `document.documentElement.classList.contains('`+app.OwnWorkClass+`')`)
			require.Equal(t, tt.own, own, "/%s: is the visitor's own work coming?", tt.path)
			require.Equal(t, !tt.own, js[bool](p, visible(".pg")), "/%s: the pre-rendered lesson shows only when it is what opens", tt.path)
			require.Equal(t, tt.own, js[bool](p, visible(ownWork)), "/%s: the page says the visitor's work is coming", tt.path)
			if tt.own && tt.path == "" {
				p.screenshot("prerendered-own-work.png")
			}
		}

		// Once the WebAssembly runs, the saved work is what shows.
		block(t, p.tab, url)
		js[bool](p, `(localStorage.setItem(`+q(store.SaveKey)+`, `+q(work)+`), true)`)
		open(p, url)
		p.waitFor(visible(liveTree), "the page mounted by the WebAssembly", renderTimeout)
		p.wait(counter+`.startsWith('step `+fmt.Sprint(step)+` of `+fmt.Sprint(len(sc.Steps))+`')`, "the saved step")
		// The head started the simulation's worker and sent it the saved
		// work (worker.EarlyScript); the page took that worker.
		require.True(t, js[bool](p, `window[`+q(worker.EarlyGlobal)+`] === undefined`), "the page took the worker its head started")

		// On another lesson's page the worker's head start does not open
		// the saved work: the lesson opens.
		acls, err := lessons.Load("acls")
		require.NoError(t, err)
		open(p, url+app.LessonPath("acls")[1:])
		p.waitFor(visible(liveTree), "the acls page mounted by the WebAssembly", renderTimeout)
		p.wait(counter+`.startsWith('step 0 of `+fmt.Sprint(len(acls.Steps))+`')`, "the acls lesson, not the saved work")
	})
}
