package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/core/config"
	"yarnplay/scenarios"
	"yarnplay/scenarios/lessons"
	"yarnplay/wasm/bridge"
)

func TestRoutesAnswerEveryPath(t *testing.T) {
	Routes()
	Routes() // idempotent
	for _, p := range Paths() {
		require.True(t, strings.HasPrefix(p, "/"), p)
	}
	require.Contains(t, Paths(), PathHome)
	for _, l := range lessons.All() {
		require.Contains(t, Paths(), "/lessons/"+l.Slug)
		require.Equal(t, l.Slug, LessonOf(LessonPath(l.Slug)))
	}
	require.Equal(t, "", LessonOf("/"))
}

func TestPagePreRendersTheLessonInert(t *testing.T) {
	e := app.NewTestEngine()
	p := &Page{}
	require.NoError(t, e.Load(p))
	e.ConsumeAll()

	require.True(t, p.prerendered)
	require.NoError(t, app.Match(app.Div().Class("page playground prerendered"), p, 0))
	html := app.HTMLString(p)
	for _, want := range []string{
		`id="queue-tree"`, `data-queue="root.grumpy-engineers.pesky-testers"`, `id="timeline"`,
		"step 0 of ", `id="status"`, "Starting the scheduler", "Opening your work",
	} {
		require.Contains(t, html, want)
	}
	require.Regexp(t, `<div (class="pg" inert|inert class="pg")>`, html, "the playground is inert until the browser takes over")
	require.NotContains(t, html, `data-app="live"`)

	// What a first visit opens in the browser: the same frame.
	fresh, _ := mounted(t, bridge.NewMemoryStorage(), "", "")
	require.Equal(t, fresh.ctl.Frame(), p.ctl.Frame())
	require.False(t, fresh.prerendered)
	require.NotContains(t, app.HTMLString(fresh), "inert")
}

// mounted returns a page mounted with in-memory bridges, as OnMount does
// in the browser, and loaded for a route's lesson.
func mounted(t *testing.T, st bridge.Storage, hash string, slug string) (*Page, app.TestEngine) {
	t.Helper()
	e := app.NewTestEngine()
	p := &Page{}
	frag := bridge.NewMemoryFragment()
	require.NoError(t, frag.Set(hash))
	p.mount(app.Context{}, NewLocalController(store.New()), st, frag)
	p.Load(slug)
	require.NoError(t, e.Load(p))
	e.ConsumeAll()
	return p, e
}

// render mounts c on a fresh engine (a component already mounted on an
// engine is not rendered again by Load) and returns its HTML.
func render(t *testing.T, _ app.TestEngine, c app.Composer) string {
	t.Helper()
	e := app.NewTestEngine()
	require.NoError(t, e.Load(c))
	e.ConsumeAll()
	return app.HTMLString(c)
}

func TestPageShowsTheDefaultLesson(t *testing.T) {
	p, _ := mounted(t, bridge.NewMemoryStorage(), "", "")
	f := p.ctl.Frame()
	require.Equal(t, lessons.Default(), f.Lesson)
	require.NoError(t, app.Match(app.Div().Class("page playground"), p, 0))
	html := app.HTMLString(p)
	for _, want := range []string{
		`id="queue-tree"`, `data-queue="root.grumpy-engineers.pesky-testers"`, `id="timeline"`,
		`id="queue-editor"`, `id="narration"`, "step 0 of ",
	} {
		require.Contains(t, html, want)
	}
}

func TestPageOpensALessonAndKeepsTheWork(t *testing.T) {
	st := bridge.NewMemoryStorage()
	p, _ := mounted(t, st, "", "user-limits")
	require.Equal(t, "user-limits", p.ctl.Frame().Lesson)
	p.Key(app.Context{}, "ArrowRight")
	p.Key(app.Context{}, "ArrowRight")
	require.Equal(t, 2, p.ctl.Frame().Step)

	// A reload (a new page) restores the work, on / and on the lesson's page.
	for _, slug := range []string{"", "user-limits"} {
		again, _ := mounted(t, st, "", slug)
		require.Equal(t, 2, again.ctl.Frame().Step)
		require.Equal(t, "user-limits", again.ctl.Frame().Lesson)
	}
	// Another lesson's page opens that lesson.
	other, _ := mounted(t, st, "", "acls")
	require.Equal(t, "acls", other.ctl.Frame().Lesson)
	require.Equal(t, 0, other.ctl.Frame().Step)
}

// lessonStore returns a store holding the built-in lesson slug at step
// (with the lesson noted as the work's origin when asLesson), and the
// lesson.
func lessonStore(t *testing.T, slug string, asLesson bool, step int) (*store.Store, *scenarios.Scenario) {
	t.Helper()
	sc, err := lessons.Load(slug)
	require.NoError(t, err)
	src, origin := store.New(), ""
	if asLesson {
		origin = slug
	}
	require.NoError(t, src.Load(sc, origin))
	src.Jump(step)
	return src, sc
}

func TestPageOpensLinksAndRefusesBadOnes(t *testing.T) {
	src, sc := lessonStore(t, "elastic-borrowing", false, 5)
	src.Select("root.grumpy-engineers")
	link, err := src.Link()
	require.NoError(t, err)

	st := bridge.NewMemoryStorage()
	p, _ := mounted(t, st, "#"+link, "")
	f := p.ctl.Frame()
	require.Equal(t, 5, f.Step)
	require.Equal(t, "root.grumpy-engineers", f.Selected)
	got, _ := p.hash.Get()
	require.Empty(t, got, "an opened link leaves the address; the work is saved instead")

	for _, bad := range []string{"s=1.@@@", "s=1." + strings.Repeat("A", 1<<20+1)} {
		q, _ := mounted(t, st, bad, "")
		f := q.ctl.Frame()
		require.Contains(t, f.Err, "link")
		require.Equal(t, 5, f.Step, "the saved work is kept")
		require.Equal(t, sc.Name, f.Title)
	}
}

func TestKeysDriveTheTimeline(t *testing.T) {
	p, _ := mounted(t, bridge.NewMemoryStorage(), "", "elastic-borrowing")
	steps := p.ctl.Frame().Steps
	for _, tt := range []struct {
		key  string
		step int
	}{
		{"ArrowRight", 1}, {"ArrowRight", 2}, {"ArrowLeft", 1}, {"End", steps}, {"Home", 0}, {"t", 9},
	} {
		p.Key(app.Context{}, tt.key)
		require.Equal(t, tt.step, p.ctl.Frame().Step, "after %s", tt.key)
	}
	p.Key(app.Context{}, "?")
	require.True(t, p.showKeys)
	p.Key(app.Context{}, "Escape")
	require.False(t, p.showKeys)
	p.Key(app.Context{}, "R")
	require.Equal(t, 0, p.ctl.Frame().Step)
	require.Equal(t, "", shortcut("x"))
}

func TestTimelineRendersTheCounterAndControls(t *testing.T) {
	s := store.New()
	sc, err := lessons.Load("elastic-borrowing")
	require.NoError(t, err)
	require.NoError(t, s.Load(sc, ""))
	ctl := NewLocalController(s)

	e := app.NewTestEngine()
	tl := &Timeline{F: s.Frame(), Ctl: ctl}
	html := render(t, e, tl)
	require.Contains(t, html, "step 0 of "+itoa(len(sc.Steps)))
	require.Regexp(t, `id="tl-first"[^>]*disabled|disabled[^>]*id="tl-first"`, html)
	require.NoError(t, app.Match(app.Nav().ID("timeline").Class("timeline").Aria("label", "Timeline"), tl, 0))

	s.Jump(3)
	tl = &Timeline{F: s.Frame(), Ctl: ctl, Playing: true}
	html = render(t, e, tl)
	require.Contains(t, html, "step 3 of ")
	require.Contains(t, html, "Pause")
	require.Equal(t, "step 3 of "+itoa(len(sc.Steps))+" · "+strings.SplitN(s.Frame().Label, ": ", 2)[1], Counter(s.Frame()))
}

func TestQueueEditorShowsHadoopsMessageOnTheQueue(t *testing.T) {
	s := store.New()
	ctl := NewLocalController(s)
	e := app.NewTestEngine()
	qe := &QueueEditor{F: s.Frame(), Ctl: ctl}
	html := render(t, e, qe)
	require.Contains(t, html, `data-queue="root.default"`)
	require.Contains(t, html, "children sum to 100% ✓")

	// Two queues: add one, then give the capacities.
	c, err := store.AddQueue(qe.draft, "root", "b")
	require.NoError(t, err)
	qe.apply(app.Context{}, c)
	require.Nil(t, qe.issue)
	require.Contains(t, s.Frame().Conf, "yarn.scheduler.capacity.root.b.capacity")

	qe.apply(app.Context{}, store.SetQueueProperty(s.Frame().Conf, "root.default", config.SuffixCapacity, "60"))
	require.NotNil(t, qe.issue, "60 + 0 is not 100")
	require.True(t, qe.dirty)
	require.Equal(t, "100", s.Frame().Conf["yarn.scheduler.capacity.root.default.capacity"], "a refused draft is not applied")
	html = render(t, e, &QueueEditor{F: s.Frame(), Ctl: ctl, draft: qe.draft, dirty: qe.dirty, issue: qe.issue})
	require.Contains(t, html, "Hadoop refuses this")
	require.Contains(t, html, "children sum to 60%, 40% remains")

	qe.apply(app.Context{}, store.SetQueueProperty(qe.draft, "root.b", config.SuffixCapacity, "40"))
	require.Nil(t, qe.issue)
	require.False(t, qe.dirty)
	require.Equal(t, "40", s.Frame().Conf["yarn.scheduler.capacity.root.b.capacity"])

	qe.apply(app.Context{}, store.SetQueueProperty(qe.draft, "root.b", config.SuffixMaximumCapacity, "20"))
	require.Equal(t, "root.b", qe.issue.Queue)
	html = render(t, e, &QueueEditor{F: s.Frame(), Ctl: ctl, draft: qe.draft, dirty: true, issue: qe.issue})
	require.Regexp(t, `data-queue="root.b"[^>]*role="alert"|role="alert"[^>]*data-queue="root.b"`, html)
}

func TestMarkdown(t *testing.T) {
	html := strings.Join(strings.Fields(app.HTMLString(Markdown("A **bold** move with `code`.\n\n- one *two*\n  more\n- three\n\nEnd <b>x</b>"))), " ")
	require.Contains(t, html, "<strong>bold</strong>")
	require.Contains(t, html, "<code>code</code>")
	require.Contains(t, html, "<li> one <em>two</em> more </li>")
	require.Contains(t, html, "&lt;b&gt;", "markdown never makes HTML")
}

// The page shows the cluster metrics bar and keeps its error and undo
// messages drawn (hidden when empty), so panels keep their places.
func TestPageDrawsMetricsAndHiddenMessages(t *testing.T) {
	p := &Page{}
	s := fixtureStore(t, 10, "", "")
	p.ctl = NewLocalController(s)
	p.loaded = true
	html := renderHTML(t, p)
	has(t, html, `id="cluster-metrics"`, `id="error"`, `id="undo-bar"`, `id="queue-detail"`)
}
