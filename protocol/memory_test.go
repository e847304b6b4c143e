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
			sv.Compact()
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
		sv.Compact()
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
