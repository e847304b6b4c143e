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
		apps := w.s.Apps()
		require.Len(t, apps, w.s.NumApps())
		brief := w.s.AppendAppsBrief(nil, 0, w.s.NumApps())
		for j := range apps {
			full := apps[j]
			full.Containers = nil
			require.Equal(t, full, brief[j])
		}
		queues := make([]core.QueueView, 0)
		for j := 0; j < w.s.NumQueues(); j += 2 {
			queues = w.s.AppendQueues(queues, j, min(j+2, w.s.NumQueues()))
		}
		require.Equal(t, w.s.Queues(), queues)
		nodes := w.s.Nodes()
		requireBriefNodesAreTheNodes(t, w.s, apps, nodes)
	}
}

// requireBriefNodesAreTheNodes checks that the brief views of the nodes,
// built in parts, are the full views (nodes) without their containers, and
// that the briefs expand into those containers, in order.
func requireBriefNodesAreTheNodes(t *testing.T, s *core.Scheduler, apps []core.AppView, nodes []core.NodeView) {
	t.Helper()
	var brief []core.NodeView
	var cs []core.ContainerBrief
	for j := 0; j < s.NumNodes(); j += 3 {
		brief, cs = s.AppendNodesBrief(brief, cs, j, min(j+3, s.NumNodes()))
	}
	require.Len(t, brief, len(nodes))
	at := 0
	for j, n := range nodes {
		require.GreaterOrEqual(t, len(cs)-at, len(n.Containers))
		for _, c := range n.Containers {
			require.Equal(t, c, cs[at].View(&apps[cs[at].App], n.Name), "container %d", at)
			at++
		}
		n.Containers = nil
		require.Equal(t, n, brief[j])
	}
	require.Len(t, cs, at)
	require.Equal(t, at, s.NumContainers())
}
