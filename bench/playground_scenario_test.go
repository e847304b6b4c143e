package bench

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/bench/workload"
	"yarnplay/scenarios"
	"yarnplay/wasm/bridge"
)

// playgroundTicks is how many ticks the playground benchmark's scenario
// offers work for: its warm-up and measured ticks, with room to spare.
const playgroundTicks = 50

// asksPerStep is how many apps' asks one request step carries (one
// allocate call per app, grouped so that the document stays small).
const asksPerStep = 100

// playgroundScenario is benchmark 1's workload (sp, normally
// workload.Allocation()) as a scenario document a user could load: the
// same configuration, nodes, applications (users, leaves, 1 GB AMs and
// container sizes drawn from the same seeded generator, in the same
// order) and containers that finish by themselves after a drawn number of
// ticks, so that the cluster churns. Benchmark 1 renews each app's ask of
// Outstanding containers every RenewEvery ticks between its ticks; a
// scenario played tick by tick from the keyboard has no steps between the
// ticks, so each app asks at once for what the renewals offer over ticks
// ticks (Outstanding per RenewEvery ticks).
func playgroundScenario(sp workload.Spec, ticks int) *scenarios.Scenario {
	rng := rand.New(rand.NewPCG(sp.Seed, 0x5eed))
	leaves := sp.LeafPaths()
	count := sp.Outstanding * (1 + ticks/max(sp.RenewEvery, 1))
	sc := &scenarios.Scenario{
		Version:     scenarios.FormatVersion,
		Name:        "Benchmark 1 at play: " + sp.String(),
		Description: "The performance issue's benchmark 1 as a scenario: every app asks for " + strconv.Itoa(count) + " containers of 1 to 8 GB that run 1 to " + strconv.Itoa(2*sp.MeanLife-1) + " ticks. Press T to tick.",
		Config:      sp.Conf(),
		Nodes: []scenarios.NodeSpec{{
			Name: "n{i}", Count: sp.Nodes, MemoryMB: sp.NodeMemGB * 1024, VCores: sp.NodeVCores,
		}},
	}
	am := scenarios.Res{MemoryMB: 1024, VCores: 1}
	sizes := make([]int64, sp.Apps)
	for i := range sp.Apps {
		user, leaf := rng.IntN(max(sp.Users, 1)), rng.IntN(len(leaves))
		a := am
		sc.Steps = append(sc.Steps, scenarios.Step{Submit: &scenarios.Submit{
			App: "app" + strconv.Itoa(i), User: "u" + strconv.Itoa(user), Queue: leaves[leaf], AM: &a,
		}})
		sizes[i] = sp.AskMinGB + rng.Int64N(sp.AskMaxGB-sp.AskMinGB+1)
	}
	var asks scenarios.Asks
	for i := range sp.Apps {
		life := int64(0)
		if sp.MeanLife > 0 {
			life = 1 + rng.Int64N(int64(2*sp.MeanLife-1))
		}
		asks = append(asks, scenarios.Ask{
			App: "app" + strconv.Itoa(i), Priority: 1, Count: count,
			Resource: scenarios.Res{MemoryMB: sizes[i] * 1024, VCores: 1}, Duration: life,
		})
		if len(asks) == asksPerStep || i == sp.Apps-1 {
			sc.Steps = append(sc.Steps, scenarios.Step{Request: asks})
			asks = nil
		}
	}
	return sc
}

// BenchmarkPlaygroundRestore is the simulation's part of benchmark 5's
// opening (ms-load), natively: benchmark 5's saved work restored into a
// fresh store (parsed, built and replayed to its step), then its first
// frame.
func BenchmarkPlaygroundRestore(b *testing.B) {
	sc := playgroundScenario(workload.Allocation(), playgroundTicks)
	s := store.New()
	require.NoError(b, s.Load(sc, ""))
	saved := bridge.NewMemoryStorage()
	require.NoError(b, s.Save(saved))
	b.ResetTimer()
	for range b.N {
		r := store.New()
		ok, err := r.Restore(saved)
		require.NoError(b, err)
		require.True(b, ok)
		require.NotNil(b, r.Frame())
	}
}
