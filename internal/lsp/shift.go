package lsp

import (
	"bytes"
	"hash/maphash"
	"sort"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// lineShift maps offsets of one text (from) to the same places in an
// edited version of it (to): a buffer and its last good parse. It matches
// lines once, in O(n log n), and then maps each offset in O(log n), so
// that a request mapping every symbol of a 10,000-tool manifest costs one
// match, not one per symbol (a table of common subsequences per symbol
// made an outline take 35 s at 1,000 tools).
//
// Lines (diag.EditorBreaks: a lone "\r" ends one too) are matched as
// patience diff does: after the common head and tail, the lines that occur
// exactly once in each text are paired in their longest increasing run,
// and each pair is extended to the equal lines around it. An offset on a
// matched line keeps its column (clamped to the line), an offset on a
// changed line goes to the start of the changed region in to.
type lineShift struct {
	from, to *diag.Lines
	match    []int // from line -> to line, -1 when changed
	same     bool
	toLen    int
}

// newLineShift matches the lines of from and to.
func newLineShift(from, to []byte) *lineShift {
	s := &lineShift{toLen: len(to)}
	if bytes.Equal(from, to) {
		s.same = true
		return s
	}
	s.from, s.to = diag.NewLines(from), diag.NewLines(to)
	fl, tl := lineRange{s.from, 0, s.from.Count()}, lineRange{s.to, 0, s.to.Count()}
	s.match = make([]int, fl.n())
	for i := range s.match {
		s.match[i] = -1
	}
	head := 0
	for head < fl.n() && head < tl.n() && bytes.Equal(fl.text(head), tl.text(head)) {
		s.match[head] = head
		head++
	}
	tail := 0
	for tail < fl.n()-head && tail < tl.n()-head && bytes.Equal(fl.text(fl.n()-1-tail), tl.text(tl.n()-1-tail)) {
		s.match[fl.n()-1-tail] = tl.n() - 1 - tail
		tail++
	}
	fm, tm := lineRange{s.from, head, fl.n() - tail}, lineRange{s.to, head, tl.n() - tail}
	for i, j := range matchMiddle(fm, tm) {
		if j >= 0 {
			s.match[head+i] = head + j
		}
	}
	return s
}

// offset maps an offset of from into to.
func (s *lineShift) offset(offset int) int {
	if s.same {
		return max(0, min(offset, s.toLen))
	}
	p := s.from.Pos(offset)
	if j := s.match[p.Line]; j >= 0 {
		start := s.to.LineStart(j)
		return start + min(p.Col, s.to.LineStart(j+1)-start)
	}
	// A changed line: after the last matched line above it.
	for i := p.Line - 1; i >= 0; i-- {
		if j := s.match[i]; j >= 0 {
			return s.to.LineStart(j + 1) // the end of to after its last line
		}
	}
	return 0
}

// lineRange is the lines [lo, hi) of an index.
type lineRange struct {
	lines  *diag.Lines
	lo, hi int
}

func (r lineRange) n() int { return r.hi - r.lo }

// text returns the i-th line of r with its line break.
func (r lineRange) text(i int) []byte {
	return r.lines.Content()[r.lines.LineStart(r.lo+i):r.lines.LineStart(r.lo+i+1)]
}

// matchMiddle returns, for each line of a, the index of its partner in b,
// or -1: the lines unique in both, in their longest increasing run, then
// extended over equal neighbours.
func matchMiddle(a, b lineRange) []int {
	out := make([]int, a.n())
	for i := range out {
		out[i] = -1
	}
	if a.n() == 0 || b.n() == 0 {
		return out
	}
	// Lines counted by hash: two texts sharing a hash count as one line,
	// which is never unique then (so never paired wrongly).
	type count struct{ inA, inB, atB int }
	seed := maphash.MakeSeed()
	counts := make(map[uint64]count, a.n())
	for i := range a.n() {
		h := maphash.Bytes(seed, a.text(i))
		c := counts[h]
		c.inA++
		counts[h] = c
	}
	for j := range b.n() {
		h := maphash.Bytes(seed, b.text(j))
		if c, ok := counts[h]; ok {
			c.inB++
			c.atB = j
			counts[h] = c
		}
	}
	// Pairs of unique lines, in a's order.
	var pairs [][2]int
	for i := range a.n() {
		t := a.text(i)
		if c := counts[maphash.Bytes(seed, t)]; c.inA == 1 && c.inB == 1 && bytes.Equal(t, b.text(c.atB)) {
			pairs = append(pairs, [2]int{i, c.atB})
		}
	}
	for _, p := range longestIncreasing(pairs) {
		out[p[0]] = p[1]
	}
	// Extend each match to the equal lines after it, then before it.
	partnered := make([]bool, b.n())
	for _, j := range out {
		if j >= 0 {
			partnered[j] = true
		}
	}
	for i := 0; i+1 < a.n(); i++ {
		if j := out[i]; j >= 0 && out[i+1] < 0 && j+1 < b.n() && !partnered[j+1] && bytes.Equal(a.text(i+1), b.text(j+1)) {
			out[i+1], partnered[j+1] = j+1, true
		}
	}
	for i := a.n() - 1; i > 0; i-- {
		if j := out[i]; j > 0 && out[i-1] < 0 && !partnered[j-1] && bytes.Equal(a.text(i-1), b.text(j-1)) {
			out[i-1], partnered[j-1] = j-1, true
		}
	}
	return out
}

// longestIncreasing returns the longest run of pairs (sorted by their
// first index) whose second index increases, by patience sorting.
func longestIncreasing(pairs [][2]int) [][2]int {
	var tops []int // tops[k]: index in pairs of the smallest end of a run of length k+1
	prev := make([]int, len(pairs))
	for i, p := range pairs {
		k := sort.Search(len(tops), func(k int) bool { return pairs[tops[k]][1] >= p[1] })
		if k > 0 {
			prev[i] = tops[k-1]
		} else {
			prev[i] = -1
		}
		if k == len(tops) {
			tops = append(tops, i)
		} else {
			tops[k] = i
		}
	}
	run := make([][2]int, len(tops))
	for k, i := len(tops)-1, -1; k >= 0; k-- {
		if i < 0 {
			i = tops[len(tops)-1]
		} else {
			i = prev[i]
		}
		run[k] = pairs[i]
	}
	return run
}
