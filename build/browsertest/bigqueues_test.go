package browsertest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"yarnplay/scenarios"
)

// bigTreeScenario is benchmark 5's queue tree on one node: root, 10
// parents of 10 parents of 10 leaves each (1,111 queues), and its queues'
// paths in the order the page lists them (depth first).
func bigTreeScenario() (*scenarios.Scenario, []string) {
	conf := map[string]string{}
	order := []string{"root"}
	var add func(path string, depth int)
	add = func(path string, depth int) {
		var kids []string
		for i := range 10 {
			kid := fmt.Sprint([]string{"p", "p", "l"}[depth], i)
			kids = append(kids, kid)
			order = append(order, path+"."+kid)
			conf["yarn.scheduler.capacity."+path+"."+kid+".capacity"] = "10"
			if depth < 2 {
				add(path+"."+kid, depth+1)
			}
		}
		conf["yarn.scheduler.capacity."+path+".queues"] = strings.Join(kids, ",")
	}
	add("root", 0)
	return &scenarios.Scenario{Version: 1, Name: "Benchmark 5's tree", Config: conf,
		Nodes: []scenarios.NodeSpec{{Name: "n0", MemoryMB: 65536, VCores: 64}}}, order
}

// drawnRows reads a slotted list's drawn rows: each row's place among the
// list's children and its queue, and whether every child the window shows
// is drawn.
const drawnRows = `((sel) => {
  const list = document.querySelector(sel);
  const kids = [...list.children];
  const rows = [];
  let gap = false;
  kids.forEach((li, i) => {
    const r = li.getBoundingClientRect();
    const onScreen = r.bottom > 0 && r.top < window.innerHeight && r.height > 0;
    if (li.matches(':empty')) { if (onScreen) gap = true; return; }
    rows.push({i, queue: li.dataset.queue || li.querySelector('[data-queue]').dataset.queue});
  });
  return {children: kids.length, rows, gap};
})`

type drawn struct {
	Children int `json:"children"`
	Rows     []struct {
		I     int    `json:"i"`
		Queue string `json:"queue"`
	} `json:"rows"`
	Gap any `json:"gap"` // false, or the first placeholder on screen
}

// TestBrowserBigTreeDrawsTheRowsOnScreen opens benchmark 5's tree (1,111
// queues) and scrolls the capacities table and the queue editor: each
// draws the rows on screen, and the right ones, and a few around them;
// an edit in the editor is kept when its row is scrolled away and back,
// the focus stays in a field scrolled away, and Tab goes from field to
// field in the rows' order.
func TestBrowserBigTreeDrawsTheRowsOnScreen(t *testing.T) {
	_, _, p, problems := sitePage(t, 10*time.Minute)
	require.NoError(t, chromedp.Do(p.tab, chromedp.EmulateViewport(1400, 900)))
	sc, order := bigTreeScenario()
	require.Len(t, order, 1111)
	link, err := scenarios.EncodeLink(sc, 0, "")
	require.NoError(t, err)
	p.open(p.url + "#" + link)
	p.waitFor(`!!document.querySelector('#queue-tree > li[data-queue="root.p0.p0.l0"]')`, "the big tree", 2*time.Minute)

	check := func(sel, what string) drawn {
		t.Helper()
		// Rows drawn at their real heights move the ones after them: the
		// list looks again in the next frames, until the rows on screen
		// are all drawn.
		p.wait(`!`+drawnRows+`(`+q(sel)+`).gap`, what+": every row on screen drawn")
		d := js[drawn](p, drawnRows+`(`+q(sel)+`)`)
		require.Equal(t, len(order), d.Children, "%s: a list item per queue", what)
		require.Equal(t, false, d.Gap, "%s: a placeholder on screen", what)
		require.NotEmpty(t, d.Rows)
		require.Less(t, len(d.Rows), 120, "%s: only the rows on screen and around them are drawn", what)
		for _, r := range d.Rows {
			require.Equal(t, order[r.I], r.Queue, "%s: row %d", what, r.I)
		}
		t.Logf("%s: %d rows drawn, %d to %d", what, len(d.Rows), d.Rows[0].I, d.Rows[len(d.Rows)-1].I)
		return d
	}
	// scrollTo brings row i of a list to the middle of the window and waits
	// until it is drawn.
	scrollTo := func(sel string, i int) {
		t.Helper()
		js[bool](p, `(() => { document.querySelector(`+q(sel)+`).children[`+fmt.Sprint(i)+`].scrollIntoView({block: 'center'}); return true })()`)
		p.wait(`(() => { const li = document.querySelector(`+q(sel)+`).children[`+fmt.Sprint(i)+`];
  return !li.matches(':empty') && (li.dataset.queue || li.querySelector('[data-queue]').dataset.queue) === `+q(order[i])+` })()`, fmt.Sprintf("row %d (%s) of %s drawn", i, order[i], sel))
	}

	// shot captures the window as it is (a full-page screenshot would
	// resize the window to the page, and the lists would draw every row).
	shot := func(name string) {
		t.Helper()
		png, err := chromedp.Run(p.tab, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(p.shot, name), png, 0o644))
	}

	// The bars, as the page opened them: their first frame drew the rows
	// on screen alone, the looks after it a place for every queue.
	check(".qb-list", "the bars as opened")

	// The capacities table, at its top and far down.
	js[bool](p, `(() => { document.querySelector('#capacities').scrollIntoView(); return true })()`)
	scrollTo("#queue-tree", 0)
	check("#queue-tree", "the table at its top")
	scrollTo("#queue-tree", 700)
	d := check("#queue-tree", "the table at row 700")
	require.Greater(t, d.Rows[0].I, 600, "the rows above are no longer drawn")
	shot("big-tree-table.png")
	require.Equal(t, "4", js[string](p, `document.querySelector('#queue-tree > li[data-queue="`+order[700]+`"]').getAttribute('aria-level')`))

	// The bars: Tab goes from row to row, in order, through rows drawn as
	// the focus moves down the window.
	scrollTo(".qb-list", 8)
	js[bool](p, `(() => { document.querySelector('.qb-row[data-queue="root.p0.p0.l5"]').focus(); return true })()`)
	var tabbed []string
	for range 40 {
		require.NoError(t, chromedp.Do(p.tab, chromedp.KeyEvent("\t")))
		tabbed = append(tabbed, js[string](p, `document.activeElement.dataset.queue || document.activeElement.tagName`))
	}
	require.Equal(t, order[9:49], tabbed, "Tab from root.p0.p0.l5 in the bars")
	check(".qb-list", "the bars after 40 Tabs")

	// The editor: an edit far down, Hadoop's refusal.
	const far = "root.p7.p3.l5"
	at := -1
	for i, path := range order {
		if path == far {
			at = i
		}
	}
	field := `#qe-root-p7-p3-l5-capacity`
	scrollTo("#qe-tree", at)
	check("#qe-tree", "the editor at "+far)
	p.set(field, "55", "input")
	p.wait(`!!document.querySelector('.qe-issue:not([hidden])')`, "Hadoop's refusal of 55")
	broken := js[string](p, `document.querySelector('.qe-issue:not([hidden])').closest('li').dataset.queue`)
	t.Logf("Hadoop's message is on %s: %s", broken, p.text(`.qe-issue:not([hidden])`))
	shot("big-tree-editor-refused.png")

	// Scrolled away, with the focus elsewhere: the row is not drawn, the
	// message still is; scrolled back, the edit is there.
	js[bool](p, `(() => { document.activeElement.blur(); return true })()`)
	scrollTo("#qe-tree", 0)
	p.wait(`!document.querySelector(`+q(field)+`)`, "the edited row no longer drawn")
	require.True(t, js[bool](p, `!!document.querySelector('.qe-issue:not([hidden])')`), "Hadoop's message stays on the page")
	check("#qe-tree", "the editor at its top")
	scrollTo("#qe-tree", at)
	p.wait(`document.querySelector(`+q(field)+`).value === '55'`, "the edit, kept")

	// The focus in a field scrolled away stays there.
	js[bool](p, `(() => { document.querySelector(`+q(field)+`).focus(); return true })()`)
	scrollTo("#qe-tree", 100)
	require.True(t, js[bool](p, `document.activeElement === document.querySelector(`+q(field)+`)`), "the focus stays in the field")
	scrollTo("#qe-tree", at)

	// Tab goes from field to field, in the rows' order, through rows drawn
	// as the focus moves down.
	next := order[at+1]
	js[bool](p, `(() => { document.querySelector(`+q(field)+`).focus(); return true })()`)
	var went []string
	for range 12 {
		require.NoError(t, chromedp.Do(p.tab, chromedp.KeyEvent("\t")))
		went = append(went, js[string](p, `(document.activeElement.dataset.queue || '') + ' ' + (document.activeElement.dataset.prop || document.activeElement.className)`))
	}
	t.Logf("Tab from %s: %v", field, went)
	require.Contains(t, went, next+" qe-name", "Tab reaches the next row's name")
	require.Contains(t, went, next+" capacity", "and its capacity")
	for _, w := range went {
		require.True(t, strings.HasPrefix(w, far+" ") || strings.HasPrefix(w, next+" ") || strings.HasPrefix(w, order[at+2]+" "),
			"Tab stays in the rows' order: %v", went)
	}

	// A phone's width.
	require.NoError(t, chromedp.Do(p.tab, chromedp.EmulateViewport(390, 844)))
	scrollTo("#qe-tree", at)
	check("#qe-tree", "the editor at 390 px")
	shot("big-tree-editor-narrow.png")
	scrollTo("#queue-tree", 300)
	check("#queue-tree", "the table at 390 px")
	shot("big-tree-table-narrow.png")
	overflow := js[int](p, `document.documentElement.scrollWidth - window.innerWidth`)
	require.LessOrEqual(t, overflow, 0, "at 390px wide the page scrolls sideways by %dpx", overflow)
	require.Empty(t, problems(), "the page reported JavaScript errors")
}
