package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdpage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/scenarios/lessons"
)

// waitTimeout bounds every wait on a DOM condition after the first render.
const waitTimeout = 30 * time.Second

// page drives one tab.
type page struct {
	t    *testing.T
	tab  context.Context
	url  string
	shot string
}

// probe has src run in the page before the page's own scripts, from the
// next navigation on (a script that records what the page does).
func (p *page) probe(src string) {
	p.t.Helper()
	require.NoError(p.t, chromedp.Do(p.tab, chromedp.Func(func(ctx context.Context, tt *chromedp.Target) error {
		_, err := cdp.Call(ctx, tt, cdpage.AddScriptToEvaluateOnNewDocument, cdpage.AddScriptToEvaluateOnNewDocumentParams{Source: src})
		return err
	})))
}

// js evaluates an expression and returns its value.
func js[T any](p *page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.tab, waitTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	require.NoError(p.t, err, "evaluating %s", expr)
	return v
}

// wait waits until expr is truthy, failing with what otherwise.
func (p *page) wait(expr, what string) {
	p.t.Helper()
	p.waitFor(expr, what, waitTimeout)
}

func (p *page) waitFor(expr, what string, timeout time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	var err error
	for {
		ctx, cancel := context.WithTimeout(p.tab, time.Until(deadline)+5*time.Second)
		_, err = chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(time.Until(deadline))))
		cancel()
		// A page that is still loading has no context to evaluate in yet.
		if err == nil || !strings.Contains(err.Error(), "context") || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		text, _ := chromedp.Run(p.tab, chromedp.Evaluate[string](`document.body ? document.body.innerText.slice(0, 3000) : ''`))
		p.screenshot("failure.png")
		p.t.Fatalf("waiting for %s (%s): %v\npage text:\n%s", what, expr, err, text)
	}
}

// q quotes a string for JavaScript.
func q(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// click clicks the element of a CSS selector.
func (p *page) click(sel string) {
	p.t.Helper()
	p.wait(`!!document.querySelector(`+q(sel)+`)`, sel+" on the page")
	js[bool](p, `(() => { document.querySelector(`+q(sel)+`).click(); return true })()`)
}

// set types a value into an input, textarea or select and fires the event
// go-app listens to ("input" or "change").
func (p *page) set(sel, value, event string) {
	p.t.Helper()
	p.wait(`!!document.querySelector(`+q(sel)+`)`, sel+" on the page")
	js[bool](p, `(() => { const e = document.querySelector(`+q(sel)+`); e.value = `+q(value)+
		`; e.dispatchEvent(new Event(`+q(event)+`, {bubbles: true})); return true })()`)
}

// typeOver selects the text of an input and types text over it, a key at
// a time, as a user does.
func (p *page) typeOver(sel, text string) {
	p.t.Helper()
	p.wait(`!!document.querySelector(`+q(sel)+`)`, sel+" on the page")
	js[bool](p, `(() => { const e = document.querySelector(`+q(sel)+`); e.focus(); e.select(); return true })()`)
	ctx, cancel := context.WithTimeout(p.tab, waitTimeout)
	defer cancel()
	for _, r := range text {
		require.NoError(p.t, chromedp.Do(ctx, chromedp.KeyEvent(string(r))), "typing %q into %s", text, sel)
	}
}

func (p *page) text(sel string) string {
	p.t.Helper()
	return js[string](p, `(() => { const e = document.querySelector(`+q(sel)+`); return e ? e.innerText : '' })()`)
}

// state is what the page shows of the simulation, once every panel is
// drawn (drawn): the step counter, the queue bars, nodes, lanes,
// narration and formulas.
func (p *page) state() string {
	p.t.Helper()
	p.drawn()
	return p.text("#tl-counter") + "\n" + p.text(".pg-layout")
}

// drawn waits until the panels that say their frame's step (the usage
// chart, the capacities table, the editors: data-frame-step) show the step
// the counter says: out of the window, they follow the frame that shows
// it (app/sight.go).
func (p *page) drawn() {
	p.t.Helper()
	p.wait(`(() => { const m = /^step (\d+) of /.exec(`+counter+`);
  return !!m && [...document.querySelectorAll('.pg [data-frame-step]')].every(e => e.dataset.frameStep === m[1]); })()`,
		"every panel drawn at the step shown")
}

func (p *page) screenshot(name string) {
	png, err := chromedp.Run(p.tab, chromedp.FullScreenshot(100))
	if err == nil {
		_ = os.WriteFile(filepath.Join(p.shot, name), png, 0o644)
	}
}

func (p *page) open(url string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.tab, renderTimeout)
	defer cancel()
	require.NoError(p.t, chromedp.Do(ctx, chromedp.Navigate(url)))
	// The pre-rendered page has a timeline and a tree too, inert: wait
	// for the WebAssembly's page.
	p.waitFor(`!!document.querySelector('.playground[data-app="live"] #timeline') && !!document.querySelector('#queue-tree')`, "the playground", renderTimeout)
}

const (
	counter   = `((document.querySelector('#tl-counter') || {}).textContent || '')`
	errorText = `((document.querySelector('#error-text') || {}).textContent || '')`
)

// scheme emulates the light or dark colour scheme.
func scheme(t *testing.T, tab context.Context, dark bool) {
	t.Helper()
	value := "light"
	if dark {
		value = "dark"
	}
	require.NoError(t, chromedp.Do(tab, chromedp.Func(func(ctx context.Context, tt *chromedp.Target) error {
		_, err := cdp.Call(ctx, tt, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: value}},
		})
		return err
	})))
}

// newPage opens a page in a fresh headless Chromium at the desktop size
// of the flows' screenshots, on the site at url; problems returns what
// went wrong in it (browser).
func newPage(ctx context.Context, t *testing.T, url, shots string) (p *page, problems func() []string) {
	t.Helper()
	tab, problems := browser(ctx, t)
	require.NoError(t, chromedp.Do(tab, chromedp.EmulateViewport(1440, 1000)))
	return &page{t: t, tab: tab, url: url, shot: shots}, problems
}

// sitePage builds and serves the site and opens a tab on it at the flows'
// desktop size (newPage), for a test that may take timeout; it returns the
// test's context, the module root, the page and its problems.
func sitePage(t *testing.T, timeout time.Duration) (context.Context, string, *page, func() []string) {
	t.Helper()
	requireChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	root, url := builtSite(ctx, t)
	p, problems := newPage(ctx, t, url, screenshotDir(t, root))
	return ctx, root, p, problems
}

// TestBrowserFlows drives the playground through its flows in headless
// Chromium, one after another on the same work.
func TestBrowserFlows(t *testing.T) {
	ctx, _, p, problems := sitePage(t, 8*time.Minute)
	url, shots := p.url, p.shot
	tab := p.tab

	// The default lesson loads and the WebAssembly runs it.
	start := time.Now()
	p.open(url)
	t.Logf("the playground rendered %s after navigation", time.Since(start).Round(time.Millisecond))
	def := lessons.Default()
	sc, err := lessons.Load(def)
	require.NoError(t, err)
	p.wait(counter+`.startsWith('step 0 of `+fmt.Sprint(len(sc.Steps))+`')`, "step 0 of the default lesson")
	p.screenshot("playground-light.png")

	// A heartbeat step shows what the core says: the store, natively, on
	// the same lesson.
	native := store.New()
	require.NoError(t, native.Load(sc, def))
	hb := 0
	for i, st := range sc.Steps {
		if k := st.Kind(); k == "heartbeat" || k == "tick" {
			hb = i + 1
			break
		}
	}
	require.NotZero(t, hb, "the default lesson has a heartbeat step")
	for k := 1; k < hb; k++ {
		p.click("#tl-forward")
		p.wait(counter+`.startsWith('step `+fmt.Sprint(k)+` of')`, fmt.Sprintf("step %d", k))
	}
	before := p.state()
	p.click("#tl-forward")
	p.wait(counter+`.startsWith('step `+fmt.Sprint(hb)+` of')`, "the heartbeat step")
	native.Jump(hb)
	f := native.Frame()
	// A tick of every node narrates hundreds of decisions: the first come
	// with the step, the rest in the frames after it.
	p.wait(`document.querySelectorAll('#narration-lines li').length === `+fmt.Sprint(len(f.Narration))+
		` && document.querySelector('#narration-lines').getAttribute('aria-busy') === 'false'`, "every narration line")
	lines := js[[]string](p, `[...document.querySelectorAll('#narration-lines li')].map(li => li.textContent)`)
	require.Equal(t, f.Narration, lines, "the narration is the core's decisions")
	// Read down the narration, then choose a queue: the same step's lines
	// stay, and where the reader stood.
	scrolled := js[float64](p, `(() => { const l = document.querySelector('#narration-lines'); l.scrollTop = l.scrollHeight; return l.scrollTop })()`)
	require.Positive(t, scrolled)
	leaf := f.Queues[len(f.Queues)-1].Path
	p.click(`.qb-row[data-queue="` + leaf + `"]`)
	p.wait(`(document.querySelector('#queue-detail') || {dataset: {}}).dataset.queue === `+q(leaf), "the queue chosen")
	require.Equal(t, len(f.Narration), js[int](p, `document.querySelectorAll('#narration-lines li').length`), "every line, still")
	require.Equal(t, scrolled, js[float64](p, `document.querySelector('#narration-lines').scrollTop`), "the narration where it was read")
	p.click(`.qb-row[data-queue="` + leaf + `"]`) // chosen again: no queue chosen, as before
	p.wait(`(document.querySelector('#queue-detail') || {dataset: {}}).dataset.queue !== `+q(leaf), "no queue chosen")
	require.Contains(t, p.text("#tl-counter"), strings.SplitN(f.Label, ": ", 2)[1])
	p.screenshot("heartbeat.png")
	drawn := js[int](p, `document.querySelectorAll('.node-card .cell.blk.first, .ns-blk:not(.done)').length`)
	require.Positive(t, drawn, "the heartbeat's container is drawn")
	require.Contains(t, p.text(`[data-field="nodes-summary"]`), plural(drawn, "running container"),
		"the summary counts the containers drawn, not the nodes that run them")

	// Back restores exactly the previous state.
	p.click("#tl-back")
	p.wait(counter+`.startsWith('step `+fmt.Sprint(hb-1)+` of')`, "one step back")
	require.Equal(t, before, p.state(), "back shows the state of the step before")

	// A two-queue tree built in the editor; an app submitted to it gets a
	// container.
	p.click("#import summary")
	p.click("#new-blank")
	p.wait(`!!document.querySelector('#qe-tree li[data-queue="root.default"]')`, "the blank scenario")
	p.set("#qe-add-name", "etl", "input")
	p.set("#qe-add-parent", "root", "change")
	p.click("#qe-add-button")
	p.wait(`!!document.querySelector('#qe-tree li[data-queue="root.etl"]')`, "the new queue etl")
	p.set(`input[data-queue="root.default"][data-prop="capacity"]`, "70", "input")
	p.wait(`!!document.querySelector('.qe-issue:not([hidden])')`, "Hadoop's refusal while the sum is 70")
	p.set(`input[data-queue="root.etl"][data-prop="capacity"]`, "30", "input")
	p.wait(`!document.querySelector('.qe-issue:not([hidden])') && !!document.querySelector('#queue-tree li[data-queue="root.etl"]')`, "the two-queue tree applied")
	require.Contains(t, p.text(`#queue-tree li[data-queue="root.etl"]`), "30.0%")

	// An invalid capacity shows Hadoop's message on that queue.
	p.set(`input[data-queue="root.etl"][data-prop="capacity"]`, "thirty", "input")
	p.wait(`!!document.querySelector('#qe-tree li[data-queue="root.etl"] .qe-issue:not([hidden]), #qe-tree li[data-queue="root"] > .qe-issue:not([hidden])')`, "the refusal on etl")
	issue := p.text(`.qe-issue:not([hidden])`)
	require.Contains(t, issue, "NumberFormatException")
	require.Contains(t, issue, "root.etl")
	p.screenshot("editor-error.png")
	p.set(`input[data-queue="root.etl"][data-prop="capacity"]`, "30", "input")
	p.wait(`!document.querySelector('.qe-issue:not([hidden])')`, "the fixed capacity")

	// Typing over a capacity keeps every keystroke and the focus, as the
	// draft goes from accepted to refused (40 and 70 make 110) and back (60
	// and 40 make 100).
	etl, def := `input[data-queue="root.etl"][data-prop="capacity"]`, `input[data-queue="root.default"][data-prop="capacity"]`
	p.typeOver(etl, "40")
	p.wait(`!!document.querySelector('.qe-issue:not([hidden])')`, "the refusal while the sum is 110")
	require.Equal(t, "40", js[string](p, `document.querySelector(`+q(etl)+`).value`), "both keystrokes are in the field")
	require.True(t, js[bool](p, `document.activeElement === document.querySelector(`+q(etl)+`)`), "the field keeps the focus")
	p.typeOver(def, "60")
	p.wait(`!document.querySelector('.qe-issue:not([hidden])')`, "60 and 40 applied")
	require.Equal(t, "60", js[string](p, `document.querySelector(`+q(def)+`).value`), "typing 60 over 70 leaves 60")
	require.True(t, js[bool](p, `document.activeElement === document.querySelector(`+q(def)+`)`), "the field keeps the focus")
	require.Contains(t, p.text(`#queue-tree li[data-queue="root.etl"]`), "40.0%")

	p.set("#ae-user", "alice", "input")
	p.set("#ae-queue", "root.etl", "change")
	p.click("#ae-submit-button")
	p.wait(`!!document.querySelector('#ae-apps tr[data-app="app_1"]')`, "app_1 submitted")
	p.set("#ae-count", "2", "input")
	p.click("#ae-ask-button")
	p.wait(counter+`.startsWith('step 2 of 2')`, "the ask")
	p.click("#tl-forward") // at the end: the next node heartbeats
	p.wait(counter+`.startsWith('step 3 of 3')`, "the heartbeat")
	lines = js[[]string](p, `[...document.querySelectorAll('#narration-lines li')].map(li => li.textContent)`)
	require.Contains(t, strings.Join(lines, "\n"), "allocated a 1024 MB container to app_1 on n0", "the AM container")
	p.screenshot("built.png")

	// A share link opens in a fresh browser profile at the same step.
	p.click("#tl-back")
	p.wait(counter+`.startsWith('step 2 of 3')`, "back to step 2")
	shared := p.state()
	p.click("#share-make")
	p.wait(`!!document.querySelector('#share-url')`, "the share link")
	link := js[string](p, `document.querySelector('#share-url').value`)
	require.Contains(t, link, "#s=1.")
	p.screenshot("share.png")
	func() {
		p2, _ := newPage(ctx, t, url, shots)
		p2.open(link)
		p2.wait(counter+`.startsWith('step 2 of 3')`, "the shared step")
		require.Equal(t, shared, p2.state(), "the link restores the same state")
	}()

	// Importing a capacity-scheduler.xml shows its tree.
	xml := `<?xml version="1.0"?><configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>prod,dev</value></property>
<property><name>yarn.scheduler.capacity.root.prod.capacity</name><value>75</value></property>
<property><name>yarn.scheduler.capacity.root.dev.capacity</name><value>25</value></property>
<property><name>yarn.scheduler.capacity.root.dev.maximum-capacity</name><value>50</value></property>
</configuration>`
	if !js[bool](p, `document.querySelector('#import').open`) {
		p.click("#import summary")
	}
	p.set("#import-text", xml, "input")
	p.click("#import-xml")
	p.wait(`!!document.querySelector('#queue-tree li[data-queue="root.dev"]')`, "the imported tree")
	require.Contains(t, p.text(`#queue-tree li[data-queue="root.dev"]`), "50.0%")
	p.wait(counter+`.startsWith('step 0 of 3')`, "the start, steps kept")

	// A malformed XML import shows an error and keeps the work.
	work := p.state()
	p.set("#import-text", "<configuration><property>", "input")
	p.click("#import-xml")
	p.wait(errorText+`.includes('not a configuration file')`, "the XML refusal")
	require.Equal(t, work, p.state(), "the work is unchanged")
	p.screenshot("import-error.png")

	// Reload keeps the work (saved to localStorage as it changes).
	p.click("#tl-forward")
	p.wait(counter+`.startsWith('step 1 of 3')`, "step 1")
	p.wait(`(localStorage.getItem('yarnplay.work') || '').includes('"link":"s=1.') && (localStorage.getItem('yarnplay.work') || '').includes('t=1')`, "the work saved")
	kept := p.state()
	require.NoError(t, chromedp.Do(tab, chromedp.Reload()))
	p.waitFor(counter+`.startsWith('step 1 of 3')`, "the work after a reload", renderTimeout)
	require.Equal(t, kept, p.state())

	// A malformed link and an oversized link show an error and keep the work.
	for _, bad := range []struct{ name, frag, want string }{
		{"malformed", "#s=1.not*base64", "link"},
		{"oversized", "#s=1." + strings.Repeat("A", 1<<20+16), "link"},
	} {
		require.NoError(t, chromedp.Do(tab, chromedp.Navigate("about:blank")))
		p.open(url + bad.frag)
		p.wait(errorText+`.includes(`+q(bad.want)+`)`, "the error of the "+bad.name+" link")
		p.wait(counter+`.startsWith('step 1 of 3')`, "the work kept after the "+bad.name+" link")
		require.Contains(t, p.text("#queue-tree"), "root.dev")
	}
	p.screenshot("link-error.png")

	// Play stops when the menu opens another lesson: the lesson starts
	// paused at its first step. The menu's links open lessons inside the
	// app (the page is not loaded again: the marker stays).
	playing, other := lessonSteps(t, "elastic-borrowing"), lessonSteps(t, "user-limits")
	menuLesson := func(slug string) {
		if !js[bool](p, `document.querySelector('.lesson-menu details').open`) {
			p.click(".lesson-menu summary")
		}
		p.click(`.lesson-menu a[href$="/lessons/` + slug + `"]`)
	}
	js[bool](p, `window.samePage = true`)
	menuLesson("elastic-borrowing")
	p.wait(counter+`.startsWith('step 0 of `+fmt.Sprint(playing)+` ')`, "the elastic-borrowing lesson")
	p.click("#tl-play")
	p.wait(`document.querySelector('#tl-play').getAttribute('aria-pressed') === 'true' && /^step [2-9]/.test(`+counter+`)`, "play, two steps on")
	menuLesson("user-limits")
	p.wait(`window.samePage === true && `+counter+`.startsWith('step 0 of `+fmt.Sprint(other)+` ') && `+
		`document.querySelector('#tl-play').getAttribute('aria-pressed') === 'false'`, "the next lesson at its start, paused")
	require.False(t, js[bool](p, `document.querySelector('.lesson-menu details').open`), "choosing a lesson closes the menu")

	scheme(t, tab, true)
	p.screenshot("playground-dark.png")
	require.NoError(t, chromedp.Do(tab, chromedp.EmulateViewport(390, 844)))
	p.screenshot("playground-narrow.png")
	// On a phone every control of the timeline is on screen.
	for _, id := range []string{"#tl-back", "#tl-play", "#tl-forward", "#tl-fork", "#tl-reset", "#tl-help"} {
		require.True(t, js[bool](p, `(() => { const r = document.querySelector(`+q(id)+`).getBoundingClientRect();
			return r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight })()`),
			"%s is on screen at 390x844", id)
	}
	require.Empty(t, problems(), "the page reported JavaScript errors")
}

// lessonSteps returns the number of steps of a lesson.
func lessonSteps(t *testing.T, slug string) int {
	t.Helper()
	sc, err := lessons.Load(slug)
	require.NoError(t, err)
	return len(sc.Steps)
}

// plural is "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprint(n) + " " + thing + "s"
}
