package app

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/core/config"
	"yarnplay/scenarios"
)

// bigTree is a frame of benchmark 5's tree: root, 10 parents of 10 parents
// of 10 leaves each (1,111 queues, root.p0.p0.l0 to root.p9.p9.l9), on one
// node.
func bigTree(t *testing.T) *store.Frame {
	t.Helper()
	conf := map[string]string{}
	var add func(path string, depth int)
	add = func(path string, depth int) {
		prefix := []string{"p", "p", "l"}[depth]
		var kids []string
		for i := range 10 {
			kid := fmt.Sprint(prefix, i)
			kids = append(kids, kid)
			conf[config.QueueKey(path+"."+kid, config.SuffixCapacity)] = "10"
			if depth < 2 {
				add(path+"."+kid, depth+1)
			}
		}
		conf["yarn.scheduler.capacity."+path+".queues"] = strings.Join(kids, ",")
	}
	add("root", 0)
	sc := &scenarios.Scenario{Version: 1, Name: "big tree", Config: conf,
		Nodes: []scenarios.NodeSpec{{Name: "n0", MemoryMB: 65536, VCores: 64}}}
	s := store.New()
	require.NoError(t, s.Load(sc, ""))
	f := s.Frame()
	require.Empty(t, f.Err)
	require.Len(t, f.Queues, 1111)
	return f
}

// drawnQueues lists the data-queue of the rows of class class drawn in
// html, in order.
func drawnQueues(html, class string) []string {
	var out []string
	re := regexp.MustCompile(`<li [^>]*>`)
	for _, li := range re.FindAllString(html, -1) {
		if !strings.Contains(li, `class="`+class+`"`) {
			continue
		}
		out = append(out, regexp.MustCompile(`data-queue="([^"]+)"`).FindStringSubmatch(li)[1])
	}
	return out
}

// attrOf is the value of attribute name in the row of queue path.
func attrOf(t *testing.T, html, path, name string) string {
	t.Helper()
	li := regexp.MustCompile(`<li [^>]*data-queue="` + regexp.QuoteMeta(path) + `"[^>]*>`).FindString(html)
	require.NotEmpty(t, li, "no row for %s", path)
	m := regexp.MustCompile(name + `="([^"]*)"`).FindStringSubmatch(li)
	require.NotNil(t, m, "%s has no %s: %s", path, name, li)
	return m[1]
}

// At 1,111 queues the capacities table draws only a window of rows, each
// at its place among 1,111 list items (the others empty placeholders,
// hidden from screen readers); each row says its level and place among its
// siblings.
func TestQueueTreeDrawsOnlyTheRowsOnScreen(t *testing.T) {
	f := bigTree(t)
	v, ok := frameView(f)
	require.True(t, ok)
	var order []string
	v.Root.Walk(func(q QueueView) { order = append(order, q.Path) })

	html := render(t, nil, &QueueTree{Root: v.Root})
	require.Equal(t, order[:initialRows], drawnQueues(html, "queue"), "before the list is looked at, its first rows")
	require.Equal(t, 1111-initialRows, strings.Count(html, `<li></li>`))
	require.Equal(t, 1111, len(drawnQueues(html, "queue"))+strings.Count(html, `<li></li>`), "a list item per queue, at its place")
	has(t, html, `class="queue-list slotted"`)

	// Scrolled to the middle: the rows there, and nothing else.
	tree := &QueueTree{Root: v.Root}
	tree.win.set(500, 560)
	html = render(t, nil, tree)
	require.Equal(t, order[500:560], drawnQueues(html, "queue"))
	require.Equal(t, 1111-60, strings.Count(html, `<li></li>`))
	p := order[505] // a leaf
	require.Equal(t, "4", attrOf(t, html, p, "aria-level"))
	require.Equal(t, "10", attrOf(t, html, p, "aria-setsize"))
	require.Equal(t, fmt.Sprint(int(p[len(p)-1]-'0')+1), attrOf(t, html, p, "aria-posinset"))

	// A small tree is drawn whole, without placeholders.
	small := render(t, nil, &QueueTree{Root: defaultView(t).Root})
	require.NotContains(t, small, "<li></li>")
	require.NotContains(t, small, "slotted")
	require.Equal(t, "1", attrOf(t, small, "root", "aria-level"))
	require.Equal(t, "2", attrOf(t, small, "root.grumpy-engineers", "aria-level"))
}

// At 1,111 queues the queue editor draws the rows on screen, and keeps
// drawn the row holding the focus, the one Hadoop's message is about and
// the one whose properties are open. An edit in a row not drawn is in the
// draft, and shows when the row is drawn again.
func TestQueueEditorDrawsOnlyTheRowsOnScreen(t *testing.T) {
	f := bigTree(t)
	rows := qeRows(f.Conf)
	require.Len(t, rows, 1111)
	var order []string
	for _, r := range rows {
		order = append(order, r.path)
	}
	require.Equal(t, "root.p0.p0.l0", order[3])

	html := render(t, nil, &QueueEditor{F: f})
	require.Equal(t, order[:initialRows], drawnQueues(html, "qe-queue"))
	require.Equal(t, 1111-initialRows, strings.Count(html, `<li></li>`))
	require.Equal(t, initialRows-1, strings.Count(html, `class="qe-name"`)-1, "a name field per drawn queue but root (and the add form's)")

	// A refused edit far down the list, in the draft only.
	far := "root.p9.p9.l7"
	key := config.QueueKey(far, config.SuffixCapacity)
	ed := &QueueEditor{F: f, draft: store.SetQueueProperty(f.Conf, far, config.SuffixCapacity, "55"), dirty: true,
		issue: &store.Issue{Queue: "root.p9.p9", Message: "capacities of the children of root.p9.p9 sum to 145%"}}
	ed.open = "root.p5"
	tree := &qeTree{Ed: ed, Draft: ed.draft, Issue: ed.issue, Open: ed.open}
	tree.win.set(100, 160)
	tree.win.focused = 21 // row 20 held the focus at the last look
	html = render(t, nil, tree)
	i := func(path string) int {
		for k, p := range order {
			if p == path {
				return k
			}
		}
		t.Fatalf("no queue %s", path)
		return -1
	}
	want := append([]string{order[20]}, order[100:160]...)
	if o := i("root.p5"); o >= 160 {
		want = append(want, "root.p5")
	}
	want = append(want, "root.p9.p9")
	require.Equal(t, want, drawnQueues(html, "qe-queue"), "the window, the focused row, the open one and the broken one")
	require.NotContains(t, html, `data-queue="`+far+`" data-prop`, "the edited row is not drawn")
	require.Contains(t, html, "sum to 145%", "Hadoop's message is on its row")
	has(t, html, `id="qe-root-p5-maximum-am-resource-percent"`)

	// Scrolled to it: the edit is there.
	tree = &qeTree{Ed: ed, Draft: ed.draft, Issue: ed.issue}
	tree.win.set(i(far)-20, i(far)+20)
	html = render(t, nil, tree)
	input := regexp.MustCompile(`<input [^>]*id="qe-root-p9-p9-l7-capacity"[^>]*>`).FindString(html)
	require.Contains(t, input, `value="55"`, "the draft's value for %s", key)
	require.Equal(t, "4", attrOf(t, html, far, "aria-level"))
	require.Equal(t, "8", attrOf(t, html, far, "aria-posinset"))
	require.Equal(t, "10", attrOf(t, html, far, "aria-setsize"))
}

// The window follows what a look at the list found, clamped to the rows.
func TestRowWindowSpan(t *testing.T) {
	var w rowWindow
	first, last := w.span(1111)
	require.Equal(t, []int{0, initialRows}, []int{first, last})
	first, last = w.span(10)
	require.Equal(t, []int{0, 10}, []int{first, last})
	require.True(t, w.set(1000, 1200))
	require.False(t, w.set(1000, 1200))
	first, last = w.span(1111)
	require.Equal(t, []int{1000, 1111}, []int{first, last})

	var s slotWindow
	require.True(t, s.drawn(5, 0, 10))
	require.False(t, s.drawn(10, 0, 10))
	require.False(t, s.drawn(0, 5, 10), "no row holds the focus")
	require.True(t, s.drawn(50, 0, 10, -1, 50))
	s.focused = 1
	require.True(t, s.drawn(0, 5, 10))
	require.Equal(t, "3rem", s.height("3rem"))
	s.rowH = 41.25
	require.Equal(t, "41.2px", s.height("3rem"))
}

// A placeholder is an empty list item without attributes (the stylesheet
// sizes and hides it).
func TestSlotPlaceholderIsEmpty(t *testing.T) {
	require.Equal(t, "<li></li>", strings.TrimSpace(app.HTMLString(slotPlaceholder())))
}

// barItems lists the bars' drawn rows: each row's queue (on its button)
// and the attributes of its list item.
func barItems(html string) (queues []string, items map[string]string) {
	items = map[string]string{}
	for _, chunk := range strings.Split(html, "<li ")[1:] {
		tag := chunk[:strings.IndexByte(chunk, '>')]
		if !strings.Contains(tag, `class="qb-item"`) {
			continue
		}
		q := regexp.MustCompile(`data-queue="([^"]+)"`).FindStringSubmatch(chunk)[1]
		queues = append(queues, q)
		items[q] = tag
	}
	return queues, items
}

// At 1,111 queues the bars draw the rows on screen, each at its place
// among the list's items and telling it to screen readers, and keep drawn
// the row holding the focus.
func TestQueueBarsDrawOnlyTheRowsOnScreen(t *testing.T) {
	f := bigTree(t)
	bars := &QueueBars{Frame: *f}
	bars.win.set(300, 340)
	bars.win.focused = 1000 + 1
	html := render(t, nil, bars)
	var want []string
	for _, q := range f.Queues[300:340] {
		want = append(want, q.Path)
	}
	want = append(want, f.Queues[1000].Path)
	got, items := barItems(html)
	require.Equal(t, want, got)
	require.Equal(t, 1111-41, strings.Count(html, `<li></li>`))
	require.Equal(t, 1111, len(got)+strings.Count(html, `<li></li>`), "a list item per queue, at its place")
	require.Contains(t, items[f.Queues[300].Path], `aria-posinset="301"`)
	require.Contains(t, items[f.Queues[300].Path], `aria-setsize="1111"`)
	require.Contains(t, items[f.Queues[1000].Path], `aria-posinset="1001"`)

	small := render(t, nil, &QueueBars{Frame: fixtureFrame(t, 14, "", "")})
	require.NotContains(t, small, "<li></li>")
	require.NotContains(t, small, "aria-posinset")
}
