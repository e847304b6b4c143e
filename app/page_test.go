package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"
)

func TestRoutesAnswerEveryPath(t *testing.T) {
	Routes()
	Routes() // idempotent
	for _, p := range Paths() {
		require.True(t, strings.HasPrefix(p, "/"), p)
	}
	require.Contains(t, Paths(), PathHome)
}

func TestPageBeforeMountShowsLoadingOnly(t *testing.T) {
	e := app.NewTestEngine()
	p := &Page{}
	require.NoError(t, e.Load(p))
	e.ConsumeAll()

	html := app.HTMLString(p)
	require.Contains(t, html, `id="status"`)
	require.Contains(t, html, "Starting the scheduler")
	require.NotContains(t, html, "queue-tree", "the tree is computed in the browser, not pre-rendered")
}

func TestPageAfterLoadShowsTree(t *testing.T) {
	e := app.NewTestEngine()
	p := &Page{}
	p.load(DefaultScenario())
	require.NoError(t, e.Load(p))
	e.ConsumeAll()

	require.NoError(t, app.Match(app.Div().Class("page"), p, 0))
	html := app.HTMLString(p)
	require.NotContains(t, html, "Starting the scheduler")
	for _, want := range []string{
		`id="queue-tree"`,
		`data-queue="root.grumpy-engineers.pesky-testers"`,
		"48.0%",
		"480 GB, 384 vcores",
		"1000 GB, 800 vcores",
		"Absolute Max Capacity",
	} {
		require.Contains(t, html, want)
	}
}

func TestPageShowsConfigurationErrors(t *testing.T) {
	s := DefaultScenario()
	s.Properties["yarn.scheduler.capacity.root.grumpy-engineers.capacity"] = "sixty"
	p := &Page{}
	p.load(s)
	require.Error(t, p.err)

	e := app.NewTestEngine()
	require.NoError(t, e.Load(p))
	e.ConsumeAll()
	html := app.HTMLString(p)
	require.Contains(t, html, `role="alert"`)
	require.Contains(t, html, "does not load")
	require.NotContains(t, html, "queue-tree")
}

func TestQueueTreeRowsCarryTheirNumbers(t *testing.T) {
	v, err := BuildView(DefaultScenario())
	require.NoError(t, err)
	tree := &QueueTree{Root: v.Root}
	e := app.NewTestEngine()
	require.NoError(t, e.Load(tree))
	e.ConsumeAll()

	html := app.HTMLString(tree)
	require.Equal(t, 10, strings.Count(html, `class="queue"`), "one row per queue")
	// go-app writes attributes in map order: match either order.
	require.Regexp(t, `data-field="abs-capacity"[^>]*>12\.0%<`, html)
	require.Regexp(t, `data-field="guaranteed"[^>]*>120 GB, 96 vcores<`, html)
}
