package scenarios_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/bench/workload"
	"yarnplay/scenarios"
	"yarnplay/scenarios/scengen"
)

// TestOnePassIsTheTreeOnGeneratedScenarios: generated scenarios (scengen's,
// and benchmark 1's workload as benchmark 5 plays it) decode to the same
// scenario by the one-pass reader and by the tree, as canonical JSON and
// indented.
func TestOnePassIsTheTreeOnGeneratedScenarios(t *testing.T) {
	var all []*scenarios.Scenario
	for seed := uint64(1); seed <= 40; seed++ {
		all = append(all, scengen.Generate(seed, scengen.Options{}))
	}
	all = append(all, scengen.Generate(41, scengen.Options{Steps: 400, Nodes: 20}))
	all = append(all, workload.Scenario(workload.Allocation(), 3))
	for _, sc := range all {
		cj, err := sc.CanonicalJSON()
		require.NoError(t, err)
		var indented bytes.Buffer
		require.NoError(t, json.Indent(&indented, cj, "", " "))
		for _, form := range [][]byte{cj, indented.Bytes()} {
			fast, ok, tree, err := scenarios.DecodeBothWays(form)
			require.NoError(t, err, sc.Name)
			require.True(t, ok, sc.Name)
			require.Equal(t, tree, fast, sc.Name)
		}
	}
}
