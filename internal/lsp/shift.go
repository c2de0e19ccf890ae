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
// Lines (diag.EditorBreaks) are matched as patience diff does: after the common head and
// tail, the lines that occur exactly once in each text are paired in
// their longest increasing run, and each pair is extended to the equal
// lines around it. An offset on a matched line keeps its column (clamped
// to the line), an offset on a changed line goes to the start of the
// changed region in to.
type lineShift struct {
	fromLines *diag.Lines
	to        []lineSpan
	toLen     int
	match     []int // from line -> to line, -1 when changed
	same      bool
}

// newLineShift matches the lines of from and to.
func newLineShift(from, to []byte) *lineShift {
	s := &lineShift{toLen: len(to)}
	if bytes.Equal(from, to) {
		s.same = true
		return s
	}
	s.fromLines = diag.NewLines(from)
	fl, tl := spans(s.fromLines), spans(diag.NewLines(to))
	s.to = tl
	s.match = make([]int, len(fl))
	for i := range s.match {
		s.match[i] = -1
	}
	head := 0
	for head < len(fl) && head < len(tl) && bytes.Equal(fl[head].text, tl[head].text) {
		s.match[head] = head
		head++
	}
	tail := 0
	for tail < len(fl)-head && tail < len(tl)-head && bytes.Equal(fl[len(fl)-1-tail].text, tl[len(tl)-1-tail].text) {
		s.match[len(fl)-1-tail] = len(tl) - 1 - tail
		tail++
	}
	fm, tm := fl[head:len(fl)-tail], tl[head:len(tl)-tail]
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
	tl := s.to
	p := s.fromLines.Pos(offset)
	line, col := p.Line, p.Col
	if j := s.match[line]; j >= 0 {
		return tl[j].start + min(col, len(tl[j].text))
	}
	// A changed line: after the last matched line above it.
	for i := line - 1; i >= 0; i-- {
		if j := s.match[i]; j >= 0 {
			if j+1 < len(tl) {
				return tl[j+1].start
			}
			return s.toLen
		}
	}
	return 0
}

// lineSpan is one line of a text, with its line break.
type lineSpan struct {
	start int
	text  []byte
}

// spans returns the lines of an index (diag.EditorBreaks: a lone "\r"
// ends a line too), each with its line break.
func spans(l *diag.Lines) []lineSpan {
	c := l.Content()
	out := make([]lineSpan, l.Count())
	for i := range out {
		start := l.LineStart(i)
		out[i] = lineSpan{start, c[start:l.LineStart(i+1)]}
	}
	return out
}

// matchMiddle returns, for each line of a, the index of its partner in b,
// or -1: the lines unique in both, in their longest increasing run, then
// extended over equal neighbours.
func matchMiddle(a, b []lineSpan) []int {
	out := make([]int, len(a))
	for i := range out {
		out[i] = -1
	}
	if len(a) == 0 || len(b) == 0 {
		return out
	}
	// Lines counted by hash: two texts sharing a hash count as one line,
	// which is never unique then (so never paired wrongly).
	type count struct{ inA, inB, atB int }
	seed := maphash.MakeSeed()
	counts := make(map[uint64]count, len(a))
	for _, l := range a {
		h := maphash.Bytes(seed, l.text)
		c := counts[h]
		c.inA++
		counts[h] = c
	}
	for j, l := range b {
		h := maphash.Bytes(seed, l.text)
		if c, ok := counts[h]; ok {
			c.inB++
			c.atB = j
			counts[h] = c
		}
	}
	// Pairs of unique lines, in a's order.
	var pairs [][2]int
	for i, l := range a {
		if c := counts[maphash.Bytes(seed, l.text)]; c.inA == 1 && c.inB == 1 && bytes.Equal(l.text, b[c.atB].text) {
			pairs = append(pairs, [2]int{i, c.atB})
		}
	}
	for _, p := range longestIncreasing(pairs) {
		out[p[0]] = p[1]
	}
	// Extend each match to the equal lines after it, then before it.
	partnered := make([]bool, len(b))
	for _, j := range out {
		if j >= 0 {
			partnered[j] = true
		}
	}
	for i := 0; i+1 < len(a); i++ {
		if j := out[i]; j >= 0 && out[i+1] < 0 && j+1 < len(b) && !partnered[j+1] && bytes.Equal(a[i+1].text, b[j+1].text) {
			out[i+1], partnered[j+1] = j+1, true
		}
	}
	for i := len(a) - 1; i > 0; i-- {
		if j := out[i]; j > 0 && out[i-1] < 0 && !partnered[j-1] && bytes.Equal(a[i-1].text, b[j-1].text) {
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
