package app

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/scenarios"
)

// bigTicks is a scenario whose ticks are big steps: 300 nodes, an app
// asking for more than they hold.
func bigTicks() *scenarios.Scenario {
	return &scenarios.Scenario{Version: 1, Name: "big ticks",
		Config: map[string]string{"yarn.scheduler.capacity.root.queues": "default", "yarn.scheduler.capacity.root.default.capacity": "100"},
		Nodes:  []scenarios.NodeSpec{{Name: "n{i}", Count: 300}},
		Steps: []scenarios.Step{
			{Submit: &scenarios.Submit{App: "app_1", User: "ann", Queue: "default", AM: &scenarios.Res{MemoryMB: 1024, VCores: 1}}},
			{Request: scenarios.Asks{{App: "app_1", Priority: 1, Resource: scenarios.Res{MemoryMB: 1024, VCores: 1}, Count: 5000, Duration: 3}}},
		},
	}
}

// In the browser, an action runs in slices of SliceBudget with the
// browser's turn between them and after the last, reports its timing once,
// and publishes what it publishes run whole.
func TestActionsRunInSlices(t *testing.T) {
	whole := NewController(store.New())
	require.NoError(t, whole.Store.Load(bigTicks(), ""))

	sliced := NewController(store.New())
	require.NoError(t, sliced.Store.Load(bigTicks(), ""))
	clock := time.Unix(0, 0)
	sliced.now = func() time.Time { clock = clock.Add(3 * time.Millisecond); return clock }
	yields := 0
	var timings []Timing
	sliced.SetYield(func() { yields++ }, func(t Timing) { timings = append(timings, t) })

	for _, c := range []*Controller{whole, sliced} {
		c.Do(func(s *store.Store) error { s.Last(); return nil })
		for range 3 {
			require.NoError(t, c.Do(func(s *store.Store) error { return s.ForwardTick() }))
		}
	}
	a, _ := json.Marshal(whole.Frame())
	b, _ := json.Marshal(sliced.Frame())
	require.Equal(t, string(a), string(b), "slices change nothing")

	require.Len(t, timings, 4, "one timing per action")
	tick := timings[3]
	require.Equal(t, "tick", tick.Kind)
	require.Equal(t, 5, tick.Step)
	require.Greater(t, tick.Slices, 1, "a tick of 300 nodes pauses")
	require.Positive(t, tick.Play)
	require.GreaterOrEqual(t, tick.CPU, tick.Play)
	require.GreaterOrEqual(t, tick.Wall, tick.CPU)
	require.LessOrEqual(t, tick.Longest, SliceBudget+10*time.Millisecond, "a slice ends soon after its budget")
	total := 0
	for _, t := range timings {
		total += t.Slices - 1
		if t.Slices > 1 {
			// The page's render of the frame starts a new task.
			total++
		}
	}
	require.Equal(t, total, yields, "a yield between slices, and one after an action that ran in slices")

	// An action run inside another is part of it.
	n := len(timings)
	sliced.Run(func(s *store.Store) error {
		return sliced.Run(func(s *store.Store) error { return s.ForwardTick() })
	})
	require.Len(t, timings, n+1)

	// Natively nothing pauses.
	require.Nil(t, whole.yield)
}
