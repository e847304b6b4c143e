package bench

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/bench/workload"
	"yarnplay/wasm/bridge"
)

// BenchmarkPlaygroundRestore is the simulation's part of benchmark 5's
// opening (ms-load), natively: benchmark 5's saved work restored into a
// fresh store (parsed, built and replayed to its step), then its first
// frame.
func BenchmarkPlaygroundRestore(b *testing.B) {
	sc := workload.Scenario(workload.Allocation(), playgroundTicks)
	s := store.New()
	require.NoError(b, s.Load(sc, ""))
	saved := bridge.NewMemoryStorage()
	require.NoError(b, s.Save(saved))
	b.ResetTimer()
	for range b.N {
		r := store.New()
		ok, err := r.Restore(saved)
		require.NoError(b, err)
		require.True(b, ok)
		require.NotNil(b, r.Frame())
	}
}
