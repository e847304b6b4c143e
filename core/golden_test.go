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

// The golden files of core/testdata are hashes of seeded random workloads:
// make test runs this package natively and as WebAssembly under Node, so
// they are the check that both builds decide alike. What each feature
// decides, in sentences a reviewer can read in a diff, is pinned by the
// narrated goldens of scenarios/testdata/features (TestFeatureGoldens).

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
	checkGolden(t, "record.golden", b.String())
}

// TestStatesMatchGolden pins what the scheduler decides, independently of
// how the decisions are recorded: the visible state after every step of
// seeded random workloads. A change to the decision record alone (wording,
// new event kinds) may update record.golden; this file changes only when
// scheduling itself changes.
func TestStatesMatchGolden(t *testing.T) {
	var b strings.Builder
	for _, seed := range []uint64{3, 7, 11, 19} {
		w := newWorkload(t, seed)
		h := sha256.New()
		for i := 0; i < 400; i++ {
			w.do()
			h.Write([]byte(stateJSON(t, w.s)))
		}
		fmt.Fprintf(&b, "seed %d: sha256 %s\n", seed, hex.EncodeToString(h.Sum(nil)))
	}
	checkGolden(t, "states.golden", b.String())
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./core -run Golden -update to create it")
	require.Equal(t, string(want), got, "the golden file %s differs; if the change is intended, run go test ./core -run Golden -update", path)
}
