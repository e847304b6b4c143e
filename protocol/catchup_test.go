package protocol

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
)

// While the simulation paints the node canvas, a step back shown from a
// kept frame says that the canvas is behind, and CatchUp brings the store
// to the step part by part, letting commands in between: then the page
// gets the step's frame unasked, the canvas is painted from the store's
// frame, and both are what a replay from the start shows, at every
// recording level, with a node opened (whose containers the page's frames
// hold) or none. Steps back kept after it read back over it alike.
func TestCatchingUpShowsWhatReplayShows(t *testing.T) {
	for _, tc := range []struct {
		nodes int
		focus string
	}{{40, ""}, {store.FullRecordHeartbeats + 10, ""}, {40, "n1"}, {store.FullRecordHeartbeats + 10, "n7"}} {
		nodes, focus := tc.nodes, tc.focus
		sc := manyApps(120)
		sc.Nodes[0].Count = nodes
		s := store.New()
		require.NoError(t, s.Load(sc, ""))
		sv := NewServer(s)
		var rw ReplyWriter
		var rr ReplyReader
		id := uint32(0)
		read := func(rep Reply) *store.Frame {
			t.Helper()
			require.Empty(t, rep.Err)
			id++
			_, _, err := rr.Decode(rw.Encode(id, rep))
			require.NoError(t, err)
			return rr.Last()
		}
		do := func(c Command) *store.Frame { t.Helper(); return read(sv.Handle(c)) }
		// replayed is step k as the page gets it (or whole), from a store
		// that opened the work as it now is and went nowhere else.
		replayed := func(k int, whole bool) *store.Frame {
			t.Helper()
			r := store.New()
			require.NoError(t, r.Load(s.Scenario(), ""))
			r.Jump(k)
			g := r.Frame()
			if !whole {
				g = g.ForPage(focus, false).ForPaintedNodes(focus)
			}
			h := *g
			h.Revision = s.Frame().Revision
			return &h
		}
		catchUp := func() *store.Frame {
			t.Helper()
			from := s.Step()
			for range 1000 {
				rep, done := sv.CatchUp()
				if done {
					require.False(t, sv.Behind())
					return read(rep)
				}
				require.Nil(t, rep.Frame)
				require.Equal(t, from, s.Step(), "the store stands where it stood until the last part")
				require.Nil(t, sv.Painted(), "the canvas is not painted meanwhile")
			}
			t.Fatal("catching up never ends")
			return nil
		}
		do(Command{Op: OpCanvas, N: 1200, Node: focus})
		do(Command{Op: OpLast})
		for range 4 {
			do(Command{Op: OpForwardTick})
		}
		end := sv.Shown().Step
		rep, done := sv.CatchUp()
		require.False(t, done, "nothing to catch up")
		require.Nil(t, rep.Frame)

		do(Command{Op: OpBack})
		f := do(Command{Op: OpBack})
		require.Equal(t, end-2, f.Step)
		require.Equal(t, end, s.Step(), "shown from a kept frame")
		require.True(t, f.NodesBehind, "the canvas shows another step")
		require.True(t, sv.Behind())
		g := *f
		g.NodesBehind = false
		equalFrames(t, replayed(end-2, false), &g)

		// A part, then a step back in between: the parts go on to it.
		_, done = sv.CatchUp()
		require.False(t, done)
		f = do(Command{Op: OpBack})
		require.Equal(t, end-3, f.Step)
		require.True(t, f.NodesBehind)
		f = catchUp()
		require.Equal(t, end-3, s.Step())
		require.False(t, f.NodesBehind, "the canvas caught up")
		equalFrames(t, replayed(end-3, false), f)
		equalFrames(t, replayed(end-3, true), sv.Painted())

		// Back and forward over the frames kept, the store standing on
		// the step caught up.
		f = do(Command{Op: OpForward})
		require.Equal(t, end-2, f.Step)
		g = *f
		g.NodesBehind = false
		equalFrames(t, replayed(end-2, false), &g)
		// On to the end: the frame kept of it reads back over the step
		// caught up (navCache.reroot).
		for k := end - 1; k <= end; k++ {
			f = do(Command{Op: OpForward})
			require.Equal(t, k, f.Step)
			g = *f
			g.NodesBehind = false
			equalFrames(t, replayed(k, false), &g)
		}
		require.Equal(t, end-3, s.Step(), "shown from kept frames")
		for range 2 {
			do(Command{Op: OpBack})
		}
		f = do(Command{Op: OpBack})
		require.Equal(t, end-3, f.Step)
		require.False(t, f.NodesBehind, "the store stands there")
		require.False(t, sv.Behind())
		f = do(Command{Op: OpBack})
		require.True(t, f.NodesBehind)
		g = *f
		g.NodesBehind = false
		equalFrames(t, replayed(end-4, false), &g)

		// Without the canvas, nothing is behind.
		f = do(Command{Op: OpCanvas})
		require.False(t, f.NodesBehind)
		require.False(t, sv.Behind())
	}
}

// Without the canvas, the server's work for a quiet page is the
// checkpoint a step called for: QuietPart takes it, and none is left.
func TestQuietWorkTakesTheCheckpointDue(t *testing.T) {
	s := store.New()
	require.NoError(t, s.Load(manyApps(120), ""))
	sv := NewServer(s)
	require.Empty(t, sv.Handle(Command{Op: OpLast}).Err)
	for i := 0; !sv.QuietWork(); i++ {
		require.Less(t, i, 500, "no tick called for a checkpoint")
		require.Empty(t, sv.Handle(Command{Op: OpTick, N: 1}).Err)
	}
	require.False(t, sv.Behind())
	rep, done := sv.QuietPart()
	require.False(t, done)
	require.Nil(t, rep.Frame)
	require.False(t, sv.QuietWork(), "the checkpoint is taken")
}
