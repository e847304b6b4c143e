//go:build unix

package workload

import "syscall"

// cpuTime is the CPU time the process has used (user and system, all
// threads), or false where the platform cannot tell.
func cpuTime() (float64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9, true
}
