package bench

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"yarnplay/bench/workload"
	"yarnplay/core"
)

// cloneSource is benchmark 1's scheduler in its steady state (the one
// BenchmarkMemory snapshots), built once for the clone benchmarks, which
// only read it.
var cloneSource = sync.OnceValues(func() (*core.Scheduler, error) {
	sp := workload.Allocation()
	sp.Record = core.RecordNone
	w, err := workload.New(sp)
	if err != nil {
		return nil, err
	}
	for range warmTicks {
		w.Step()
	}
	return w.S, nil
})

func cloneWorkload(b *testing.B) *core.Scheduler {
	b.Helper()
	b.StopTimer()
	s, err := cloneSource()
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkClone is a whole snapshot (Clone) at the scale of benchmark 1:
// its time (ns/op, and the slowest of the b.N) and the heap it holds.
func BenchmarkClone(b *testing.B) {
	s := cloneWorkload(b)
	h0 := heapInUse()
	snap := s.Clone()
	b.ReportMetric(float64(int64(heapInUse())-int64(h0))/1e6, "MB/clone")
	runtime.KeepAlive(snap)
	snap = nil
	var worst time.Duration
	for range b.N {
		start := time.Now()
		b.StartTimer()
		snap = s.Clone()
		b.StopTimer()
		worst = max(worst, time.Since(start))
		runtime.KeepAlive(snap)
		snap = nil
	}
	b.ReportMetric(float64(worst.Nanoseconds())/1e6, "ms-worst")
}
