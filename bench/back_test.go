package bench

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"yarnplay/app/store"
	"yarnplay/bench/workload"
	"yarnplay/protocol"
)

// BenchmarkStepBack is benchmark 5's steps back natively, on the worker's
// side of the protocol: the scenario opened, the node canvas handed to
// the worker (OpCanvas), End, playgroundWarm +
// playgroundMeasured ticks, then playgroundBacks steps back, each handled by
// the server and its reply written and read as the page reads it:
// ms-back-p95 (the handling, the writing and the reading together) and
// the same apart (ms-back-handle-p95, ms-back-write-p95, ms-back-read-p95),
// with the bytes of the largest reply (MB-back-max), the ticks' handling
// (ms-tick-handle-p50) and the keeping of their frames once the reply is
// out (ms-tick-keep-p50, Server.Compact) and the most steps a
// step back replayed (steps-replayed-max: the same on every machine). Then what the worker
// holds to travel in time, against one state (OpMemory): x-history, the
// history's bytes over one state's (MB-state), there, once the worker has
// rebuilt the step shown for the node canvas (x-history-caught-up), and after
// playing on to historyTicks ticks in all (x-history-long), the cluster
// draining as its apps' asks run out.
// historyTicks is how many ticks BenchmarkStepBack plays in all before it
// measures the history again: past the scenario's playgroundTicks, so that
// the cluster drains and its state shrinks (100 ticks of 10,000 nodes
// are the most heartbeats a scenario may make: scenarios.MaxHeartbeats).
const historyTicks = 100

func BenchmarkStepBack(b *testing.B) {
	sc := workload.Scenario(workload.Allocation(), playgroundTicks)
	for range b.N {
		s := store.New()
		require.NoError(b, s.Load(sc, ""))
		sv := protocol.NewServer(s)
		var rw protocol.ReplyWriter
		var rr protocol.ReplyReader
		cross := func(c protocol.Command) (handle, write, read time.Duration, n int) {
			t0 := time.Now()
			rep := sv.Handle(c)
			t1 := time.Now()
			require.Empty(b, rep.Err)
			data := rw.Encode(1, rep)
			t2 := time.Now()
			_, _, err := rr.Decode(data)
			require.NoError(b, err)
			return t1.Sub(t0), t2.Sub(t1), time.Since(t2), len(data)
		}
		// The page hands the worker its node canvas, as it does past
		// store.NodesDrawnWhole nodes in a browser that can.
		cross(protocol.Command{Op: protocol.OpCanvas, N: 1280})
		cross(protocol.Command{Op: protocol.OpLast})
		ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
		var ticks, keeps []float64
		for range playgroundWarm + playgroundMeasured {
			h, _, _, _ := cross(protocol.Command{Op: protocol.OpTick, N: 1})
			ticks = append(ticks, ms(h))
			t0 := time.Now()
			sv.Compact(&rw) // as the worker does once the reply is posted
			keeps = append(keeps, ms(time.Since(t0)))
		}
		b.ReportMetric(quantile(ticks, 0.5), "ms-tick-handle-p50")
		b.ReportMetric(quantile(keeps, 0.5), "ms-tick-keep-p50")
		var all, hs, ws, rs []float64
		var replays []int
		most := 0
		for range playgroundBacks {
			played := s.Played()
			h, w, r, n := cross(protocol.Command{Op: protocol.OpBack})
			all, hs, ws, rs = append(all, ms(h+w+r)), append(hs, ms(h)), append(ws, ms(w)), append(rs, ms(r))
			most = max(most, n)
			replays = append(replays, s.Played()-played)
		}
		b.ReportMetric(float64(slices.Max(replays)), "steps-replayed-max")
		b.ReportMetric(quantile(all, 0.95), "ms-back-p95")
		b.ReportMetric(quantile(hs, 0.95), "ms-back-handle-p95")
		b.ReportMetric(quantile(ws, 0.95), "ms-back-write-p95")
		b.ReportMetric(quantile(rs, 0.95), "ms-back-read-p95")
		b.ReportMetric(float64(most)/1e6, "MB-back-max")
		b.Logf("handle %v ms; write %v ms; read %v ms; steps replayed %v", rounded(hs), rounded(ws), rounded(rs), replays)
		memory := func() protocol.Memory {
			rep := sv.Handle(protocol.Command{Op: protocol.OpMemory})
			require.Empty(b, rep.Err)
			m, err := protocol.MemoryOf(rep)
			require.NoError(b, err)
			b.Logf("at step %d: one state %.1f MB, the history %.1f MB (%d frames kept, %.1f MB of them)",
				sv.Shown().Step, float64(m.State)/1e6, float64(m.History)/1e6, m.Frames, float64(m.FrameBytes)/1e6)
			return m
		}
		m := memory()
		b.ReportMetric(float64(m.State)/1e6, "MB-state")
		b.ReportMetric(float64(m.History)/1e6, "MB-history")
		b.ReportMetric(float64(m.History)/float64(m.State), "x-history")
		// The worker then rebuilds the step shown, for the node canvas,
		// a part at a time (protocol.Server.CatchUp).
		parts, t0 := 1, time.Now()
		for ; ; parts++ {
			if _, done := sv.CatchUp(); done {
				break
			}
		}
		b.Logf("caught up in %d parts, %v", parts, time.Since(t0).Round(time.Millisecond))
		m = memory()
		b.ReportMetric(float64(m.History)/float64(m.State), "x-history-caught-up")
		cross(protocol.Command{Op: protocol.OpLast})
		for range historyTicks - playgroundWarm - playgroundMeasured {
			cross(protocol.Command{Op: protocol.OpTick, N: 1})
		}
		m = memory()
		b.ReportMetric(float64(m.History)/float64(m.State), "x-history-long")
	}
}
