package scenarios

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHadoopCases runs the project's own conformance cases
// (testdata/hadoop/*.yaml): each holds a rule of Hadoop 3.3 with the
// numbers Hadoop's source gives, and must pass whole.
func TestHadoopCases(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "hadoop", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			sc, err := Load(os.DirFS(filepath.Dir(f)), filepath.Base(f))
			require.NoError(t, err)
			res := Run(sc, RunOptions{})
			for _, m := range res.Mismatches {
				t.Errorf("%s", m)
			}
			require.True(t, res.Passed, "%s failed", res.Name)
		})
	}
}
