package viewsdemo

import (
	"testing"
	"time"

	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/require"

	"yarnplay/app"
)

func TestDemoScenarios(t *testing.T) {
	for _, tt := range []struct{ nodes, queues, wantQueues int }{{8, 10, 9}, {120, 20, 19}, {1000, 100, 100}} {
		s, err := NewStore(tt.nodes, tt.queues)
		require.NoError(t, err)
		f := s.Frame()
		require.Equal(t, tt.nodes, len(f.Nodes))
		require.Equal(t, tt.wantQueues, len(f.Queues))
		require.NotEmpty(t, f.Apps)
		require.Positive(t, f.ClusterUsed.MemoryMB)
		require.NotEmpty(t, f.Selected)
		require.NoError(t, s.Heartbeat(""))
		require.Empty(t, s.Frame().Err)
	}
}

// TestViewsRenderAtScale renders every view of a 1,000-node, 100-queue
// frame natively and logs how long each takes (a measure, not a limit:
// the browser tests measure the page).
func TestViewsRenderAtScale(t *testing.T) {
	s, err := NewStore(1000, 100)
	require.NoError(t, err)
	require.NoError(t, s.Heartbeat(""))
	f := *s.Frame()
	views := []struct {
		name string
		new  func() goapp.Composer
	}{
		{"QueueBars", func() goapp.Composer { return &app.QueueBars{Frame: f} }},
		{"NodeGrid", func() goapp.Composer { return &app.NodeGrid{Frame: f} }},
		{"LeafLanes", func() goapp.Composer { return &app.LeafLanes{Frame: f, Queue: f.Selected} }},
		{"UsageChart", func() goapp.Composer { return &app.UsageChart{Frame: f, Parent: "root"} }},
		{"FormulaPanel", func() goapp.Composer { return &app.FormulaPanel{Frame: f} }},
	}
	for _, v := range views {
		const runs = 5
		start := time.Now()
		size := 0
		for i := 0; i < runs; i++ {
			c := v.new()
			e := goapp.NewTestEngine()
			require.NoError(t, e.Load(c))
			e.ConsumeAll()
			size = len(goapp.HTMLString(c))
		}
		t.Logf("%s of 1000 nodes and %d queues: mounted in %s (mean of %d, natively), %d bytes of HTML",
			v.name, len(f.Queues), (time.Since(start) / runs).Round(time.Microsecond), runs, size)
	}
}
