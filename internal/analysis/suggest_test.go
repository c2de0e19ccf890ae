package analysis

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestNameIndexDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"Bash", "bash", 0}, {"bsh", "bash", 1}, {"grpe", "grep", 1}, {"web_serch", "web_search", 1},
		{"kitten", "sitting", 3}, {"", "abc", 3}, {"ツール", "ツーノ", 1}, {"abc", "", 3},
		{"ca", "abc", 3}, {"abcd", "badc", 2}, {"ÉCRIRE", "écrire", 0}, {"a", "b", 1},
	} {
		name, got := newNameIndex(nil, []string{c.b}).closest(c.a, 10)
		if got != c.want || name != c.b {
			t.Errorf("closest(%q) in {%q} = %q at %d, want %q at %d", c.a, c.b, name, got, c.b, c.want)
		}
	}
	if name, d := newNameIndex(nil, []string{"abcdefgh"}).closest("zzzzzzzz", 2); name != "" || d != 3 {
		t.Errorf("a distance over the limit = %q at %d, want \"\" at 3", name, d)
	}
	// A name spelt exactly like the one looked up is skipped (the next
	// best wins), one spelt in another case is not.
	if name, d := newNameIndex(nil, []string{"bash", "bask"}).closest("bash", 3); name != "bask" || d != 1 {
		t.Errorf("closest(bash) in {bash, bask} = %q at %d, want bask at 1", name, d)
	}
	if name, _ := newNameIndex(nil, []string{"Bash", "bash"}).closest("bash", 3); name != "Bash" {
		t.Errorf("closest(bash) in {Bash, bash} = %q, want Bash", name)
	}
	// Equals: the first in order wins, wherever it sits in the trie.
	if name, _ := newNameIndex(nil, []string{"zbc", "abd", "abc"}).closest("abx", 3); name != "abd" {
		t.Errorf("closest(abx) in {zbc, abd, abc} = %q, want abd (first at distance 1)", name)
	}
}

// pairwiseClosest is the reference: every name compared with the looked-up
// one (what closestTool did before the index).
func pairwiseClosest(name string, names []string, maxDist int) string {
	best, bestD := "", maxDist+1
	for _, c := range names {
		if c == name {
			continue
		}
		if d := referenceDistance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// referenceDistance is the optimal-string-alignment distance over the
// lowercased runes, the full table.
func referenceDistance(a, b string) int {
	ra, rb := []rune(strings.ToLower(a)), []rune(strings.ToLower(b))
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

var suggestPieces = []string{"a", "b", "ab", "ba", "_", "tool", "Tool", "é", "É", "日", "😀", "web", "search", "x", ""}

func randomName(r *rand.Rand) string {
	var b strings.Builder
	for n := r.IntN(5); n >= 0; n-- {
		b.WriteString(suggestPieces[r.IntN(len(suggestPieces))])
	}
	return b.String()
}

// checkIndexMatchesPairwise checks the index's answer for every query
// against the pairwise reference, at every distance closestTool allows.
func checkIndexMatchesPairwise(t *testing.T, names, queries []string) {
	t.Helper()
	ix := newNameIndex(nil, names)
	for _, q := range queries {
		for maxDist := 1; maxDist <= 3; maxDist++ {
			want := pairwiseClosest(q, names, maxDist)
			got, d := ix.closest(q, maxDist)
			if got != want {
				t.Fatalf("closest(%q, %d) = %q, want %q (among %q)", q, maxDist, got, want, names)
			}
			if got != "" && d != referenceDistance(q, got) {
				t.Fatalf("closest(%q, %d) = %q at %d, but the distance is %d", q, maxDist, got, d, referenceDistance(q, got))
			}
		}
	}
}

func TestNameIndexMatchesPairwise(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 300; round++ {
		names := make([]string, r.IntN(40))
		for i := range names {
			names[i] = randomName(r)
		}
		queries := make([]string, 20)
		for i := range queries {
			queries[i] = randomName(r)
			if len(names) > 0 && i%3 == 0 {
				queries[i] = names[r.IntN(len(names))] // an exact name: skipped
			}
		}
		checkIndexMatchesPairwise(t, names, queries)
	}
}

// FuzzNameIndexMatchesPairwise: any names (split at commas) and any query
// get the pairwise reference's suggestion.
func FuzzNameIndexMatchesPairwise(f *testing.F) {
	f.Add("bash,grep,web_search,tool_00001,tool_00010", "tool_0001")
	f.Add("ab,ba,abc,ca", "ac")
	f.Add("ÉCRIRE,écrire,日本,😀😀", "Écrir")
	f.Fuzz(func(t *testing.T, names, query string) {
		if len(names) > 2000 || len(query) > 200 {
			return
		}
		checkIndexMatchesPairwise(t, strings.Split(names, ","), []string{query})
	})
}

// The load's suggestions are the ones the pairwise comparison gives, at
// the scale of the benchmark.
func TestClosestToolAtScale(t *testing.T) {
	oneGoroutine(t)
	names := append(append(HarnessTools(), beeuniTools[:]...), suggestionTools(5000)...)
	var queries []string
	for _, u := range suggestionUnknowns(1143) {
		if len(queries) < 200 {
			queries = append(queries, u)
		}
	}
	ix := newNameIndex(nil, names)
	for _, q := range queries {
		want := pairwiseClosest(q, names, suggestMaxDistance(q))
		if got, _ := ix.closest(q, suggestMaxDistance(q)); got != want {
			t.Fatalf("closest(%q) = %q, want %q", q, got, want)
		}
	}
}
