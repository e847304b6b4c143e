package core_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
)

// QueueUsage says what the views say.
func TestQueueUsageIsTheViews(t *testing.T) {
	w := newWorkload(t, 3)
	for i := 0; i < 200; i++ {
		w.do()
		paths, used := w.s.QueueUsage(nil, nil)
		qs := w.s.Queues()
		require.Len(t, paths, len(qs))
		for j, q := range qs {
			require.Equal(t, q.Path, paths[j])
			require.Equal(t, q.Used, used[j])
		}
	}
}

// Views built in parts are the views.
func TestViewsInPartsAreTheViews(t *testing.T) {
	w := newWorkload(t, 5)
	for i := 0; i < 300; i++ {
		w.do()
		if i%30 != 0 {
			continue
		}
		apps := make([]core.AppView, 0)
		for j := 0; j < w.s.NumApps(); j += 3 {
			apps = w.s.AppendApps(apps, j, min(j+3, w.s.NumApps()))
		}
		require.Equal(t, w.s.Apps(), apps)
		require.Len(t, w.s.Apps(), w.s.NumApps())
		brief := w.s.AppendAppsBrief(nil, 0, w.s.NumApps())
		for j := range apps {
			full := apps[j]
			full.Containers = nil
			require.Equal(t, full, brief[j])
		}
		nodes := make([]core.NodeView, 0)
		for j := 0; j < w.s.NumNodes(); j += 2 {
			nodes = w.s.AppendNodes(nodes, j, min(j+2, w.s.NumNodes()))
		}
		require.Equal(t, w.s.Nodes(), nodes)
	}
}
