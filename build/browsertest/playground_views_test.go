package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/scenarios/lessons"
)

// overflowing lists the elements that spill out of their panel (a column's
// child, an editor, the metrics bar, the timeline) or the panels that
// spill out of their column, and whether the page scrolls sideways. An
// element inside a box that scrolls or clips (overflow-x not visible)
// does not spill: the box holds it.
const overflowing = `(() => {
  const out = [];
  const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\s+/).join('.') : '');
  const inside = (e, box, limit) => {
    const r = e.getBoundingClientRect(), b = box.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) return true;
    for (let a = e.parentElement; a && a !== limit; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') return true;
    }
    return r.left >= b.left - 1 && r.right <= b.right + 1;
  };
  const cols = [...document.querySelectorAll('.pg-left, .pg-centre, .pg-right, .pg-editors')];
  for (const col of cols) {
    // A column drawn as its children alone (display: contents) holds
    // them in the layout's grid.
    const box = getComputedStyle(col).display === 'contents' ? col.parentElement : col;
    for (const panel of col.children) {
      if (!inside(panel, box, box)) out.push(name(panel) + ' spills out of ' + name(box));
      for (const e of panel.querySelectorAll('*')) {
        if (!inside(e, panel, panel)) out.push(name(e) + ' spills out of ' + name(panel));
      }
    }
  }
  for (const panel of document.querySelectorAll('.cluster-metrics, .timeline')) {
    for (const e of panel.querySelectorAll('*')) {
      if (!inside(e, panel, panel)) out.push(name(e) + ' spills out of ' + name(panel));
    }
  }
  if (document.documentElement.scrollWidth > innerWidth + 1) {
    out.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' px in ' + innerWidth);
  }
  return [...new Set(out)].slice(0, 25);
})()`

// nodeMotion counts the animations and transitions running on the node
// views' cells and strip segments (Web Animations of CSS animations and
// transitions).
const nodeMotion = `document.getAnimations().filter(a => a.effect && a.effect.target &&
  a.effect.target.closest && a.effect.target.closest('.nodegrid') &&
  a.effect.target.matches('.cell, .ns-blk') && a.playState === 'running').length`

// viewShot writes what the window shows now (not the whole page) to the
// screenshots.
func viewShot(p *page, name string) {
	if png, err := chromedp.Run(p.tab, chromedp.CaptureScreenshot()); err == nil {
		_ = os.WriteFile(filepath.Join(p.shot, name), png, 0o644)
	}
}

// countMotion counts, in window.ypNodeMotion, the CSS animations and
// transitions that start on the node views' cells and segments from now
// on (the events fire even when the page is too slow to be polled while
// an animation of half a second runs).
const countMotion = `(() => {
  window.ypNodeMotion = 0;
  if (!window.ypNodeMotionOn) {
    window.ypNodeMotionOn = true;
    const count = e => { if (e.target.closest && e.target.closest('.nodegrid') && e.target.matches('.cell, .ns-blk')) window.ypNodeMotion++; };
    document.addEventListener('animationstart', count, true);
    document.addEventListener('transitionstart', count, true);
  }
  return true;
})()`

// media emulates the given media features (colour scheme, reduced motion).
func media(t *testing.T, tab context.Context, features ...*emulation.MediaFeature) {
	t.Helper()
	require.NoError(t, chromedp.Do(tab, chromedp.Func(func(ctx context.Context, tt *chromedp.Target) error {
		_, err := cdp.Call(ctx, tt, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: features})
		return err
	})))
}

// TestBrowserPlaygroundViews checks what a learner sees of the RM UI's
// numbers, the motion of a tick, and the layout at three sizes.
func TestBrowserPlaygroundViews(t *testing.T) {
	_, root, p, problems := sitePage(t, 8*time.Minute)
	url := p.url
	require.NoError(t, chromedp.Do(p.tab, chromedp.EmulateViewport(1400, 900)))

	// The default lesson: after its tick, the node cells move.
	def := lessons.Default()
	sc, err := lessons.Load(def)
	require.NoError(t, err)
	p.open(url)
	tick := 0
	for i, st := range sc.Steps {
		if st.Kind() == "tick" {
			tick = i + 1
			break
		}
	}
	require.NotZero(t, tick, "the default lesson ticks")
	for k := 1; k < tick; k++ {
		p.click("#tl-forward")
		p.wait(counter+`.startsWith('step `+strconv.Itoa(k)+` of')`, fmt.Sprintf("step %d", k))
	}
	js[bool](p, countMotion)
	p.click("#tl-forward")
	p.wait(counter+`.startsWith('step `+strconv.Itoa(tick)+` of')`, "the tick")
	require.Contains(t, p.text("#tl-counter"), "tick of all nodes", "the counter says what the step is")
	p.wait(`window.ypNodeMotion > 0 || `+nodeMotion+` > 0`, "containers growing into their node cells after the tick")
	viewShot(p, "views-tick-motion.png")

	// The header counts the containers drawn.
	drawn := js[int](p, `document.querySelectorAll('.node-card .cell.blk.first, .ns-blk:not(.done)').length`)
	require.Positive(t, drawn)
	p.wait(`((document.querySelector('#cluster-metrics [data-field="containers-running"] dd') || {}).textContent || '') === `+q(strconv.Itoa(drawn)),
		"Containers Running: the containers the nodes draw")

	// With reduced motion, the same step moves nothing on the nodes.
	media(t, p.tab, &emulation.MediaFeature{Name: "prefers-reduced-motion", Value: "reduce"})
	p.click("#tl-back")
	p.wait(counter+`.startsWith('step `+strconv.Itoa(tick-1)+` of')`, "back before the tick")
	js[bool](p, `(() => { window.ypNodeMotion = 0; return true })()`)
	p.click("#tl-forward")
	p.wait(counter+`.startsWith('step `+strconv.Itoa(tick)+` of')`, "the tick again")
	require.Zero(t, js[int](p, nodeMotion), "prefers-reduced-motion: the cells do not move")
	require.Zero(t, js[int](p, `window.ypNodeMotion`), "prefers-reduced-motion: no animation started on the nodes")
	media(t, p.tab)

	// Elastic borrowing at its end: infinite-monkeys' numbers, users, apps.
	slug := "elastic-borrowing"
	p.open(url + "lessons/" + slug)
	p.click("#tl-last")
	n := lessonSteps(t, slug)
	p.wait(counter+`.startsWith('step `+strconv.Itoa(n)+` of')`, "the lesson's last step")
	leaf := "root.grumpy-engineers.infinite-monkeys"
	p.click(`.qb-row[data-queue="` + leaf + `"]`)
	p.wait(`(document.querySelector('#queue-detail') || {dataset: {}}).dataset.queue === `+q(leaf), "the queue detail of infinite-monkeys")
	js[bool](p, `(() => { window.scrollTo(0, 0); return true })()`)

	native := store.New()
	lsc, err := lessons.Load(slug)
	require.NoError(t, err)
	require.NoError(t, native.Load(lsc, slug))
	native.Last()
	native.Select(leaf)
	f := native.Frame()
	var qv = f.Queues[0]
	for _, x := range f.Queues {
		if x.Path == leaf {
			qv = x
		}
	}
	field := func(name string) string {
		return p.text(`#queue-detail [data-field="` + name + `"] .qd-value`)
	}
	require.Equal(t, fmt.Sprintf("%.1f%%", qv.UsedCapacity*100), field("used-capacity"), "Used Capacity is relative to the guarantee")
	require.Equal(t, string(qv.State), field("state"))
	require.Equal(t, strconv.Itoa(qv.MaxApps), field("max-apps"))
	require.Equal(t, strconv.Itoa(qv.MaxAppsPerUser), field("max-apps-per-user"))
	require.Equal(t, "fifo", field("ordering-policy"))
	require.Equal(t, "disabled", field("preemption"))
	require.Contains(t, p.text(`#queue-detail [data-field="preemption"]`), "monitor.enable is false", "the reason is in view")
	require.Contains(t, p.text(`#queue-detail [data-field="max-am"]`), "Hadoop takes the larger", "the AM limit's rule is in view")
	require.Contains(t, p.text(`#queue-detail [data-field="calculator"]`), "only memory is compared")
	containers := 0
	for _, a := range f.Apps {
		if a.Queue == leaf {
			containers += a.LiveContainers
		}
	}
	require.Equal(t, strconv.Itoa(containers), field("num-containers"))
	users := js[[]string](p, `[...document.querySelectorAll('#active-users tbody tr')].map(tr => tr.dataset.user)`)
	var wantUsers []string
	for _, u := range qv.Users {
		wantUsers = append(wantUsers, u.Name)
	}
	require.Equal(t, wantUsers, users, "the Active Users Info table lists the leaf's users")
	heads := p.text("#active-users thead")
	for _, h := range []string{"Weight", "Max Resource", "Used Resource", "Max AM Resource", "Schedulable Apps", "Non-Schedulable Apps"} {
		require.Contains(t, heads, h)
	}
	heads = p.text("#ae-apps thead")
	for _, h := range []string{"Application Priority", "StartTime", "FinishTime", "Allocated Memory MB", "Allocated CPU VCores", "Reserved", "% of Queue", "% of Cluster"} {
		require.Contains(t, heads, h)
	}
	metrics := p.text("#cluster-metrics")
	for _, h := range []string{"Apps Submitted", "Apps Pending", "Apps Running", "Apps Completed", "Containers Running",
		"Memory Used", "Memory Total", "Memory Reserved", "VCores Used", "VCores Total", "Active Nodes"} {
		require.Contains(t, metrics, h)
	}

	// At 1400×900, the leaf's every app is on screen without scrolling.
	cards := js[[]string](p, `[...document.querySelectorAll('.lane[data-queue=`+q(leaf)+`] .app-card')].map(c => {
	  const r = c.getBoundingClientRect();
	  return c.dataset.app + (r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth ? '' : ' off screen ' + Math.round(r.top) + '..' + Math.round(r.bottom));
	})`)
	require.NotEmpty(t, cards)
	for _, c := range cards {
		require.NotContains(t, c, "off screen", "at 1400×900 every app of the selected leaf is visible")
	}
	require.Zero(t, js[float64](p, `scrollY`))
	viewShot(p, "views-leaf-1400.png")

	// An import error shows next to the import control and takes focus;
	// a blank scenario over the lesson can be undone.
	p.click("#import summary")
	p.set("#import-text", "<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property>"+
		"<property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property></configuration>", "input")
	p.click("#import-xml")
	p.wait(`!!document.querySelector('#import-error:not([hidden])')`, "the import error")
	p.wait(`document.activeElement && document.activeElement.id === 'import-error'`, "the import error, focused")
	require.Contains(t, p.text("#import-error"), "(", "Hadoop's fraction is followed by its percentage")
	require.True(t, js[bool](p, `(() => {
	  const e = document.querySelector('#import-error').getBoundingClientRect(), c = document.querySelector('#import-xml').getBoundingClientRect();
	  return e.top >= 0 && e.bottom <= innerHeight && Math.abs(e.top - c.bottom) < 200;
	})()`), "the import error is on screen, next to the import control")
	js[bool](p, `(() => { document.querySelector('#import-error').scrollIntoView({block: 'center'}); return true })()`)
	viewShot(p, "views-import-error.png")
	p.click("#new-blank")
	p.wait(`!!document.querySelector('#undo-bar:not([hidden]) #undo')`, "the undo bar after a blank scenario")
	require.Contains(t, p.text("#undo-text"), "blank scenario")
	p.click("#undo")
	p.wait(counter+`.startsWith('step `+strconv.Itoa(n)+` of `+strconv.Itoa(n)+`')`, "the lesson back at its last step")
	require.Equal(t, leaf, js[string](p, `document.querySelector('#queue-detail').dataset.queue`), "with its selection")
	for _, shot := range []struct{ sel, name string }{{"#ae-apps", "views-app-table.png"}, {"#queue-detail .qd-rows", "views-queue-detail.png"}, {"#active-users", "views-active-users.png"}, {".usage-chart", "views-usage-chart.png"}} {
		js[bool](p, `(() => { document.querySelector(`+q(shot.sel)+`).scrollIntoView({block: 'start'}); return true })()`)
		viewShot(p, shot.name)
	}
	js[bool](p, `(() => { window.scrollTo(0, 0); return true })()`)

	// Nothing spills out of its panel at three sizes.
	for _, size := range []struct{ w, h int64 }{{1400, 900}, {1024, 768}, {390, 844}} {
		require.NoError(t, chromedp.Do(p.tab, chromedp.EmulateViewport(size.w, size.h)))
		p.wait(`innerWidth === `+strconv.FormatInt(size.w, 10), fmt.Sprintf("the %d px wide window", size.w))
		bad := js[[]string](p, overflowing)
		p.screenshot(fmt.Sprintf("views-layout-%dx%d.png", size.w, size.h))
		viewShot(p, fmt.Sprintf("views-layout-%dx%d-top.png", size.w, size.h))
		require.Empty(t, bad, "at %d×%d: %s", size.w, size.h, strings.Join(bad, "\n"))
		if size.w < 800 {
			require.True(t, js[bool](p, `document.querySelector('.lane').getBoundingClientRect().top < document.querySelector('#queue-detail').getBoundingClientRect().top`),
				"on a phone the leaf's lane comes before the queue's numbers")
		}
	}

	// The book's unrooted key is imported with a word that it names no queue.
	require.NoError(t, chromedp.Do(p.tab, chromedp.EmulateViewport(1400, 900)))
	if !js[bool](p, `document.querySelector('#import').open`) {
		p.click("#import summary")
	}
	p.set("#import-text", `<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>finance-wizards</value></property>
<property><name>yarn.scheduler.capacity.root.finance-wizards.capacity</name><value>100</value></property>
<property><name>yarn.scheduler.capacity.finance-wizards.queues</name><value>meticulous-accountants,thrifty-treasurers</value></property>
</configuration>`, "input")
	p.click("#import-xml")
	p.wait(`((document.querySelector('#config-warnings') || {}).textContent || '').includes('yarn.scheduler.capacity.finance-wizards.queues names no queue')`,
		"the warning on the unrooted key")
	js[bool](p, `(() => { document.querySelector('#config-warnings').scrollIntoView({block: 'center'}); return true })()`)
	viewShot(p, "views-import-warning.png")

	// "Why is this application waiting?" on the user-limits lesson, once
	// its leaf is full and containers free up: the user limit.
	p.open(url + "lessons/user-limits")
	p.wait(counter+`.startsWith('step 0 of')`, "the user-limits lesson")
	p.set("#tl-slider", "14", "input")
	p.wait(counter+`.startsWith('step 14 of')`, "step 14")
	p.set("#why-app", "hillegas-app", "change")
	p.click("#why-ask")
	p.wait(`!!document.querySelector('#why-answer .why-verdict[data-rule="user-limit"]')`, "the user limit named")
	require.Equal(t, "user-limit", js[string](p, `document.querySelector('#why-answer li.stopped').dataset.rule`),
		"the chain stops at the user limit")
	require.Contains(t, p.text("#why-answer"), "hillegas's user limit in root.finance-wizards.thrifty-treasurers")
	require.Equal(t, 5, js[int](p, `document.querySelectorAll('#why-answer li.passed').length`), "the checks before it passed")
	js[bool](p, `(() => { document.querySelector('#why-panel').scrollIntoView({block: 'center'}); return true })()`)
	viewShot(p, "views-why-waiting.png")
	// A step on asks again.
	p.click("#tl-forward")
	p.wait(counter+`.startsWith('step 15 of')`, "step 15")
	p.wait(`((document.querySelector('#why-answer .why') || {}).textContent || '').includes('As of step 15')`, "the answer asked again at step 15")

	// A running cluster's REST responses, chosen together, open as a
	// scenario with its assumptions in view, and say why an app waits.
	dir, err := filepath.Abs(filepath.Join(root, "scenarios", "snapshot", "testdata", "rules"))
	require.NoError(t, err)
	if !js[bool](p, `document.querySelector('#import').open`) {
		p.click("#import summary")
	}
	require.NoError(t, chromedp.Do(p.tab, chromedp.SetUploadFiles("#import-snapshot", []string{
		filepath.Join(dir, "apps.xml"), filepath.Join(dir, "nodes.json"), filepath.Join(dir, "scheduler.json"),
	})))
	p.wait(`!!document.querySelector('#assumptions') && `+counter+`.startsWith('step 1 of')`, "the snapshot open, with its assumptions")
	require.Contains(t, p.text("#lesson-title"), "cluster snapshot")
	p.set("#why-app", "application_1476912658570_0002", "change")
	p.click("#why-ask")
	p.wait(`!!document.querySelector('#why-answer .why-verdict[data-rule="user-limit"]')`, "the snapshot's app waits for its user limit")
	js[bool](p, `(() => { document.querySelector('#assumptions').open = true; document.querySelector('#assumptions').scrollIntoView({block: 'start'}); return true })()`)
	viewShot(p, "views-snapshot.png")
	require.Empty(t, problems(), "the page's console")
}
