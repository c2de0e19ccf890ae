package analysis

import (
	"unicode/utf8"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// colStride is the distance in characters between two column marks of a
// line holding non-ASCII bytes.
const colStride = 64

// indexColumns finds the YAML lines that hold a byte that is not ASCII and
// marks, on each, the byte offset of every colStride-th character, so that
// offset converts a column in characters in O(colStride) instead of
// walking the line from its start: yaml.v3 marks every node of a flow
// collection on one line, and 20,000 of them on one line cost 34 s walked
// one by one. An ASCII line needs no marks: a column is a byte count there.
// One pass over the content.
func (p *positions) indexColumns() {
	if diag.IsASCII(p.content) {
		return
	}
	for line := range p.starts {
		start, end := p.starts[line], p.walkEnd(line)
		if diag.IsASCII(p.content[start:end]) {
			continue
		}
		if p.wide == nil {
			p.wide = map[int][]int{}
		}
		marks := make([]int, 0, (end-start)/colStride+1)
		for off, chars := start, 0; ; chars++ {
			if chars%colStride == 0 {
				marks = append(marks, off)
			}
			if off >= end {
				break
			}
			off += charSize(p.content[off:end])
		}
		p.wide[line] = marks
	}
}

// walkEnd returns where a column walk from the start of a 0-based YAML
// line stops within that line: at its "\r" or "\n", or, when the line
// ends with NEL, LS or PS (characters a column may count), at the next
// line's start.
func (p *positions) walkEnd(line int) int {
	if line+1 >= len(p.starts) {
		return len(p.content)
	}
	next, c := p.starts[line+1], p.content
	if next >= 1 && (c[next-1] == '\n' || c[next-1] == '\r') {
		if next >= 2 && c[next-2] == '\r' && c[next-1] == '\n' {
			return next - 2
		}
		return next - 1
	}
	return next
}

// advance returns the offset chars characters after the start of a 0-based
// YAML line, stopping at a "\r" or "\n" or the end of the content (a walk
// may go on through a NEL, LS or PS into the next YAML lines, as yaml.v3's
// columns never do).
func (p *positions) advance(line, chars int) int {
	for {
		off, end := p.starts[line], p.walkEnd(line)
		if marks := p.wide[line]; marks != nil {
			k := min(chars/colStride, len(marks)-1)
			off, chars = marks[k], chars-k*colStride
			for ; chars > 0 && off < end; chars-- {
				off += charSize(p.content[off:end])
			}
		} else {
			step := min(chars, end-off)
			off, chars = off+step, chars-step
		}
		if chars == 0 || line+1 >= len(p.starts) || end != p.starts[line+1] {
			return off
		}
		line++
	}
}

// charSize returns the byte length of the character b starts with (an
// invalid byte is one character).
func charSize(b []byte) int {
	if b[0] < utf8.RuneSelf {
		return 1
	}
	_, size := utf8.DecodeRune(b)
	return size
}
