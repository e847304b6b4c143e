package scenarios

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestConformance runs every case transcribed from Hadoop's own tests
// (../../shared/conformance/*.json) and requires all of them to pass.
func TestConformance(t *testing.T) {
	requireConformanceDir(t)
	files, err := filepath.Glob(filepath.Join(conformanceDir, "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			sc, err := Load(os.DirFS(conformanceDir), filepath.Base(f))
			require.NoError(t, err)
			res := Run(sc, RunOptions{})
			for _, m := range res.Mismatches {
				t.Errorf("%s", m)
			}
			require.True(t, res.Passed, "%s failed", res.Name)
		})
	}
}
