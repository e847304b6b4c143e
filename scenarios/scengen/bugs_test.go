package scengen

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/scenarios"
)

// TestBugReproductions plays each scenario of testdata/bugs, the minimal
// reproduction of a core bug the generated scenarios found, with every
// check and a clone after every step. A reproduction that still fails is
// skipped with its failure; one that passes fails the test, as a reminder
// to delete the file and the seeds it lists from skipped.
func TestBugReproductions(t *testing.T) {
	files, err := filepath.Glob("testdata/bugs/*.yaml")
	require.NoError(t, err)
	if len(files) == 0 {
		t.Skip("no known core bug is open")
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			sc, err := scenarios.Load(os.DirFS("."), name)
			require.NoError(t, err)
			for k := 0; k <= len(sc.Steps); k++ {
				if _, err := checkScenario(0, sc, k, &stats{}); err != nil {
					t.Skipf("known core bug, still present: %v", err)
				}
			}
			t.Errorf("%s passes: its bug is fixed; delete the file and its seeds from skipped", name)
		})
	}
}

// TestRegressions plays each scenario of testdata/regressions, the
// reproduction of a core bug the generated scenarios found and that is now
// fixed, with every check and a clone after every step: they must pass.
func TestRegressions(t *testing.T) {
	files, err := filepath.Glob("testdata/regressions/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			sc, err := scenarios.Load(os.DirFS("."), name)
			require.NoError(t, err)
			for k := 0; k <= len(sc.Steps); k++ {
				_, err := checkScenario(0, sc, k, &stats{})
				require.NoError(t, err, "clone after step %d", k)
			}
		})
	}
}
