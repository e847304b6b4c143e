package store

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
)

// shownFrame is a frame of n applications alternately in root.a and
// root.b (the even ones running, the odd ones accepted, the last three
// finished), and nodes nodes, node i running a container of app 7*i.
func shownFrame(n, nodes int) *Frame {
	f := &Frame{Queues: []core.QueueView{
		{Path: "root", Children: []string{"root.a", "root.b"}},
		{Path: "root.a", Leaf: true}, {Path: "root.b", Leaf: true},
	}}
	for i := range n {
		a := core.AppView{ID: fmt.Sprint("app_", i), Queue: []string{"root.a", "root.b"}[i%2], State: core.AppRunning, LiveContainers: 1}
		if i%2 == 1 {
			a.State, a.LiveContainers = core.AppAccepted, 0
		}
		if i >= n-3 {
			a.State, a.LiveContainers = core.AppFinished, 0
		}
		f.Apps = append(f.Apps, a)
		q := &f.Queues[1+i%2]
		if a.State == core.AppRunning {
			q.ActiveApps = append(q.ActiveApps, a.ID)
			q.NumActiveApps++
		} else if a.State == core.AppAccepted {
			q.PendingApps = append(q.PendingApps, a.ID)
			q.NumPendingApps++
		}
	}
	for i := range nodes {
		f.NodeAt = append(f.NodeAt, len(f.Containers))
		f.Nodes = append(f.Nodes, core.NodeView{Name: fmt.Sprint("n", i)})
		if n > 0 {
			f.Containers = append(f.Containers, core.ContainerBrief{ID: int64(i), App: int32(7 * i % n)})
		}
	}
	f.NodeAt = append(f.NodeAt, len(f.Containers))
	return f
}

// indices are 0..n-1 with step.
func indices(from, to, step int) []int {
	var out []int
	for i := from; i < to; i += step {
		out = append(out, i)
	}
	return out
}

func TestThePageHoldsTheAppsItShows(t *testing.T) {
	for _, tc := range []struct {
		name        string
		apps, nodes int
		sel, focus  string
		every       bool
		want        []int
	}{
		{"few apps: all", 20, 4, "", "", false, indices(0, 20, 1)},
		{"the first rows, the last live, the lanes, every node's", 300, 20, "", "", false,
			// rows 0..99 (why: the first 100 live, 0..99 too; lanes:
			// a's 40 active 0..78, b's 40 pending 1..79), the last
			// live (296), node i's app 7i.
			append(indices(0, 100, 1), 105, 112, 119, 126, 133, 296)},
		{"a queue selected: its rows, why's and lane", 300, 4, "root.b", "", false,
			// b's first 100: 1..199; why: b's first 100 live, the same;
			// the lane: b's pending; the last live; nodes: 0, 7, 14, 21.
			append([]int{0, 14}, append(indices(1, 200, 2), 296)...)},
		{"past the strips: the focused node's only", 300, NodesDrawnWhole + 1, "root.b", "n30", false,
			append(indices(1, 200, 2), 210, 296)},
		{"past the strips, no focus", 300, NodesDrawnWhole + 1, "root.b", "", false,
			append(indices(1, 200, 2), 296)},
		{"past the strips, painted by the page: every node's", 300, NodesDrawnWhole + 1, "root.b", "", true,
			// node i runs app 7i mod 300.
			func() []int {
				set := map[int]bool{296: true}
				for _, i := range indices(1, 200, 2) {
					set[i] = true
				}
				for n := range NodesDrawnWhole + 1 {
					set[7*n%300] = true
				}
				var out []int
				for i := range set {
					out = append(out, i)
				}
				return out
			}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := shownFrame(tc.apps, tc.nodes)
			f.Selected = tc.sel
			p := f.ForPage(tc.focus, tc.every)
			var got []int
			for _, i := range p.Shown.Index {
				got = append(got, int(i))
			}
			require.ElementsMatch(t, tc.want, got)
			require.Equal(t, tc.apps, p.AppCount())
			require.Equal(t, f.LiveCount(), p.LiveCount())
			for k, i := range p.Shown.Index {
				require.Equal(t, f.Apps[i], p.Apps[k])
				require.Equal(t, &p.Apps[k], p.App(int(i)))
				require.Equal(t, int32(i/2), p.Shown.Rank[k], "an app's rank in its queue")
			}
			require.Nil(t, p.App(tc.apps))
			require.Same(t, p, p.ForPage(tc.focus, tc.every), "a page's frame is cut once")
		})
	}
}

// The lanes' cards leave the queue's lists as they are.
func TestLaneCardsAreBoundedCopiesOfTheLists(t *testing.T) {
	q := &core.QueueView{ActiveApps: make([]string, 30, 100), PendingApps: []string{"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11"},
		NumActiveApps: 30, NumPendingApps: 11}
	active, pending, more := LaneCards(q)
	require.Len(t, active, 30)
	require.Equal(t, []string{"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10"}, pending)
	require.Equal(t, 1, more)
	grown := append(active, "x")
	require.Len(t, grown, 31)
	require.Equal(t, "", q.ActiveApps[:31][30], "appending to the cards does not write into the list")
}

// The page's frame holds a leaf's lists of applications as far as its
// lane shows them, and the same cards and count of the others come of it.
func TestThePageHoldsTheLanesCardsOfTheLists(t *testing.T) {
	f := shownFrame(300, 0)
	f.Queues[2].NonRunnableApps = []string{"app_x"}
	f.Queues = append(f.Queues, core.QueueView{Path: "root.c", Leaf: true, ActiveApps: []string{"c1"}, NumActiveApps: 1})
	p := f.ForPage("", false)
	for i := range f.Queues {
		whole, cut := &f.Queues[i], &p.Queues[i]
		a, pe, more := LaneCards(whole)
		ca, cpe, cmore := LaneCards(cut)
		require.Equal(t, a, ca, whole.Path)
		require.Equal(t, pe, cpe, whole.Path)
		require.Equal(t, more, cmore, whole.Path)
		require.Nil(t, cut.NonRunnableApps, whole.Path)
	}
	require.Len(t, f.Queues[1].ActiveApps, 149, "the store's frame keeps its lists")
	require.Len(t, p.Queues[1].ActiveApps, MaxLaneCards)
	require.Empty(t, p.Queues[1].PendingApps, "the active fill root.a's lane")
	require.Equal(t, []string{"app_x"}, f.Queues[2].NonRunnableApps)
	_, _, more := LaneCards(&p.Queues[1])
	require.Equal(t, 149-MaxLaneCards, more)
	require.Same(t, &f.Queues[3].ActiveApps[0], &p.Queues[3].ActiveApps[0], "a short list is shared")
	lanes, _ := p.LaneLeaves("")
	whole, _ := f.LaneLeaves("")
	require.Len(t, lanes, len(whole))
}

// The page holds the users and cards of the selected queue and of the
// lanes' leaves, those it shows, and of no other queue.
func TestThePageHoldsTheUsersItShows(t *testing.T) {
	f := shownFrame(10, 0)
	f.Queues = append(f.Queues, core.QueueView{Path: "root.c", Leaf: true})
	for i := range f.Queues {
		f.Queues[i].Users = []core.UserView{{Name: "u"}}
	}
	users := func(p *Frame) []string {
		var out []string
		for _, q := range p.Queues {
			if len(q.Users) > 0 {
				out = append(out, q.Path)
			}
		}
		return out
	}
	require.Equal(t, []string{"root.a", "root.b"}, users(f.ForPage("", false)), "the lanes' leaves")
	f.Selected = "root.c"
	p := f.ForPage("", false)
	require.Equal(t, []string{"root.c"}, users(p), "the selected queue, whose lane is shown empty")
	require.Empty(t, p.Queues[1].ActiveApps, "root.a's lane is not shown")
	require.Equal(t, f.Queues[1].NumActiveApps, p.Queues[1].NumActiveApps, "its applications are counted")
	f.Selected = "root"
	require.Equal(t, []string{"root", "root.a", "root.b"}, users(f.ForPage("", false)))
	require.Len(t, f.Queues[3].Users, 1, "the store's frame keeps them")
}

// The page holds a step's events that it reads: all of them in a step with
// a heartbeat (the walk), else those it shows.
func TestThePageHoldsTheEventsItReads(t *testing.T) {
	joined := core.Event{Kind: core.EvNodeAdded, Node: "n1"}
	done := core.Event{Kind: core.EvContainerFinished, Node: "n1", App: "app_1"}
	order := core.Event{Kind: core.EvChildOrder, Queue: "root"}
	beat := core.Event{Kind: core.EvHeartbeat, Node: "n1"}
	for _, tc := range []struct {
		name       string
		events     []core.Event
		want       []core.Event
		sharesList bool
	}{
		{"a start", []core.Event{joined, joined}, []core.Event{}, false},
		{"no heartbeat", []core.Event{joined, done, joined, order}, []core.Event{done, order}, false},
		{"a heartbeat", []core.Event{joined, beat, done}, []core.Event{joined, beat, done}, true},
		{"all read", []core.Event{done, order}, []core.Event{done, order}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := shownFrame(4, 0)
			f.Events = tc.events
			p := f.ForPage("", false)
			require.Equal(t, tc.want, p.Events)
			if tc.sharesList {
				require.Same(t, &f.Events[0], &p.Events[0])
			}
		})
	}
}
