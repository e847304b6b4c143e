package app

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/core/resource"
	"yarnplay/scenarios/lessons"
)

// defaultView is the capacities table of the default lesson at its start,
// as the page builds it from the store's frame.
func defaultView(t *testing.T) ScenarioView {
	t.Helper()
	sc, err := lessons.Load(lessons.Default())
	require.NoError(t, err)
	s := store.New()
	require.NoError(t, s.Load(sc, lessons.Default()))
	v, ok := frameView(s.Frame())
	require.True(t, ok)
	return v
}

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ from the current output")

// goldenQueueTree is shared with the browser test, which reads the same
// lines back from the rendered page.
var goldenQueueTree = filepath.Join("..", "testdata", "default-queue-tree.txt")

func TestDefaultScenarioViewMatchesGolden(t *testing.T) {
	got := defaultView(t).Text()
	if *update {
		require.NoError(t, os.WriteFile(goldenQueueTree, []byte(got), 0o644))
	}
	want, err := os.ReadFile(goldenQueueTree)
	require.NoError(t, err, "run `go test ./app -update` to create the golden file")
	require.Equal(t, string(want), got, "the default scenario's queue tree changed; if that is intended, run `go test ./app -update`")
}

func TestDefaultScenarioView(t *testing.T) {
	v := defaultView(t)
	require.Equal(t, resource.New(1024000, 800), v.Cluster.Total)
	require.Equal(t, int64(100), v.Cluster.Nodes)

	byPath := map[string]QueueView{}
	var order []string
	v.Root.Walk(func(q QueueView) {
		byPath[q.Path] = q
		order = append(order, q.Path)
	})
	require.Equal(t, []string{
		"root",
		"root.grumpy-engineers",
		"root.grumpy-engineers.infinite-monkeys",
		"root.grumpy-engineers.pesky-testers",
		"root.finance-wizards",
		"root.finance-wizards.meticulous-accountants",
		"root.finance-wizards.thrifty-treasurers",
		"root.marketing-moguls",
		"root.marketing-moguls.brand-exploders",
		"root.marketing-moguls.social-savants",
	}, order, "rows keep configuration order")

	tests := []struct {
		path               string
		depth              int
		capacity, absolute string
		guaranteed         resource.Resource
	}{
		{"root", 0, "100.0%", "100.0%", resource.New(1024000, 800)},
		{"root.grumpy-engineers", 1, "60.0%", "60.0%", resource.New(614400, 480)},
		{"root.grumpy-engineers.infinite-monkeys", 2, "20.0%", "12.0%", resource.New(122880, 96)},
		{"root.grumpy-engineers.pesky-testers", 2, "80.0%", "48.0%", resource.New(491520, 384)},
		{"root.finance-wizards", 1, "10.0%", "10.0%", resource.New(102400, 80)},
		{"root.marketing-moguls.social-savants", 2, "50.0%", "15.0%", resource.New(153600, 120)},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			q, ok := byPath[tt.path]
			require.True(t, ok)
			require.Equal(t, tt.depth, q.Depth)
			require.Equal(t, tt.capacity, Percent(q.Capacity))
			require.Equal(t, tt.absolute, Percent(q.AbsCapacity))
			require.Equal(t, "100.0%", Percent(q.AbsMaxCapacity))
			require.Equal(t, tt.guaranteed, q.Guaranteed)
			require.Equal(t, resource.New(1024000, 800), q.Max)
		})
	}
}

func TestFormatting(t *testing.T) {
	tests := []struct{ got, want string }{
		{Percent(0), "0.0%"},
		{Percent(0.12), "12.0%"},
		{Percent(0.6 * 0.8), "48.0%"},
		{Percent(1), "100.0%"},
		{Percent(0.3333333), "33.3%"},
		{Memory(0), "0 MB"},
		{Memory(512), "512 MB"},
		{Memory(1024), "1 GB"},
		{Memory(10240), "10 GB"},
		{Memory(125440), "122.5 GB"},
		{Memory(614400), "600 GB"},
		{Resources(resource.New(614400, 480)), "600 GB, 480 vcores"},
		{Resources(resource.New(1024, 1)), "1 GB, 1 vcore"},
		{QueueLine(2, "root.a.b", "1", "2"), "    root.a.b | 1 | 2"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, tt.got)
	}
}
