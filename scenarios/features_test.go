package scenarios

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/features/*.golden from the feature scenarios' narration")

// featureDir holds one small scenario per scheduler feature and its
// narrated trace, <feature>.golden.
const featureDir = "testdata/features"

// features are the core features, each with its scenario in featureDir.
var features = []string{
	"user-limit",
	"user-limit-factor",
	"am-limits",
	"max-capacity-elasticity",
	"parent-ordering",
	"fifo-app-priorities",
	"reservations",
	"locality-delay",
	"off-switch-limit",
	"multiple-assignments",
	"dominant-resource-calculator",
	"queue-states",
	"acls",
	"refresh-queues",
	"preemption",
	"max-applications",
	"node-removal-attempt-failure",
	"container-release",
	"weights",
	"auto-created-queues",
	"node-labels",
}

// sectionRef is how a feature's description names the docs/semantics.md
// section it illustrates.
var sectionRef = regexp.MustCompile(`docs/semantics\.md\W+sections? \d+(\.\d+)?`)

// TestFeatureGoldens plays every feature scenario and compares its narration
// with its golden file. After an intended change in the scheduler or its
// wording, rewrite them with
//
//	go test ./scenarios -run TestFeatureGoldens -update
//
// and review the diff.
func TestFeatureGoldens(t *testing.T) {
	for _, name := range features {
		t.Run(name, func(t *testing.T) {
			sc, err := Load(os.DirFS(featureDir), name+".yaml")
			require.NoError(t, err)
			require.NoError(t, sc.Validate())
			require.NotEmpty(t, sc.Description, "say what the scenario shows")
			require.Regexp(t, sectionRef, sc.Description, "name the docs/semantics.md section it illustrates")
			expects := 0
			for _, st := range sc.Steps {
				if st.Expect != nil {
					expects++
				}
			}
			require.Positive(t, expects, "expectations make the feature visible")

			res := Run(sc, RunOptions{Narrate: true})
			var why []string
			for _, m := range res.Mismatches {
				why = append(why, m.String())
			}
			require.True(t, res.Passed, "%s fails:\n%s", name, strings.Join(why, "\n"))
			require.Equal(t, len(sc.Steps), res.StepsRun)

			got := res.NarrationText("")
			path := filepath.Join(featureDir, name+".golden")
			if *update {
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "missing golden file; run: go test ./scenarios -run TestFeatureGoldens -update")
			require.Equal(t, string(want), got,
				"the narration of %s differs from %s; if the change is intended, run\n  go test ./scenarios -run TestFeatureGoldens -update\nand review the diff", name, path)
		})
	}
}

// TestFeatureFilesListed keeps featureDir and the list in step: every
// scenario has its golden and is played.
func TestFeatureFilesListed(t *testing.T) {
	listed := map[string]bool{}
	for _, f := range features {
		listed[f] = true
	}
	entries, err := os.ReadDir(featureDir)
	require.NoError(t, err)
	for _, e := range entries {
		base := strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".yaml"), ".golden")
		require.True(t, listed[base], "%s/%s belongs to no listed feature", featureDir, e.Name())
	}
	require.Len(t, entries, 2*len(features), "one scenario and one golden per feature")
}
