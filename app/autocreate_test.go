package app

import (
	"os"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/scenarios"
)

// TestAutoCreatedQueuesAppearMarked plays the auto-created-queues feature:
// the leaves appear in the bars and the capacities tree as the mappings
// create them, marked, and the mark follows the policy's activation.
func TestAutoCreatedQueuesAppearMarked(t *testing.T) {
	raw, err := os.ReadFile("../scenarios/testdata/features/auto-created-queues.yaml")
	require.NoError(t, err)
	sc, err := scenarios.Parse("auto-created-queues.yaml", raw)
	require.NoError(t, err)
	s := store.New()
	require.NoError(t, s.Load(sc, ""))

	s.Jump(0)
	f := *s.Frame()
	require.Equal(t, []string{"root.default", "default"}, submitQueues(f.Queues),
		"the form offers \"default\", which the mappings place")
	rows := queueBarRows(&f)
	require.Len(t, rows, 3, "root, default and eng before any application")
	require.Equal(t, "auto-create parent", rows[2].Auto)

	s.Jump(3)
	f = *s.Frame()
	byPath := map[string]queueBarRow{}
	for _, r := range queueBarRows(&f) {
		byPath[r.Path] = r
	}
	require.Equal(t, "auto-created", byPath["root.eng.alice"].Auto)
	require.Contains(t, byPath["root.eng.alice"].AutoTitle, "gives it the template's capacity")
	require.Contains(t, byPath["root.eng.carol"].AutoTitle, "capacity 0")
	require.Empty(t, byPath["root.default"].Auto)

	c := &QueueBars{Frame: f}
	e := app.NewTestEngine()
	require.NoError(t, e.Load(c))
	e.ConsumeAll()
	html := app.HTMLString(c)
	require.Equal(t, 4, strings.Count(html, `class="badge b-auto"`), "eng and its three leaves")
	require.Contains(t, html, `data-queue="root.eng.carol"`)

	v, ok := frameView(&f)
	require.True(t, ok)
	tree := &QueueTree{Root: v.Root}
	e2 := app.NewTestEngine()
	require.NoError(t, e2.Load(tree))
	e2.ConsumeAll()
	html = app.HTMLString(tree)
	require.Equal(t, 4, strings.Count(html, `data-field="auto"`))
	require.Contains(t, html, `data-queue="root.eng.bob"`)
}
