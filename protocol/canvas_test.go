package protocol

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/scenarios"
)

// While the simulation paints the node canvas, the frames the page reads
// carry the containers of the node it opened only, and the counts of all;
// when the page paints again, they carry every node's.
func TestAPaintedCanvasKeepsTheContainersInTheWorker(t *testing.T) {
	s := store.New()
	sv := NewServer(s)
	do := crossing(t, sv)
	do(Command{Op: OpBlank})
	do(Command{Op: OpAddNodes, Nodes: &scenarios.NodeSpec{Name: "w{i}", Count: 3, MemoryMB: 8192, VCores: 8}})
	do(Command{Op: OpSubmit, Submit: &scenarios.Submit{App: "app_1", User: "ann", Queue: "default", AM: &scenarios.Res{MemoryMB: 1024, VCores: 1}}})
	do(Command{Op: OpRequest, Asks: []scenarios.Ask{{App: "app_1", Priority: 1, Resource: scenarios.Res{MemoryMB: 1024, VCores: 1}, Count: 9}}})
	whole := do(Command{Op: OpTick, N: 3})
	require.False(t, whole.NodesPainted)
	require.Len(t, whole.Containers, 10, "the AM and nine")
	var names []string
	for _, n := range whole.Nodes {
		names = append(names, n.Name)
	}
	byNode := func(f *store.Frame, name string) int {
		for i := range f.Nodes {
			if f.Nodes[i].Name == name {
				return len(f.NodeBriefs(i))
			}
		}
		return -1
	}

	busy := ""
	for _, n := range names {
		if busy == "" && byNode(whole, n) > 0 {
			busy = n
		}
	}
	require.NotEmpty(t, busy)

	for _, c := range []struct {
		name   string
		canvas Command
		focus  string
	}{
		{"no node open", Command{Op: OpCanvas, N: 1200}, ""},
		{"a busy node open", Command{Op: OpCanvas, N: 1200, Toggle: true, Node: busy}, busy},
		{"a node that is not there", Command{Op: OpCanvas, N: 800, Node: "w9"}, "w9"},
	} {
		f := do(c.canvas)
		require.True(t, f.NodesPainted, c.name)
		require.Equal(t, c.focus, f.FocusNode, c.name)
		require.Equal(t, Canvas{Width: c.canvas.N, Dark: c.canvas.Toggle, Focus: c.canvas.Node}, sv.Canvas(), c.name)
		require.Equal(t, whole.Metrics, f.Metrics, "%s: the counts are of every container", c.name)
		require.Equal(t, whole.Nodes, f.Nodes, c.name)
		require.Len(t, f.NodeAt, len(f.Nodes)+1, c.name)
		for _, n := range names {
			want := 0
			if n == c.focus {
				want = byNode(whole, n)
			}
			require.Equal(t, want, byNode(f, n), "%s: %s's containers", c.name, n)
		}
		require.Same(t, sv.Shown(), s.Frame(), "%s: the worker keeps the whole frame", c.name)
		require.Len(t, sv.Shown().Containers, len(whole.Containers), c.name)
	}
	f := do(Command{Op: OpTick, N: 1})
	require.True(t, f.NodesPainted, "a step keeps the canvas's cut")
	require.Equal(t, s.Frame().Metrics, f.Metrics)

	f = do(Command{Op: OpCanvas})
	require.False(t, f.NodesPainted, "the page paints again")
	require.Equal(t, s.Frame().Containers, f.Containers)
}

// crossing returns a function that has sv handle a command, which must
// succeed, and crosses its reply to a page's reader: it returns the frame
// the page then holds.
func crossing(t *testing.T, sv *Server) func(Command) *store.Frame {
	var rw ReplyWriter
	var rr ReplyReader
	var id uint32
	return func(c Command) *store.Frame {
		t.Helper()
		id++
		rep := sv.Handle(c)
		require.Empty(t, rep.Err, "%s", c.Op)
		_, _, err := rr.Decode(rw.Encode(id, rep))
		require.NoError(t, err)
		return rr.Last()
	}
}
