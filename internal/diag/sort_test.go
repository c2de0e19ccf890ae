package diag

import (
	"math/rand"
	"reflect"
	"testing"
)

// TestMergeMatchesSort holds Merge to Sort of the concatenation, on random
// findings with many ties (equal in everything Sort compares, told apart by
// their severity), where the order of equal findings shows.
func TestMergeMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	random := func(n int) []Finding {
		var fs []Finding
		for range n {
			s := rng.Intn(3)
			fs = append(fs, Finding{
				File:     []string{"/a", "/b"}[rng.Intn(2)],
				Range:    Range{Start: Pos{Offset: s}, End: Pos{Offset: s + rng.Intn(2)}},
				Severity: Severity(1 + rng.Intn(4)),
				Code:     []string{"T1", "T11"}[rng.Intn(2)],
				Message:  []string{"m", "n"}[rng.Intn(2)],
			})
		}
		return fs
	}
	for i := range 3000 {
		a, b := random(rng.Intn(8)), random(rng.Intn(8))
		want := append(append([]Finding{}, a...), b...)
		Sort(want)
		Sort(a)
		Sort(b)
		got := Merge(a, b)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: Merge = %v\nwant %v", i, got, want)
		}
	}
}
