package lsp

import (
	"context"
	"encoding/json"
	"runtime"
)

// methodDebugMemory is a custom request the latency benchmark
// (internal/lsp/bench) sends at the end of a run: the server collects
// garbage and answers its heap, so that the benchmark can report the memory
// a long session really keeps, beside the peak the kernel saw (VmHWM). It
// takes no parameters and changes nothing.
const methodDebugMemory = "beeuni/debugMemory"

// debugMemoryResult is the answer of beeuni/debugMemory, in bytes.
type debugMemoryResult struct {
	HeapAlloc   uint64 `json:"heapAlloc"`    // live heap after the collection
	HeapInuse   uint64 `json:"heapInuse"`    // heap spans in use
	HeapSys     uint64 `json:"heapSys"`      // heap obtained from the system
	Sys         uint64 `json:"sys"`          // everything obtained from the system
	NumGC       uint32 `json:"numGC"`        // collections so far
	Goroutines  int    `json:"goroutines"`   // goroutines now
	TotalAlloc  uint64 `json:"totalAlloc"`   // bytes allocated since start
	Mallocs     uint64 `json:"mallocs"`      // allocations since start
	PauseTotalN uint64 `json:"pauseTotalNs"` // total GC pause
}

func debugMemory(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return debugMemoryResult{
		HeapAlloc: m.HeapAlloc, HeapInuse: m.HeapInuse, HeapSys: m.HeapSys, Sys: m.Sys,
		NumGC: m.NumGC, Goroutines: runtime.NumGoroutine(), TotalAlloc: m.TotalAlloc,
		Mallocs: m.Mallocs, PauseTotalN: m.PauseTotalNs,
	}, nil
}
