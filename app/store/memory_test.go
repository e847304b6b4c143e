package store

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/memsize"
)

// The history (checkpoints, near, records, usage points) holds less than
// twice one state, however many steps are played, and going back does
// not change it (issue 32), at a scale where a state outweighs the blocks
// every clone holds (cloneFloor).
func TestHistoryStaysWithinTwiceOneState(t *testing.T) {
	sc := bigCluster(4000, 2000)
	s := New()
	require.NoError(t, s.Load(sc, ""))
	s.Last()
	ratio := func() float64 {
		var c memsize.Counter
		m := s.Measure(&c)
		return float64(m.History) / float64(m.State)
	}
	for i := range 60 {
		require.NoError(t, s.Tick(1))
		if i%20 == 19 {
			require.LessOrEqual(t, ratio(), 2.0, "after %d ticks", i+1)
		}
	}
	for range 10 {
		s.Back()
	}
	require.LessOrEqual(t, ratio(), 2.0, "after ten steps back")
}
