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

// In the browser an action works only when the garbage collector is not
// marking: a tick that starts during a mark, or a mark that starts in the
// middle of a tick, waits at the store's next pause for the browser's
// turns that finish it (gcMarking), and a mark that never ends holds an
// action back for markWaits turns only.
func TestTheSchedulerPlaysOnceTheCollectorHasMarked(t *testing.T) {
	whole := NewController(store.New())
	require.NoError(t, whole.Store.Load(bigTicks(), ""))
	whole.Do(func(s *store.Store) error { s.Last(); return nil })

	c := NewController(store.New())
	require.NoError(t, c.Store.Load(bigTicks(), ""))
	clock := time.Unix(0, 0)
	c.now = func() time.Time { clock = clock.Add(3 * time.Millisecond); return clock }
	// A mark lasts markTurns of the browser's turns; startMark starts one
	// at the next turn.
	markTurns, startMark := 0, 0
	c.marking = func() bool { return markTurns > 0 }
	var timings []Timing
	c.SetYield(func() {
		if markTurns > 0 {
			markTurns--
		}
		markTurns, startMark = markTurns+startMark, 0
	}, func(t Timing) { timings = append(timings, t) })
	playedMarking, beginMark, beginMarkAnywhere := 0, false, false
	c.Store.SetPlayWatch(func(playing bool) {
		c.watchPlay(playing)
		if playing && c.marking() {
			playedMarking++
		}
	})
	c.Store.SetPause(func() {
		if beginMark && !c.playStart.IsZero() || beginMarkAnywhere {
			beginMark, beginMarkAnywhere, startMark = false, false, 6
		}
		c.pause()
		if !c.playStart.IsZero() && c.marking() {
			playedMarking++
		}
	})
	c.Do(func(s *store.Store) error { s.Last(); return nil })

	tick := func() Timing {
		t.Helper()
		require.NoError(t, whole.Do(func(s *store.Store) error { return s.ForwardTick() }))
		require.NoError(t, c.Do(func(s *store.Store) error { return s.ForwardTick() }))
		return timings[len(timings)-1]
	}
	require.Zero(t, tick().MarkWaits, "no mark, no wait")

	markTurns = 4
	require.Equal(t, 4, tick().MarkWaits, "a tick that starts during a mark waits for its end")

	beginMark = true // a mark begins at the tick's first pause in play
	got := tick()
	require.False(t, beginMark)
	require.Equal(t, 6, got.MarkWaits, "a mark that begins during a tick holds its play back until its end")

	beginMarkAnywhere = true // a mark begins at the tick's first pause
	require.Equal(t, 6, tick().MarkWaits, "a mark that begins while the store works holds it back until its end")

	require.Zero(t, playedMarking, "the scheduler never played while the collector marked")

	markTurns = 1 << 30
	require.Equal(t, markWaits, tick().MarkWaits, "a mark that does not end holds an action's play back for markWaits turns in all")
	markTurns = 0
	a, _ := json.Marshal(whole.Frame())
	b, _ := json.Marshal(c.Frame())
	require.Equal(t, string(a), string(b), "waiting changes nothing")
}

// FrameWork after the last frame, the action's next turn waits for the
// browser to render a frame instead of yielding; the action reports the
// frames it waited for.
func TestSlicesWaitForFrames(t *testing.T) {
	c := NewController(store.New())
	sc := bigTicks()
	sc.Nodes[0].Count = 3000 // a tick long enough for turns of both kinds
	require.NoError(t, c.Store.Load(sc, ""))
	clock := time.Unix(0, 0)
	// A millisecond a reading: a slice ends after a few, so some turns
	// come before FrameWork has passed.
	c.now = func() time.Time { clock = clock.Add(time.Millisecond); return clock }
	var timings []Timing
	yields, frames, ends := 0, 0, 0
	var since []time.Duration // the time since the last frame, at each
	c.SetYield(func() {
		require.True(t, c.running, "after an action, its frame's render waits for a frame")
		yields++
	}, func(t Timing) { timings = append(timings, t) })
	c.SetFrameYield(func() {
		frames++
		if !c.running {
			// After the action: its frame's render waits for one.
			ends++
			return
		}
		since = append(since, clock.Sub(c.lastFrame))
	})
	c.Do(func(s *store.Store) error { s.Last(); return nil })
	require.NoError(t, c.Do(func(s *store.Store) error { return s.ForwardTick() }))

	tick := timings[len(timings)-1]
	require.Positive(t, frames, "a tick of 3,000 nodes waits for frames")
	require.Positive(t, yields, "and yields between them")
	sliced := 0
	for _, t := range timings {
		if t.Slices > 1 {
			sliced++
		}
	}
	require.Equal(t, sliced, ends, "an action that ran in slices has its frame rendered after a frame")
	require.Equal(t, frames, timings[0].Frames+tick.Frames+ends)
	for _, d := range since {
		require.GreaterOrEqual(t, d, FrameWork)
		require.LessOrEqual(t, d, FrameWork+tick.Longest+6*time.Millisecond, "at most a slice past FrameWork")
	}
}
