package core_test

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestRecordMatchesGoldenOnEveryTarget pins the decision record of seeded
// random workloads. The same test runs natively and as WebAssembly under
// Node (make test), so both targets must produce the identical record.
func TestRecordMatchesGoldenOnEveryTarget(t *testing.T) {
	var b strings.Builder
	for _, seed := range []uint64{3, 7, 11, 19} {
		rec := record(t, seed, 400)
		sum := sha256.Sum256(rec)
		fmt.Fprintf(&b, "seed %d: %d bytes, sha256 %s\n", seed, len(rec), hex.EncodeToString(sum[:]))
	}
	path := filepath.Join("testdata", "record.golden")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./core -run Golden -update to create it")
	require.Equal(t, string(want), b.String())
}
