//go:build unix

package lsp

import (
	"syscall"
	"time"
)

// processCPUTime is the CPU time (user + system) this process has used. The
// benchmarks report it per operation next to wall time, because on a shared
// machine wall time mostly measures the other processes.
func processCPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
