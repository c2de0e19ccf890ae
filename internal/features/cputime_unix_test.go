//go:build unix

package features

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user + system) the test process has used.
// Benchmarks report it per operation next to ns/op, which on a busy machine
// also counts the time spent waiting for a core.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
