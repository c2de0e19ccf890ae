package main

import (
	"runtime/debug"
	"testing"
)

// restoreGC puts the process's collector settings back after a test.
func restoreGC(t *testing.T) {
	limit, percent := debug.SetMemoryLimit(-1), debug.SetGCPercent(100)
	debug.SetGCPercent(percent)
	t.Cleanup(func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(percent)
	})
}

func TestTuneGCSetsTheServerDefaults(t *testing.T) {
	restoreGC(t)
	debug.SetMemoryLimit(1 << 40)
	debug.SetGCPercent(100)
	tuneGC(func(string) string { return "" })
	if got := debug.SetMemoryLimit(-1); got != serveMemoryLimit {
		t.Errorf("memory limit %d, want %d", got, serveMemoryLimit)
	}
	if got := debug.SetGCPercent(100); got != serveGCPercent {
		t.Errorf("GC percent %d, want %d", got, serveGCPercent)
	}
}

// A person who sets GOMEMLIMIT or GOGC for the server gets what they set:
// the runtime read it at start, and tuneGC leaves it alone.
func TestTuneGCLeavesWhatTheEnvironmentSet(t *testing.T) {
	restoreGC(t)
	debug.SetMemoryLimit(1 << 40)
	debug.SetGCPercent(150)
	tuneGC(func(k string) string { return map[string]string{"GOMEMLIMIT": "1TiB", "GOGC": "150"}[k] })
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("memory limit %d after GOMEMLIMIT was set, want it unchanged (%d)", got, int64(1<<40))
	}
	if got := debug.SetGCPercent(150); got != 150 {
		t.Errorf("GC percent %d after GOGC was set, want it unchanged (150)", got)
	}
}
