package core_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/core"
)

// Reading ahead of the heartbeats (warm) changes nothing a reader can see,
// nor anything a clone copies, whatever the nodes' hints point at: their
// containers, or containers completed early or of finished apps.
func TestReadingAheadChangesNothing(t *testing.T) {
	var read int64
	stale := 0
	for seed := uint64(1); seed <= 10; seed++ {
		w := newWorkload(t, seed)
		for i := 0; i < 400; i++ {
			w.do()
			if i%10 != 0 {
				continue
			}
			w.s.TakeEvents()
			before := stateJSON(t, w.s)
			clone := w.s.Clone()
			sum, n := core.Warm(w.s)
			read += sum
			stale += n
			require.Equal(t, before, stateJSON(t, w.s), "seed %d, step %d", seed, i)
			require.Empty(t, w.s.TakeEvents(), "seed %d, step %d", seed, i)
			require.NoError(t, core.CloneShapeError(w.s, clone), "seed %d, step %d", seed, i)
		}
	}
	require.NotZero(t, read, "nothing was read ahead")
	require.NotZero(t, stale, "no stale hint was read")
}
