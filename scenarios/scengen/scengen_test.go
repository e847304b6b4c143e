package scengen

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/scenarios"
)

var (
	flagSeed      = flag.Uint64("seed", 0, "check only the generated scenario of this seed")
	flagScenarios = flag.Int("scenarios", 0, "how many generated scenarios to check (default 2000; 40 under WebAssembly)")
	flagDump      = flag.String("dump", "", "with -seed: write the scenario as YAML to this file")
	flagUpdate    = flag.Bool("update", false, "rewrite testdata/records.golden")
)

// skipped lists seeds whose scenario exposes a known core bug, each with
// the file in testdata/bugs that reproduces it. Remove a seed when its bug
// is fixed.
var skipped = map[uint64]string{}

// scenarioCount is how many generated scenarios TestGeneratedScenarios
// checks.
func scenarioCount() int {
	switch {
	case *flagScenarios > 0:
		return *flagScenarios
	case runtime.GOOS == "js":
		return 40 // WebAssembly is slower; TestGoldenRecords is what proves it identical
	}
	return 2000
}

// TestGeneratedScenarios checks thousands of generated scenarios after
// every step (checkScenario); a failure prints the seed, the step and a
// command that checks that seed alone.
func TestGeneratedScenarios(t *testing.T) {
	if *flagSeed != 0 {
		sc := Generate(*flagSeed, Options{})
		if *flagDump != "" {
			y, err := sc.YAML()
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(*flagDump, y, 0o644))
		}
		var st stats
		_, err := checkScenario(*flagSeed, sc, cloneStep(*flagSeed, len(sc.Steps)), &st)
		require.NoError(t, err)
		t.Logf("%s", &st)
		return
	}
	n := uint64(scenarioCount())
	const shards = 4
	var total stats
	t.Run("shards", func(t *testing.T) {
		for i := range uint64(shards) {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				var st stats
				failures := 0
				for seed := 1 + i; seed <= n; seed += shards {
					if _, skip := skipped[seed]; skip {
						continue
					}
					sc := Generate(seed, Options{})
					if _, err := checkScenario(seed, sc, cloneStep(seed, len(sc.Steps)), &st); err != nil {
						t.Error(err)
						if failures++; failures >= 5 {
							t.FailNow()
						}
					}
				}
				total.merge(&st)
			})
		}
	})
	t.Logf("%s", &total)
	if !t.Failed() && n >= 500 {
		total.requireVariety(t)
	}
}

// goldenSeeds are the seeds whose records testdata/records.golden pins.
const goldenSeeds = 24

// TestGoldenRecords pins the hash of each of the first goldenSeeds
// generated scenarios and of the decision record and states it plays to,
// checking first that playing it twice gives the same record. The Makefile
// runs it natively and under GOOS=js GOARCH=wasm: both must match the file.
// Refresh it with -update after a deliberate change of the generator or of
// the scheduler's decisions.
func TestGoldenRecords(t *testing.T) {
	var b strings.Builder
	b.WriteString("# seed, sha256 of the generated scenario (canonical JSON), sha256 of its decision record and states\n")
	for seed := uint64(1); seed <= goldenSeeds; seed++ {
		sc := Generate(seed, Options{})
		cj, err := sc.CanonicalJSON()
		require.NoError(t, err)
		var st stats
		first, err := checkScenario(seed, sc, -1, &st)
		require.NoError(t, err)
		again, err := checkScenario(seed, Generate(seed, Options{}), -1, &st)
		require.NoError(t, err)
		require.Equal(t, first.hash(), again.hash(), "seed %d: the same scenario played twice gave different records", seed)
		fmt.Fprintf(&b, "%d %x %x\n", seed, sha256.Sum256(cj), first.hash())
	}
	const file = "testdata/records.golden"
	if *flagUpdate {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(file, []byte(b.String()), 0o644))
		return
	}
	want, err := os.ReadFile(file)
	require.NoError(t, err, "run go test ./scenarios/scengen -run TestGoldenRecords -update to write it")
	require.Equal(t, string(want), b.String(), "the records differ from %s (on %s/%s)", file, runtime.GOOS, runtime.GOARCH)
}

func TestGenerateIsDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		a, err := Generate(seed, Options{}).CanonicalJSON()
		require.NoError(t, err)
		b, err := Generate(seed, Options{}).CanonicalJSON()
		require.NoError(t, err)
		require.Equal(t, string(a), string(b), "seed %d", seed)
		other, err := Generate(seed+1000, Options{}).CanonicalJSON()
		require.NoError(t, err)
		require.NotEqual(t, string(a), string(other))
	}
	sc := Generate(1, Options{Steps: 7, Nodes: 1})
	require.Len(t, sc.Steps, 7)
	require.Len(t, sc.Nodes, 1)
}

// TestGeneratedScenariosRoundTripAndPass: a generated scenario is valid,
// survives canonical JSON, YAML and a share link unchanged, and passes
// scenarios.Run as it is (every refused step carries its error).
func TestGeneratedScenariosRoundTripAndPass(t *testing.T) {
	n := uint64(100)
	if runtime.GOOS == "js" {
		n = 10
	}
	for seed := uint64(1); seed <= n; seed++ {
		sc := Generate(seed, Options{})
		require.NoError(t, sc.Validate(), "seed %d", seed)
		cj, err := sc.CanonicalJSON()
		require.NoError(t, err)
		back, err := scenarios.Parse("canonical.json", cj)
		require.NoError(t, err, "seed %d", seed)
		same := func(how string, other *scenarios.Scenario) {
			oj, err := other.CanonicalJSON()
			require.NoError(t, err)
			require.Equal(t, string(cj), string(oj), "seed %d: %s changed the scenario", seed, how)
		}
		same("canonical JSON", back)
		y, err := sc.YAML()
		require.NoError(t, err)
		fromYAML, err := scenarios.Parse("export.yaml", y)
		require.NoError(t, err, "seed %d", seed)
		same("YAML", fromYAML)
		link, err := scenarios.EncodeLink(sc, len(sc.Steps)/2, "root")
		require.NoError(t, err)
		fromLink, step, sel, err := scenarios.DecodeLink(link)
		require.NoError(t, err, "seed %d", seed)
		require.Equal(t, len(sc.Steps)/2, step)
		require.Equal(t, "root", sel)
		same("a share link", fromLink)
		res := scenarios.Run(sc, scenarios.RunOptions{})
		require.True(t, res.Passed, "seed %d: %v", seed, res.Mismatches)
	}
}
