package store

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/memsize"
)

// Going to a step a part at a time (JumpPart) stands the store where it
// stood until the last part, and then on the step, with the frame a replay
// from the start gives, at every recording level: big ticks summed up,
// small steps narrated, steps an expectation checks. Another move in
// between finishes or drops the parts under way, never mixes them.
func TestJumpingInPartsShowsWhatReplayShows(t *testing.T) {
	for _, nodes := range []int{20, FullRecordHeartbeats + 10} {
		t.Run(fmt.Sprint(nodes, " nodes"), func(t *testing.T) {
			sc := bigCluster(nodes, 300)
			s := New()
			require.NoError(t, s.Load(sc, ""))
			s.Last()
			for range 12 {
				require.NoError(t, s.Tick(1))
			}
			last := s.Step()
			replayed := func(k int) *Frame {
				r := New()
				require.NoError(t, r.Load(s.Scenario(), ""))
				r.Jump(k)
				f := *r.Frame()
				f.Revision = s.Frame().Revision // its edits: the ticks
				return &f
			}
			parts := func(k int) int {
				n := 1
				for ; !s.JumpPart(k); n++ {
					require.Equal(t, last, s.Step(), "the store stands where it stood")
					require.Equal(t, last, s.Frame().Step)
				}
				return n
			}
			for _, k := range []int{last - 3, last - 1, 0, last} {
				n := parts(k)
				require.Equal(t, k, s.Step())
				sameFrame(t, replayed(k), s.Frame(), fmt.Sprint("step ", k, " in ", n, " parts"))
				last = k
			}
			// Parts toward one step, then a move elsewhere, then the
			// parts again.
			require.False(t, s.JumpPart(last-4))
			require.False(t, s.JumpPart(last-4))
			s.Jump(last - 1)
			sameFrame(t, replayed(last-1), s.Frame(), "the move between")
			last--
			parts(last - 3)
			sameFrame(t, replayed(last-3), s.Frame(), "the parts after")
		})
	}
}

// A state being rebuilt in parts is measured apart from the history.
func TestAStateRebuiltInPartsIsMeasuredApart(t *testing.T) {
	s := New()
	require.NoError(t, s.Load(bigCluster(20, 300), ""))
	s.Last()
	for range 5 {
		require.NoError(t, s.Tick(1))
	}
	var c memsize.Counter
	before := s.Measure(&c)
	require.Zero(t, before.Going)
	require.False(t, s.JumpPart(s.Step()-2))
	c = memsize.Counter{}
	m := s.Measure(&c)
	require.Positive(t, m.Going)
	require.Equal(t, before.History, m.History)
}
