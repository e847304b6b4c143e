package workload

import (
	"runtime"
	"strconv"
	"time"
)

// Result is what a timed run measured. Only the measured ticks are timed:
// building the scheduler, the warm-up and the renewal of asks between
// ticks are not.
type Result struct {
	Spec         string  `json:"spec"`
	SetupSeconds float64 `json:"setup_seconds"`
	WarmTicks    int     `json:"warm_ticks"`
	Ticks        int     `json:"ticks"`
	Heartbeats   int64   `json:"heartbeats"`
	Allocations  int64   `json:"allocations"`
	Reservations int64   `json:"reservations"`
	// Seconds is the wall time of the measured ticks; CPUSeconds the
	// process's CPU time over the whole measured loop (renewals included),
	// where the platform reports it. The rates use CPUSeconds when there is
	// one, less the renewals' share: on a machine shared with other work,
	// wall time counts the time the benchmark waited for a core.
	Seconds     float64 `json:"seconds"`
	CPUSeconds  float64 `json:"cpu_seconds,omitempty"`
	ClockSource string  `json:"clock"`

	NsPerHeartbeat float64 `json:"ns_per_heartbeat"`
	// NsPerHeartbeatWall is by wall time, whatever the platform.
	NsPerHeartbeatWall float64 `json:"ns_per_heartbeat_wall"`
	HeartbeatsPerSec   float64 `json:"heartbeats_per_sec"`
	AllocsPerSec       float64 `json:"allocations_per_sec"`
	// Utilisation is the cluster memory in use (containers and
	// reservations) after the last tick, as a fraction.
	Utilisation float64 `json:"utilisation"`

	// GCs and MaxGCPauseNs are the collections during the measured ticks
	// and their longest stop-the-world pause (runtime.MemStats.PauseNs);
	// AllGCs and AllMaxGCPauseNs the same over the whole run, setup and
	// warm-up included (the last 256 pauses).
	GCs             uint32 `json:"gcs"`
	MaxGCPauseNs    uint64 `json:"max_gc_pause_ns"`
	AllGCs          uint32 `json:"all_gcs"`
	AllMaxGCPauseNs uint64 `json:"all_max_gc_pause_ns"`
	// MaxTickNs is the longest measured tick.
	MaxTickNs int64 `json:"max_tick_ns"`
}

// HarnessRun is what the wasm harness (bench/wasmharness) prints after
// "RESULT ": its workload's result, the pause of the collection it runs
// before the workload (the browser compiles the collector's code in the
// first one), and the platform it ran on.
type HarnessRun struct {
	Result
	FirstGCPauseNs uint64 `json:"first_gc_pause_ns"`
	GOOS           string `json:"goos"`
	GOARCH         string `json:"goarch"`
}

// String names the spec's shape: nodes, leaves and apps.
func (sp Spec) String() string {
	return itoa(sp.Nodes) + " nodes, " + itoa(sp.Leaves()) + " leaves, " + itoa(sp.Apps) + " apps"
}

func itoa(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Measure builds the workload, runs warm ticks untimed, then times ticks
// more (each preceded, untimed, by the renewal of the asks due).
func Measure(sp Spec, warm, ticks int) (Result, error) {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start := time.Now()
	w, err := New(sp)
	if err != nil {
		return Result{}, err
	}
	res := Result{Spec: sp.String(), SetupSeconds: time.Since(start).Seconds(), WarmTicks: warm, Ticks: ticks}
	for i := 0; i < warm; i++ {
		w.Step()
	}
	res.measure(w, ticks)
	runtime.ReadMemStats(&m1)
	res.AllGCs, res.AllMaxGCPauseNs = maxPause(&m0, &m1)
	return res, nil
}

// maxPause returns the collections between two readings and their longest pause.
func maxPause(before, after *runtime.MemStats) (uint32, uint64) {
	var longest uint64
	for i := before.NumGC; i < after.NumGC; i++ {
		if after.NumGC-i <= 256 {
			longest = max(longest, after.PauseNs[i%256])
		}
	}
	return after.NumGC - before.NumGC, longest
}

// MeasureMore times ticks more of an existing workload.
func MeasureMore(w *Workload, ticks int) Result {
	res := Result{Spec: w.Spec.String(), Ticks: ticks}
	res.measure(w, ticks)
	return res
}

func (res *Result) measure(w *Workload, ticks int) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	c0 := w.S.Counters()
	var total, prep time.Duration
	cpu0, hasCPU := cpuTime()
	for i := 0; i < ticks; i++ {
		t := time.Now()
		w.Prepare()
		t1 := time.Now()
		w.Tick()
		d := time.Since(t1)
		prep += t1.Sub(t)
		total += d
		res.MaxTickNs = max(res.MaxTickNs, d.Nanoseconds())
		w.S.TakeEvents()
	}
	cpu1, _ := cpuTime()
	runtime.ReadMemStats(&after)
	c1 := w.S.Counters()
	res.Heartbeats = c1.Heartbeats - c0.Heartbeats
	res.Allocations = c1.Allocations - c0.Allocations
	res.Reservations = c1.Reservations - c0.Reservations
	res.Seconds = total.Seconds()
	secs := res.Seconds
	res.ClockSource = "wall"
	if hasCPU {
		res.CPUSeconds = cpu1 - cpu0
		// The renewals' share of the CPU time, by their share of the wall time.
		if wall := (total + prep).Seconds(); wall > 0 {
			secs = res.CPUSeconds * res.Seconds / wall
		}
		res.ClockSource = "cpu"
	}
	if res.Heartbeats > 0 {
		res.NsPerHeartbeat = secs * 1e9 / float64(res.Heartbeats)
		res.NsPerHeartbeatWall = res.Seconds * 1e9 / float64(res.Heartbeats)
	}
	if secs > 0 {
		res.HeartbeatsPerSec = float64(res.Heartbeats) / secs
		res.AllocsPerSec = float64(res.Allocations) / secs
	}
	if cl := w.S.ClusterResource(); cl.MemoryMB > 0 {
		res.Utilisation = float64(w.S.ClusterUsed().MemoryMB) / float64(cl.MemoryMB)
	}
	res.GCs, res.MaxGCPauseNs = maxPause(&before, &after)
}
