package core_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A tick played in parts of any size makes the decisions of Tick, event for
// event, and leaves the same state.
func TestTickInPartsIsTick(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		whole, parts := newWorkload(t, seed), newWorkload(t, seed)
		for i := 0; i < 300; i++ {
			whole.do()
			parts.do()
			if i%7 != 0 {
				continue
			}
			whole.s.Tick()
			run := parts.s.BeginTick()
			n := 1 + i%3
			steps := 0
			for !run.Step(n) {
				steps++
				require.Less(t, steps, 1000, "seed %d: the tick never ends", seed)
			}
			require.Zero(t, run.Remaining())
			require.True(t, run.Step(n), "a finished tick stays finished")
			require.Equal(t, whole.s.TakeEvents(), parts.s.TakeEvents(), "seed %d, step %d", seed, i)
			require.Equal(t, stateJSON(t, whole.s), stateJSON(t, parts.s), "seed %d, step %d", seed, i)
		}
	}
}
