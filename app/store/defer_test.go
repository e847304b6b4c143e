package store

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/scenarios"
)

// With DeferCheckpoints, the checkpoint a step calls for waits (Due) until
// Settle, or until a player plays on, which takes it first: the store
// keeps the checkpoints it keeps without, at the same steps, and going
// back replays as much, to the same frames. An edit of an earlier step
// drops a checkpoint due of the steps it replaces.
func TestDeferredCheckpointsAreTheSame(t *testing.T) {
	sc := bigCluster(100, 1000)
	eager, lazy := New(), New()
	lazy.DeferCheckpoints()
	for _, s := range []*Store{eager, lazy} {
		require.NoError(t, s.Load(sc, ""))
		s.Last()
	}
	steps := func(s *Store) []int {
		var out []int
		for _, cp := range s.cps {
			out = append(out, cp.step)
		}
		return out
	}
	tickUntilACheckpoint := func() {
		t.Helper()
		for n := len(eager.cps); len(eager.cps) == n; {
			require.NoError(t, eager.Tick(1))
			require.NoError(t, lazy.Tick(1))
		}
	}
	tickUntilACheckpoint()
	require.True(t, lazy.Due())
	require.Equal(t, steps(eager)[:len(eager.cps)-1], steps(lazy), "the checkpoint waits")
	require.True(t, lazy.Settle())
	require.False(t, lazy.Due())
	require.Equal(t, steps(eager), steps(lazy), "taken when settled")
	require.False(t, lazy.Settle(), "nothing left")

	tickUntilACheckpoint()
	require.True(t, lazy.Due())
	require.NoError(t, eager.Tick(1))
	require.NoError(t, lazy.Tick(1))
	require.Equal(t, steps(eager), steps(lazy), "taken before the next step")

	for range 3 {
		be, bl := eager.played, lazy.played
		eager.Back()
		lazy.Back()
		require.Equal(t, eager.played-be, lazy.played-bl, "a step back replays as much")
		sameFrame(t, eager.Frame(), lazy.Frame(), fmt.Sprint("back to step ", lazy.Step()))
	}

	// A checkpoint due, then the start, where the store plays nothing,
	// and an edit there: the checkpoint due is of the steps replaced.
	lazy.Last()
	for !lazy.Due() {
		require.NoError(t, lazy.Tick(1))
	}
	lazy.Jump(0)
	require.True(t, lazy.Due(), "going to the start plays nothing")
	require.NoError(t, lazy.Submit(scenarios.Submit{App: "late", User: "u1", Queue: "a"}))
	require.False(t, lazy.Due())
	require.Equal(t, []int{0}, steps(lazy), "only the start's checkpoint is of the new work")
}
