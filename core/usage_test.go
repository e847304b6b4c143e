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

// Views built over earlier views (QueuesOver, with QueueUsers, and
// AppsBriefOver) are the views built afresh, leave the earlier views as
// they were, and share their lists where they are equal; written over
// the array of another step's views, they are the same.
func TestViewsOverEarlierViewsAreTheViews(t *testing.T) {
	for seed := range uint64(4) {
		w := newWorkload(t, 5+seed)
		var lastQ, olderQ, lastFreshQ []core.QueueView
		var lastA, olderA, lastFreshA, into []core.AppView
		sharedIDs, sharedRequests := 0, 0
		for i := range 300 {
			w.do()
			freshQ, freshA := w.s.Queues(), briefApps(w.s.Apps())
			queues, apps := withUsers(t, w.s, w.s.QueuesOver(lastQ)), w.s.AppsBriefOver(nil, lastA)
			require.Equal(t, freshQ, queues, "seed %d step %d", seed, i)
			require.Equal(t, freshA, apps, "seed %d step %d", seed, i)
			require.Equal(t, freshQ, withUsers(t, w.s, w.s.QueuesOver(olderQ)), "over older views: seed %d step %d", seed, i)
			require.Equal(t, freshA, w.s.AppsBriefOver(nil, olderA), "over older views: seed %d step %d", seed, i)
			into = w.s.AppsBriefOver(into, lastA)
			require.Equal(t, freshA, into, "written over the views of another step: seed %d step %d", seed, i)
			require.Equal(t, lastFreshQ, lastQ, "the last views changed: seed %d step %d", seed, i)
			require.Equal(t, lastFreshA, lastA, "the last views changed: seed %d step %d", seed, i)
			for j, q := range queues {
				if j < len(lastQ) && len(q.ActiveApps) > 0 && len(lastQ[j].ActiveApps) > 0 && &q.ActiveApps[0] == &lastQ[j].ActiveApps[0] {
					sharedIDs++
				}
			}
			for j, a := range apps {
				if j < len(lastA) && len(a.Requests) > 0 && len(lastA[j].Requests) > 0 && &a.Requests[0] == &lastA[j].Requests[0] {
					sharedRequests++
				}
			}
			if i%10 == 0 {
				olderQ, olderA = lastQ, lastA
			}
			lastQ, lastA, lastFreshQ, lastFreshA = queues, apps, freshQ, freshA
		}
		require.Positive(t, sharedIDs, "seed %d", seed)
		require.Positive(t, sharedRequests, "seed %d", seed)
	}
	require.Nil(t, newWorkload(t, 1).s.QueueUsers("root"), "a parent queue has no users")
	require.Nil(t, newWorkload(t, 1).s.QueueUsers("root.nowhere"), "nor has an unknown queue")
}

// withUsers is queues, views without their users (QueuesOver), with every
// leaf's users (QueueUsers).
func withUsers(t *testing.T, s *core.Scheduler, queues []core.QueueView) []core.QueueView {
	t.Helper()
	for i := range queues {
		require.Nil(t, queues[i].Users, "QueuesOver gives no users")
		queues[i].Users = s.QueueUsers(queues[i].Path)
	}
	return queues
}

// Nodes' brief views built in parts are the nodes' views.
func TestNodesInPartsAreTheViews(t *testing.T) {
	w := newWorkload(t, 5)
	for i := range 300 {
		w.do()
		if i%30 == 0 {
			requireBriefNodesAreTheNodes(t, w.s, w.s.Apps(), w.s.Nodes())
		}
	}
}

// briefApps is apps without their containers (AppsBriefOver's views).
func briefApps(apps []core.AppView) []core.AppView {
	for i := range apps {
		apps[i].Containers = nil
	}
	return apps
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
