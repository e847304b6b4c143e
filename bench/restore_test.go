package bench

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/wasm/bridge"
)

// BenchmarkPlaygroundRestore is the simulation's part of benchmark 5's
// opening (ms-load), natively: benchmark 5's saved work restored into a
// fresh store (parsed, built and replayed to its step), then its first
// frame.
func BenchmarkPlaygroundRestore(b *testing.B) {
	s, _ := playgroundStore(b)
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
