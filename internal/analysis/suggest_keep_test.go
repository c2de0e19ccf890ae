package analysis

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNameIndexUpdate edits a list of names the way typing does (a name
// renamed, inserted, removed, a run replaced, names put back) and requires
// the index updated in place to answer every query as pairwise comparison
// with the new list does, and to have been updated in place, not built
// again, for nearly every one of those small edits.
func TestNameIndexUpdate(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	edits, rebuilt := 0, 0
	for round := 0; round < 50; round++ {
		names := make([]string, 1+r.IntN(30))
		for i := range names {
			names[i] = randomName(r)
		}
		ix := newNameIndex(nil, slices.Clone(names))
		for step := 0; step < 30; step++ {
			next := slices.Clone(names)
			at := r.IntN(len(next) + 1)
			switch r.IntN(4) {
			case 0:
				if at < len(next) {
					next[at] += randomName(r)
				}
			case 1:
				next = slices.Insert(next, at, randomName(r), randomName(r))
			case 2:
				next = slices.Delete(next, at, min(len(next), at+1+r.IntN(3)))
			case 3:
				next = slices.Insert(next, at, names[r.IntN(len(names))])
			}
			if len(next) == 0 {
				continue
			}
			edits++
			if !ix.update(next) {
				ix = newNameIndex(nil, slices.Clone(next)) // as suggestIndex does
				rebuilt++
			}
			names = next
			queries := append(slices.Clone(names), randomName(r), randomName(r))
			for _, q := range queries {
				for maxDist := 1; maxDist <= 3; maxDist++ {
					if got, _ := ix.closest(q, maxDist); got != pairwiseClosest(q, names, maxDist) {
						t.Fatalf("round %d step %d: closest(%q, %d) = %q, want %q (among %q)", round, step, q, maxDist, got, pairwiseClosest(q, names, maxDist), names)
					}
				}
			}
		}
	}
	if rebuilt*20 > edits {
		t.Fatalf("%d of %d edits of a few names were not made in place", rebuilt, edits)
	}
}
