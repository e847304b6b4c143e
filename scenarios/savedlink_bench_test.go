package scenarios_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/bench/workload"
	"yarnplay/scenarios"
)

// BenchmarkDecodeSavedLinkAtScale is bench's BenchmarkSavedLinkDecode
// (benchmark 5's saved work, a link to benchmark 1's workload as a
// scenario, decoded into a scenario) in a package that builds for
// WebAssembly, where users decode it:
//
//	GOOS=js GOARCH=wasm go test -exec "$PWD/build/go_js_wasm_exec" -run '^$' \
//		-bench BenchmarkDecodeSavedLinkAtScale -benchtime 3x ./scenarios/
func BenchmarkDecodeSavedLinkAtScale(b *testing.B) {
	link, err := scenarios.EncodeLink(workload.Scenario(workload.Allocation(), 50), 0, "")
	require.NoError(b, err)
	b.SetBytes(int64(len(link)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		_, _, _, err := scenarios.DecodeSavedLink(link)
		require.NoError(b, err)
	}
}
