//go:build !unix

package workload

// cpuTime cannot be read here (WebAssembly): the benchmarks use wall time.
func cpuTime() (float64, bool) { return 0, false }
