package scenarios_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/bench/workload"
	"yarnplay/scenarios"
)

// BenchmarkDecodeSavedLinkAtScale is the first part of benchmark 5's
// opening: its saved work (a link to benchmark 1's workload as a
// scenario) decoded into a scenario (inflated, parsed and validated),
// before any of it is built. It runs natively and, in this package that
// builds for WebAssembly, where users decode it:
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
