package app

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/scenarios"
)

// tickedScenario is a scenario of q leaf queues, n nodes, a apps (each
// submitted and asking for containers) and s steps in all: ticks of tick
// ticks each after the apps' steps.
func tickedScenario(q, n, a, s, tick int) *scenarios.Scenario {
	conf := map[string]string{}
	leaves := make([]string, q)
	for i := range leaves {
		leaves[i] = fmt.Sprint("q", i)
	}
	conf["yarn.scheduler.capacity.root.queues"] = strings.Join(leaves, ",")
	for i := range leaves {
		c := 100.0 / float64(q)
		if i == 0 {
			c = 100 - c*float64(q-1)
		}
		conf[fmt.Sprintf("yarn.scheduler.capacity.root.q%d.capacity", i)] = fmt.Sprintf("%.6f", c)
	}
	sc := &scenarios.Scenario{Version: 1, Name: "sized", Config: conf,
		Nodes: []scenarios.NodeSpec{{Name: "n{i}", Count: n, MemoryMB: 65536, VCores: 64}}}
	one := tick
	for i := 0; i < a && len(sc.Steps)+2 <= s; i++ {
		app := fmt.Sprint("app_", i)
		sc.Steps = append(sc.Steps,
			scenarios.Step{Submit: &scenarios.Submit{App: app, User: fmt.Sprint("u", i%7), Queue: leaves[i%q]}},
			scenarios.Step{Request: []scenarios.Ask{{App: app, Priority: 1, Resource: scenarios.Res{MemoryMB: 1024, VCores: 1}, Count: 2}}})
	}
	for len(sc.Steps) < s {
		sc.Steps = append(sc.Steps, scenarios.Step{Tick: &one})
	}
	return sc
}

// TestMeasurePageLimits measures, natively, what opening a scenario of
// each size costs the page: the store loads it, stands on its last step
// (as a link to its end opens) and the page renders once. It logs the time
// and the heap after a collection; it runs only with YARNPLAY_MEASURE=1
// (go test ./app -run MeasurePageLimits -v), as a measurement, not a test
// of time.
func TestMeasurePageLimits(t *testing.T) {
	if os.Getenv("YARNPLAY_MEASURE") == "" {
		t.Skip("a measurement: YARNPLAY_MEASURE=1 runs it")
	}
	for _, tc := range []struct{ q, n, a, s, tick int }{
		{5, 10, 10, 1000, 0}, {5, 10, 10, 10000, 0}, {5, 10, 10, 50000, 0}, {5, 10, 10, 100000, 0},
		{5, 1000, 10, 100, 0}, {5, 10000, 10, 100, 0},
		{200, 10, 10, 100, 0}, {1000, 10, 10, 100, 0}, {2000, 10, 10, 100, 0},
		{5, 100, 1000, 2000, 0}, {5, 100, 5000, 10000, 0}, {5, 100, 10000, 20000, 0},
		{5, 1000, 100, 300, 10}, {5, 1000, 100, 1200, 10}, {5, 10000, 100, 300, 10},
	} {
		sc := tickedScenario(tc.q, tc.n, tc.a, tc.s, max(tc.tick, 1))
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		s := store.New()
		require.NoError(t, s.Load(sc, ""))
		s.Last()
		loaded := time.Since(start)
		p := &Page{}
		p.ctl = NewLocalController(s)
		p.loaded = true
		html := render(t, nil, p)
		total := time.Since(start)
		runtime.ReadMemStats(&after)
		runtime.GC()
		var kept runtime.MemStats
		runtime.ReadMemStats(&kept)
		t.Logf("queues %5d nodes %5d apps %5d steps %6d, ticks of %d: load+last %6.2fs, +render %6.2fs; allocated %6.0f MB, heap kept %5.0f MB, page %5.1f MB of HTML",
			tc.q+1, tc.n, tc.a, tc.s, max(tc.tick, 1), loaded.Seconds(), total.Seconds(),
			float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), float64(kept.HeapAlloc)/(1<<20), float64(len(html))/(1<<20))
		runtime.KeepAlive(s)
	}
}
