package protocol

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/scenarios/lessons"
)

// What the worker holds to travel in time, the frames it keeps included,
// stays within twice one state (issue 32): through every lesson's walk,
// and on a cluster of some scale after ticks, ten steps back and the
// canvas caught up with them.
func TestTheHistoryStaysWithinTwiceOneState(t *testing.T) {
	ratio := func(sv *Server) float64 {
		m := sv.memory()
		return float64(m.History) / float64(m.State)
	}
	for _, l := range lessons.All() {
		sc, err := lessons.Load(l.Slug)
		require.NoError(t, err)
		s := store.New()
		require.NoError(t, s.Load(sc, l.Slug))
		sv := NewServer(s)
		for range sc.Steps {
			sv.Handle(Command{Op: OpForward})
			sv.Compact(nil)
		}
		require.LessOrEqual(t, ratio(sv), 2.0, l.Slug)
	}

	sc := manyApps(1000)
	sc.Nodes[0].Count = 400
	s := store.New()
	require.NoError(t, s.Load(sc, ""))
	sv := NewServer(s)
	sv.Handle(Command{Op: OpCanvas, N: 1280})
	sv.Handle(Command{Op: OpLast})
	for range 30 {
		sv.Handle(Command{Op: OpTick, N: 1})
		sv.Compact(nil)
	}
	require.LessOrEqual(t, ratio(sv), 2.0, "after the ticks")
	for range 10 {
		sv.Handle(Command{Op: OpBack})
	}
	require.LessOrEqual(t, ratio(sv), 2.0, "after ten steps back")
	for {
		if _, done := sv.CatchUp(); done {
			break
		}
	}
	require.LessOrEqual(t, ratio(sv), 2.0, "once caught up")
}

// Keeping a frame with the encodings its reply's writer made of it
// (Compact with the writer) keeps the same bytes as encoding it again,
// and steps back show the same frames.
func TestKeepingReusesTheRepliesEncodings(t *testing.T) {
	type end struct {
		sv *Server
		rw ReplyWriter
		rr ReplyReader
	}
	ends := make([]*end, 2)
	for i := range ends {
		s := store.New()
		require.NoError(t, s.Load(manyApps(200), ""))
		ends[i] = &end{sv: NewServer(s)}
	}
	do := func(c Command) {
		t.Helper()
		for i, e := range ends {
			rep := e.sv.Handle(c)
			require.Empty(t, rep.Err)
			_, _, err := e.rr.Decode(e.rw.Encode(1, rep))
			require.NoError(t, err)
			if i == 0 {
				e.sv.Compact(&e.rw)
			} else {
				e.sv.Compact(nil)
			}
		}
		equalFrames(t, ends[1].rr.Last(), ends[0].rr.Last())
	}
	do(Command{Op: OpLast})
	for range 6 {
		do(Command{Op: OpTick, N: 1})
	}
	a, b := ends[0].sv.nav.frames, ends[1].sv.nav.frames
	require.Len(t, a, len(b))
	require.GreaterOrEqual(t, len(a), 2)
	for i := range a {
		require.Equal(t, b[i].enc, a[i].enc, "kept frame %d", i)
	}
	// The newest's encodings are the writer's own, not encoded again.
	mine, theirs := a[len(a)-1].mem, b[len(b)-1].mem
	require.NotNil(t, mine)
	require.Same(t, &ends[0].rw.frames.nodes.raw[0], &mine.nodes.raw[0])
	require.True(t, theirs == nil || &theirs.nodes.raw[0] != &ends[1].rw.frames.nodes.raw[0], "without the writer, encoded again")
	for range 4 {
		do(Command{Op: OpBack})
	}
}
