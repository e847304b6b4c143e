package bench

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/scenarios"
)

// BenchmarkSavedLinkDecode is the first part of benchmark 5's opening
// (BenchmarkPlaygroundRestore), natively: its saved work's link decoded
// into a scenario (inflated, parsed and validated), before any of it is
// built.
func BenchmarkSavedLinkDecode(b *testing.B) {
	s, _ := playgroundStore(b)
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
