package diag

import (
	"encoding/binary"
	"sort"
	"unicode/utf8"
)

// Unit is what a column counts from its line's start.
type Unit uint8

const (
	// Bytes: a Pos's own column; the protocol's "utf-8" encoding.
	Bytes Unit = iota
	// Chars: characters (runes), as the CLI prints columns and yaml.v3
	// counts the columns of its marks.
	Chars
	// UTF16: UTF-16 code units, the protocol's default encoding (a
	// character past U+FFFF is two).
	UTF16
)

// A column walks characters as utf8.DecodeRune decodes them: an invalid
// byte is one character of one unit. A column never counts into a line's
// break, and a byte offset inside a character counts as that character's
// start.

// colMark is the byte offset of a character and its column in UTF-16
// units; the k-th mark of a line is its (k·colStride)-th character.
type colMark struct{ off, utf16 int }

// colStride is the distance in characters between two marks of a line; a
// line shorter than longLine bytes has no marks and is walked from its
// start instead.
const (
	colStride = 64
	longLine  = 4 * colStride
)

// indexColumns finds the lines holding a byte that is not ASCII and marks,
// on each one longer than longLine, the byte offset and UTF-16 column of
// every colStride-th character, so that a column on a long line costs
// O(log n + colStride) instead of a walk from the line's start: 20,000
// findings on one 640 KB flow mapping cost what they cost on 20,000 lines.
// One pass over the content, none for an ASCII one.
func (l *Lines) indexColumns() {
	if l.ascii {
		return
	}
	c := l.content
	for line := range l.starts {
		start, next := l.start(line), l.LineStart(line+1)
		if IsASCII(c[start:next]) {
			continue
		}
		if l.cols == nil {
			l.cols = map[int][]colMark{}
		}
		end := l.LineEnd(line)
		if end-start <= longLine {
			l.cols[line] = nil // walked
			continue
		}
		marks := make([]colMark, 0, (end-start)/colStride+1)
		for off, units, n := start, 0, 0; ; n++ {
			if n%colStride == 0 {
				marks = append(marks, colMark{off, units})
			}
			if off >= end {
				break
			}
			r, size := utf8.DecodeRune(c[off:end])
			units += utf16Len(r)
			off += size
		}
		l.cols[line] = marks
	}
}

// wide returns the marks of a line holding non-ASCII bytes (nil for a
// short one) and true, or false for a line of ASCII bytes.
func (l *Lines) wide(line int) ([]colMark, bool) {
	if l.ascii {
		return nil, false
	}
	l.colsOnce.Do(l.indexColumns)
	marks, ok := l.cols[line]
	return marks, ok
}

// utf16Len is the number of UTF-16 units of r (RuneError for an invalid
// byte: one).
func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// CharColumn returns the column of p counted in characters, 0-based (the
// CLI prints it 1-based): Column(p, Chars).
func (l *Lines) CharColumn(p Pos) int { return l.Column(p, Chars) }

// Column returns the column of p (its line and byte column) counted in u,
// 0-based. A byte column past the line's end counts to the line's end; a
// line before the first is the first, a line past the last has column 0.
func (l *Lines) Column(p Pos, u Unit) int {
	line := max(p.Line, 0)
	if line >= len(l.starts) {
		return 0
	}
	start, end := l.start(line), l.LineEnd(line)
	to := start + min(max(p.Col, 0), end-start) // compared this way so that a huge column cannot overflow
	marks, wide := l.wide(line)
	if !wide {
		return to - start // a character a byte
	}
	c := l.content
	if u == Bytes {
		return charStart(c, start, to, end) - start
	}
	i, chars, units := start, 0, 0
	if marks != nil {
		// The last mark at or before to.
		lo, hi := 0, len(marks)-1
		for lo < hi {
			mid := int(uint(lo+hi+1) >> 1)
			if marks[mid].off <= to {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		i, chars, units = marks[lo].off, lo*colStride, marks[lo].utf16
	}
	if u == Chars {
		// The characters before the one holding to, counted fast.
		return chars + utf8.RuneCount(c[i:charStart(c, i, to, end)])
	}
	for i < to {
		r, size := utf8.DecodeRune(c[i:end])
		if i+size > to {
			break // to is inside this character
		}
		units += utf16Len(r)
		i += size
	}
	return units
}

// charStart returns the start of the character of c[from:end] (walked
// from from, a character's start) that holds offset to: to itself when it
// starts one.
func charStart(c []byte, from, to, end int) int {
	for j := to - 1; j >= from && j >= to-(utf8.UTFMax-1); j-- {
		if utf8.RuneStart(c[j]) {
			// Every byte that is not a continuation byte starts a
			// character of the walk.
			if _, size := utf8.DecodeRune(c[j:end]); j+size > to {
				return j
			}
			return to
		}
	}
	return to
}

// OffsetAt returns the byte offset of a 0-based line and a column counted
// in u, clamped to the line's end (a line past the last: the end of the
// content); a column inside a character (half a surrogate pair) is the
// character's start.
func (l *Lines) OffsetAt(line, col int, u Unit) int {
	if line >= len(l.starts) {
		return l.size
	}
	line = max(line, 0)
	start, end := l.start(line), l.LineEnd(line)
	col = max(col, 0)
	off := end
	if col < end-start { // compared this way so that a huge column cannot overflow
		off = start + col
	}
	marks, wide := l.wide(line)
	if !wide {
		return off
	}
	c := l.content
	if u == Bytes {
		return charStart(c, start, off, end)
	}
	i, n := start, 0
	if marks != nil {
		// From the last mark at or before the column wanted.
		at := func(k int) int {
			if u == Chars {
				return k * colStride
			}
			return marks[k].utf16
		}
		k := sort.Search(len(marks), func(k int) bool { return at(k) > col }) - 1
		i, n = marks[k].off, at(k)
	}
	for i < end {
		if n >= col {
			return i
		}
		r, size := utf8.DecodeRune(c[i:end])
		w := 1
		if u == UTF16 {
			w = utf16Len(r)
		}
		if n+w > col {
			return i // inside a character: its start
		}
		n += w
		i += size
	}
	return end
}

// IsASCII reports whether b holds only ASCII bytes, a word at a time.
func IsASCII(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
