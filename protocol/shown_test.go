package protocol

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
)

// The page's frames hold the applications it shows; while the simulation
// paints the node canvas, those of the node the page opens too (canvas),
// which the store goes to the step shown for when that is a step back
// kept (the page's frames kept hold no other node's containers).
func TestThePageHoldsTheOpenedNodesApps(t *testing.T) {
	sc := manyApps(110)
	sc.Nodes[0].Count = store.NodesDrawnWhole + 10
	s := store.New()
	require.NoError(t, s.Load(sc, ""))
	sv := NewServer(s)
	do := crossing(t, sv)
	do(Command{Op: OpCanvas, N: 1200})
	do(Command{Op: OpLast})
	do(Command{Op: OpForwardTick})
	page := do(Command{Op: OpForwardTick})
	full := s.Frame()
	require.Less(t, len(page.Apps), len(full.Apps))
	require.Equal(t, len(full.Apps), page.AppCount())

	// A node whose containers' apps the page does not hold yet.
	node, missing := -1, 0
	for i := len(full.Nodes) - 1; i >= 0 && node < 0; i-- {
		for _, c := range full.NodeBriefs(i) {
			if page.App(int(c.App)) == nil {
				node = i
			}
		}
	}
	require.GreaterOrEqual(t, node, 0)
	name := full.Nodes[node].Name
	do(Command{Op: OpBack})
	require.NotEqual(t, full.Step-1, s.Step(), "a kept frame shown")
	page = do(Command{Op: OpCanvas, N: 1200, Node: name})
	require.Equal(t, full.Step-1, s.Step(), "the store went to the step shown")
	equalFrames(t, sv.SentToPage(), page)
	require.Equal(t, full.Step-1, page.Step, "the step shown")
	kept := sv.sent
	for _, c := range kept.NodeBriefs(node) {
		if page.App(int(c.App)) == nil {
			missing++
		}
	}
	require.Zero(t, missing, "the opened node's apps are held")
	require.Equal(t, kept.Node(node), page.Node(node))

	// When the page paints the canvas, it holds every container's app.
	page = do(Command{Op: OpCanvas})
	for i := range kept.Nodes {
		for _, c := range kept.NodeBriefs(i) {
			require.NotNil(t, page.App(int(c.App)), "the app of a container on %s", kept.Nodes[i].Name)
		}
	}
}
