package bench

import (
	"runtime"
	"slices"
	"strconv"
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

// BenchmarkCloneSteps is the same snapshot made in steps (BeginClone,
// Step(budget)) for several budgets, each copy starting after a garbage
// collection: the longest and the median step, the number of steps and the
// time per object copied, from which the playground picks a budget that
// keeps a step short. ns/op is the whole copy.
func BenchmarkCloneSteps(b *testing.B) {
	for _, budget := range []int{1000, 5000, 20000, 80000} {
		b.Run("budget="+strconv.Itoa(budget), func(b *testing.B) {
			s := cloneWorkload(b)
			var steps []time.Duration
			objects := 0
			for range b.N {
				runtime.GC()
				c := s.BeginClone()
				for done := false; !done; {
					start := time.Now()
					b.StartTimer()
					var err error
					done, err = c.Step(budget)
					b.StopTimer()
					steps = append(steps, time.Since(start))
					if err != nil {
						b.Fatal(err)
					}
				}
				objects = c.Copied()
			}
			var total time.Duration
			for _, d := range steps {
				total += d
			}
			slices.Sort(steps)
			b.ReportMetric(float64(steps[len(steps)-1].Nanoseconds())/1e6, "ms-longest-step")
			b.ReportMetric(float64(steps[len(steps)/2].Nanoseconds())/1e6, "ms-median-step")
			b.ReportMetric(float64(len(steps))/float64(b.N), "steps")
			b.ReportMetric(float64(objects), "objects")
			b.ReportMetric(float64(total.Nanoseconds())/float64(b.N*objects), "ns/object")
		})
	}
}
