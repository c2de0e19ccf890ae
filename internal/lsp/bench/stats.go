package bench

import (
	"math"
	"sort"
	"time"
)

// Stats summarises a set of latencies in milliseconds.
type Stats struct {
	N      int     `json:"n"`
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	P95    float64 `json:"p95"`
	Max    float64 `json:"max"`
}

// Summarize computes min, median, p95 and max (nearest rank) of samples.
// An empty set gives the zero Stats.
func Summarize(samples []time.Duration) Stats {
	if len(samples) == 0 {
		return Stats{}
	}
	ms := make([]float64, len(samples))
	for i, d := range samples {
		ms[i] = float64(d) / float64(time.Millisecond)
	}
	sort.Float64s(ms)
	return Stats{
		N:      len(ms),
		Min:    round3(ms[0]),
		Median: round3(percentile(ms, 50)),
		P95:    round3(percentile(ms, 95)),
		Max:    round3(ms[len(ms)-1]),
	}
}

// percentile returns the nearest-rank percentile p (0-100] of sorted values:
// the smallest value such that at least p% of the values are at or below it.
func percentile(sorted []float64, p float64) float64 {
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	if rank < 1 {
		rank = 1
	}
	if rank > len(sorted) {
		rank = len(sorted)
	}
	return sorted[rank-1]
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
