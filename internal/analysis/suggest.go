package analysis

import (
	"cmp"
	"slices"
	"strings"
)

// nameIndex finds the tool name nearest to a misspelled one without
// comparing it with every name: the names (lowercased, as runes) share a
// trie, and one edit-distance table is filled along the trie's paths, a
// row per character, each row shared by every name with that prefix. A
// path is left as soon as its last row holds nothing within the distance
// allowed, and a row keeps only the diagonal band the distance allows, so
// a search costs the trie nodes within that distance of the name's
// prefixes, not the number of names (5,000 tools and 1,143 unknown names
// compared pairwise took 1.85 s).
type nameIndex struct {
	nodes []trieNode
	rows  [][]int // the search's rows by depth, reused
	// names are the names indexed, in the order of preference, and ranks
	// their ranks, increasing, rankGap apart when built: update brings
	// the index to another list of names in place.
	names []string
	ranks []int
	built int // the nodes when built: those update adds may be left empty
}

type trieNode struct {
	r                rune
	firstChild, next int32 // indexes into nodes, 0: none (the root is never a child)
	names            []rankedName
}

// rankedName is a name ending at a node, with its rank in the order of
// preference (harness tools, Beeuni tools, project tools in declaration
// order).
type rankedName struct {
	name string
	rank int
}

// rankGap is the gap between two ranks of a new index: names inserted
// between two names take ranks between theirs.
const rankGap = 1 << 20

// newNameIndex indexes names, which it keeps; their order is the order of
// preference between names at the same distance. A name indexed is a unit
// of work of stop: once it stops, the index is incomplete.
func newNameIndex(stop *stopper, names []string) *nameIndex {
	ix := &nameIndex{nodes: make([]trieNode, 1, len(names)*4+1), names: names, ranks: make([]int, len(names))}
	for i, name := range names {
		if stop.stopped() {
			break
		}
		ix.ranks[i] = i * rankGap
		ix.insert(name, ix.ranks[i])
	}
	ix.built = len(ix.nodes)
	return ix
}

// insert adds name at rank to the trie, among its node's names in rank
// order.
func (ix *nameIndex) insert(name string, rank int) {
	at := int32(0)
	for _, r := range strings.ToLower(name) {
		at = ix.child(at, r)
	}
	n := &ix.nodes[at]
	i, _ := slices.BinarySearchFunc(n.names, rank, func(c rankedName, r int) int { return cmp.Compare(c.rank, r) })
	n.names = slices.Insert(n.names, i, rankedName{name, rank})
}

// child returns the child of node at for r, adding it if missing.
func (ix *nameIndex) child(at int32, r rune) int32 {
	for c := ix.nodes[at].firstChild; c != 0; c = ix.nodes[c].next {
		if ix.nodes[c].r == r {
			return c
		}
	}
	ix.nodes = append(ix.nodes, trieNode{r: r, next: ix.nodes[at].firstChild})
	c := int32(len(ix.nodes) - 1)
	ix.nodes[at].firstChild = c
	return c
}

// closest returns the indexed name nearest to name by the
// optimal-string-alignment distance over runes (insertions, deletions,
// substitutions and swaps of two adjacent characters each cost one),
// case-insensitive, at most maxDist, the first in the order of preference
// among equals, skipping a name spelt exactly like name; "" and maxDist+1
// when none is that near.
func (ix *nameIndex) closest(name string, maxDist int) (string, int) {
	s := &trieSearch{ix: ix, q: []rune(strings.ToLower(name)), skip: name, band: maxDist, limit: maxDist, bestRank: -1}
	width := 2*s.band + 1
	for len(ix.rows) < len(s.q)+s.band+2 {
		ix.rows = append(ix.rows, nil)
	}
	for i := range ix.rows {
		if len(ix.rows[i]) < width {
			ix.rows[i] = make([]int, width)
		}
	}
	// Row 0: the distance from the empty prefix to each prefix of q.
	row := ix.rows[0]
	for k := range width {
		row[k] = s.band + 1
		if j := k - s.band; j >= 0 && j <= len(s.q) {
			row[k] = j
		}
	}
	s.visit(0, 0, 0)
	if s.bestRank < 0 {
		return "", maxDist + 1
	}
	return s.best, s.limit
}

type trieSearch struct {
	ix          *nameIndex
	q           []rune
	skip        string
	band, limit int // limit: the best distance found so far, or the maximum
	best        string
	bestRank    int
}

// distance is the distance from the path's depth-long prefix to q (from
// its row), band+1 when beyond the band.
func (s *trieSearch) distance(depth int) int {
	if k := len(s.q) - depth + s.band; k >= 0 && k <= 2*s.band {
		return s.ix.rows[depth][k]
	}
	return s.band + 1
}

// visit searches below node, whose path is depth runes long and whose row
// is rows[depth]; prev is the rune of node (for swaps).
func (s *trieSearch) visit(node int32, depth int, prev rune) {
	n := &s.ix.nodes[node]
	if len(n.names) > 0 {
		if d := s.distance(depth); d <= s.limit {
			for _, c := range n.names {
				if c.name == s.skip {
					continue
				}
				if d < s.limit || s.bestRank < 0 || c.rank < s.bestRank {
					s.best, s.bestRank, s.limit = c.name, c.rank, d
				}
				break // names is in rank order
			}
		}
	}
	if depth+1 >= len(s.ix.rows) {
		return
	}
	// The child spelling q's next rune first: it is the likeliest to
	// lower the limit early.
	var want rune = -1
	if depth < len(s.q) {
		want = s.q[depth]
	}
	for pass := 0; pass < 2; pass++ {
		for c := n.firstChild; c != 0; c = s.ix.nodes[c].next {
			if (s.ix.nodes[c].r == want) != (pass == 0) {
				continue
			}
			if s.fill(depth+1, s.ix.nodes[c].r, prev) <= s.limit {
				s.visit(c, depth+1, s.ix.nodes[c].r)
			}
		}
	}
}

// fill computes row i for a path whose i-th rune is r (and (i-1)-th is
// prev), returning the row's minimum. Row i holds the distances from the
// path's depth-i prefix to q's first j runes for j from i-band to i+band
// (index k = j-i+band); a cell outside q, or farther than band, holds
// band+1, which is more than any distance searched.
func (s *trieSearch) fill(i int, r, prev rune) int {
	inf, w := s.band+1, 2*s.band+1
	row, up := s.ix.rows[i][:w], s.ix.rows[i-1][:w]
	var up2 []int
	if i > 1 {
		up2 = s.ix.rows[i-2][:w]
	}
	rowMin := inf
	for k := range row {
		j := i - s.band + k
		v := inf
		switch {
		case j < 0 || j > len(s.q):
		case j == 0:
			v = min(i, inf)
		default:
			// From the row above: (i-1, j-1) is at k, (i-1, j) at k+1.
			v = up[k]
			if s.q[j-1] != r {
				v++
			}
			if k+1 < w {
				v = min(v, up[k+1]+1)
			}
			if k > 0 {
				v = min(v, row[k-1]+1)
			}
			if up2 != nil && j > 1 && r == s.q[j-2] && prev == s.q[j-1] {
				v = min(v, up2[k]+1) // (i-2, j-2) is at k too
			}
			v = min(v, inf)
		}
		row[k] = v
		rowMin = min(rowMin, v)
	}
	return rowMin
}
