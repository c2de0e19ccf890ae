package bench

import (
	"testing"
	"time"
)

func TestSummarize(t *testing.T) {
	ms := func(vs ...float64) []time.Duration {
		out := make([]time.Duration, len(vs))
		for i, v := range vs {
			out[i] = time.Duration(v * float64(time.Millisecond))
		}
		return out
	}
	hundred := make([]float64, 100)
	for i := range hundred {
		hundred[i] = float64(100 - i) // 100 .. 1, unsorted
	}
	tests := []struct {
		name    string
		samples []time.Duration
		want    Stats
	}{
		{"empty", nil, Stats{}},
		{"one", ms(2.5), Stats{N: 1, Min: 2.5, Median: 2.5, P95: 2.5, Max: 2.5}},
		{"two", ms(4, 1), Stats{N: 2, Min: 1, Median: 1, P95: 4, Max: 4}},
		{"odd", ms(5, 1, 3), Stats{N: 3, Min: 1, Median: 3, P95: 5, Max: 5}},
		{"hundred", ms(hundred...), Stats{N: 100, Min: 1, Median: 50, P95: 95, Max: 100}},
		{"sub-microsecond rounding", []time.Duration{1234567}, Stats{N: 1, Min: 1.235, Median: 1.235, P95: 1.235, Max: 1.235}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Summarize(tt.samples); got != tt.want {
				t.Errorf("Summarize = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestPositionAt(t *testing.T) {
	text := "a: 1\n日本: x\n😀b\n\tc"
	tests := []struct {
		offset int
		want   Position
	}{
		{0, Position{0, 0}},
		{4, Position{0, 4}},
		{5, Position{1, 0}},
		{5 + 6, Position{1, 2}},      // after two 3-byte characters
		{5 + 10, Position{2, 0}},     // start of the emoji line
		{5 + 10 + 4, Position{2, 2}}, // after a surrogate pair
		{len(text), Position{3, 2}},
		{len(text) + 10, Position{3, 2}}, // clamped
	}
	for _, tt := range tests {
		if got := PositionAt(text, tt.offset); got != tt.want {
			t.Errorf("PositionAt(%d) = %+v, want %+v", tt.offset, got, tt.want)
		}
	}
}
