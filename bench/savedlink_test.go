package bench

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/bench/workload"
	"yarnplay/scenarios"
)

// BenchmarkSavedLinkDecode is the first part of benchmark 5's opening
// (BenchmarkPlaygroundRestore), natively: its saved work's link decoded
// into a scenario (inflated, parsed and validated), before any of it is
// built.
func BenchmarkSavedLinkDecode(b *testing.B) {
	sc := workload.Scenario(workload.Allocation(), playgroundTicks)
	s := store.New()
	require.NoError(b, s.Load(sc, ""))
	link, err := s.Link()
	require.NoError(b, err)
	b.SetBytes(int64(len(link)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		_, _, _, err := scenarios.DecodeSavedLink(link)
		require.NoError(b, err)
	}
}
