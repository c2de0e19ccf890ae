package lsp

import "bytes"

// maxDiffCells bounds the line-matching table of shiftOffset; beyond it,
// lines between the common head and tail are treated as all changed.
const maxDiffCells = 4 << 20

// shiftOffset maps an offset of from to the same place in to, where to is
// from edited (a buffer and its last good parse). Lines are matched by a
// longest common subsequence after the common head and tail are set
// aside; an offset on a matched line keeps its column (clamped to the
// line), an offset on a changed line goes to the start of the changed
// region in to.
func shiftOffset(from, to []byte, offset int) int {
	offset = max(0, min(offset, len(from)))
	if bytes.Equal(from, to) {
		return offset
	}
	fl, tl := splitLines(from), splitLines(to)
	// Common head and tail lines.
	head := 0
	for head < len(fl) && head < len(tl) && bytes.Equal(fl[head].text, tl[head].text) {
		head++
	}
	tail := 0
	for tail < len(fl)-head && tail < len(tl)-head && bytes.Equal(fl[len(fl)-1-tail].text, tl[len(tl)-1-tail].text) {
		tail++
	}
	match := make([]int, len(fl)) // from line -> to line, -1 when changed
	for i := range match {
		match[i] = -1
	}
	for i := 0; i < head; i++ {
		match[i] = i
	}
	for i := 0; i < tail; i++ {
		match[len(fl)-1-i] = len(tl) - 1 - i
	}
	fm, tm := fl[head:len(fl)-tail], tl[head:len(tl)-tail]
	if len(fm)*len(tm) <= maxDiffCells {
		for i, j := range lcsLines(fm, tm) {
			if j >= 0 {
				match[head+i] = head + j
			}
		}
	}
	line := 0
	for line+1 < len(fl) && fl[line+1].start <= offset {
		line++
	}
	col := offset - fl[line].start
	if j := match[line]; j >= 0 {
		return tl[j].start + min(col, len(tl[j].text))
	}
	// A changed line: after the last matched line above it.
	for i := line - 1; i >= 0; i-- {
		if j := match[i]; j >= 0 {
			if j+1 < len(tl) {
				return tl[j+1].start
			}
			return len(to)
		}
	}
	return 0
}

type lineSpan struct {
	start int
	text  []byte // with its line break
}

func splitLines(b []byte) []lineSpan {
	var out []lineSpan
	start := 0
	for i, c := range b {
		if c == '\n' {
			out = append(out, lineSpan{start, b[start : i+1]})
			start = i + 1
		}
	}
	return append(out, lineSpan{start, b[start:]})
}

// lcsLines returns, for each line of a, the index of its partner in b in a
// longest common subsequence, or -1.
func lcsLines(a, b []lineSpan) []int {
	n, m := len(a), len(b)
	table := make([][]int32, n+1)
	for i := range table {
		table[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if bytes.Equal(a[i].text, b[j].text) {
				table[i][j] = table[i+1][j+1] + 1
			} else {
				table[i][j] = max(table[i+1][j], table[i][j+1])
			}
		}
	}
	out := make([]int, n)
	for i := range out {
		out[i] = -1
	}
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case bytes.Equal(a[i].text, b[j].text):
			out[i] = j
			i, j = i+1, j+1
		case table[i+1][j] >= table[i][j+1]:
			i++
		default:
			j++
		}
	}
	return out
}
