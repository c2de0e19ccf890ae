package diag

import (
	"bytes"
	"sync"
)

// Breaks is a rule for where lines end. Every rule ends a line after "\n",
// "\r\n" (one break) or a lone "\r"; the readers of this project's files
// differ only in the Unicode separators they count as well, so the rule is
// named after who reads the lines.
type Breaks uint8

const (
	// EditorBreaks: "\n", "\r\n" and a lone "\r", as the Language Server
	// Protocol, YAML 1.2 and editors number lines.
	EditorBreaks Breaks = iota
	// YAMLv3Breaks: EditorBreaks plus NEL (U+0085), LS (U+2028) and PS
	// (U+2029), as go.yaml.in/yaml/v3 breaks lines (it follows YAML 1.1:
	// is_break and skip_line in its scanner), so that the line of a node's
	// mark is a line of this index.
	YAMLv3Breaks
	// JSBreaks: EditorBreaks plus LS and PS, ECMAScript's line terminators,
	// as esbuild numbers the lines of its messages and import records.
	JSBreaks
)

// Lines indexes the line starts of one file's content under one Breaks
// rule, so that byte offsets, (line, byte column) pairs and columns
// counted in characters or UTF-16 units convert into each other. An offset
// converts to its line in O(log n); a column converts in O(1) on a line of
// ASCII bytes and in O(log n + 64) on another (see columns.go). Lines is
// immutable (its column marks are made once, on first use) and safe for
// concurrent use; Edited makes the index of an edited version.
type Lines struct {
	content []byte // never modified (nil for a compact index)
	size    int    // its length
	breaks  Breaks
	starts  []int // the byte offset of each line's start
	onlyLF  bool  // every line break is a single "\n"
	ascii   bool  // every byte is ASCII: a column is a byte count
	compact bool  // made by Compact: no content
	// cols marks the lines holding a byte that is not ASCII, made on the
	// first column conversion (see indexColumns).
	colsOnce sync.Once
	cols     map[int][]colMark
}

// NewLines indexes content with EditorBreaks, the rule of the protocol,
// editors and the CLI's line numbers.
func NewLines(content []byte) *Lines { return NewLinesFor(content, EditorBreaks) }

// NewLinesFor indexes content with the line breaks of rule b. The index
// keeps content: do not modify it afterwards.
func NewLinesFor(content []byte, b Breaks) *Lines {
	ascii := IsASCII(content)
	if bytes.IndexByte(content, '\r') < 0 && (ascii || !hasSeparators(content, b)) {
		// The usual case, on every keystroke: lines end at "\n" only. Find
		// them with the vectorised byte search instead of a branch per
		// byte (a 10,000-tool manifest is 870 KB).
		starts := make([]int, 1, bytes.Count(content, []byte{'\n'})+1)
		for i := 0; ; {
			j := bytes.IndexByte(content[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			starts = append(starts, i)
		}
		return &Lines{content: content, size: len(content), breaks: b, starts: starts, onlyLF: true, ascii: ascii}
	}
	starts := make([]int, 1, 64)
	for i := 0; i < len(content); i++ {
		switch content[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(content) && content[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		case 0xc2: // NEL is C2 85
			if b == YAMLv3Breaks && i+1 < len(content) && content[i+1] == 0x85 {
				i++
				starts = append(starts, i+1)
			}
		case 0xe2: // LS is E2 80 A8, PS E2 80 A9
			if b != EditorBreaks && i+2 < len(content) && content[i+1] == 0x80 && (content[i+2] == 0xa8 || content[i+2] == 0xa9) {
				i += 2
				starts = append(starts, i+1)
			}
		}
	}
	return &Lines{content: content, size: len(content), breaks: b, starts: starts, ascii: ascii}
}

// Edited returns the index, under the same rule, of a copy of the content
// with the bytes [start, end) (clamped) replaced by text: l and its content
// stay as they are, so that an earlier version read elsewhere (a snapshot)
// never changes.
func (l *Lines) Edited(start, end int, text string) *Lines {
	if l.compact {
		panic("diag: Edited on a compact index, which has no content to edit")
	}
	start, end = max(0, min(start, l.size)), max(0, min(end, l.size))
	if end < start {
		start, end = end, start
	}
	next := make([]byte, 0, l.size-(end-start)+len(text))
	next = append(append(append(next, l.content[:start]...), text...), l.content[end:]...)
	return NewLinesFor(next, l.breaks)
}

// hasSeparators reports whether content holds a line break that rule b
// counts and EditorBreaks does not.
func hasSeparators(content []byte, b Breaks) bool {
	switch b {
	case YAMLv3Breaks:
		return bytes.Contains(content, []byte("\u2028")) || bytes.Contains(content, []byte("\u2029")) || bytes.Contains(content, []byte("\u0085"))
	case JSBreaks:
		return bytes.Contains(content, []byte("\u2028")) || bytes.Contains(content, []byte("\u2029"))
	}
	return false
}

// With returns the index of the same content under rule b: l itself when
// b breaks this content's lines exactly where l's rule does (no NEL, LS or
// PS in it, the usual case), so that two readers of one file share one
// index; a new index otherwise.
func (l *Lines) With(b Breaks) *Lines {
	if b == l.breaks || l.ascii {
		return l
	}
	if !hasSeparators(l.content, b) && !hasSeparators(l.content, l.breaks) {
		return l
	}
	return NewLinesFor(l.content, b)
}

// Compact returns an index that converts every offset, position and
// column as l does but holds no content when none of those conversions
// reads it: ASCII content whose lines end at "\n" only (a column is then a
// byte count and a line ends before its "\n"); l itself otherwise. It is
// for an index kept long after its file was read, for its positions only
// (a tool module's inspection result): 10,000 modules then keep their line
// starts, not their 20 MB of text. Content of a compact index is nil, and
// it cannot be Edited.
func (l *Lines) Compact() *Lines {
	if !l.ascii || !l.onlyLF || l.compact {
		return l
	}
	return &Lines{size: l.size, breaks: l.breaks, starts: l.starts, onlyLF: true, ascii: true, compact: true}
}

// Breaks returns the rule l breaks lines with.
func (l *Lines) Breaks() Breaks { return l.breaks }

// start returns the byte offset of the start of line (in range).
func (l *Lines) start(line int) int { return l.starts[line] }

// Content returns the indexed bytes (nil for a compact index). Callers
// must not modify them.
func (l *Lines) Content() []byte { return l.content }

// Len returns the length of the content.
func (l *Lines) Len() int { return l.size }

// Count returns the number of lines (at least 1).
func (l *Lines) Count() int { return len(l.starts) }

// LineStart returns the byte offset of the start of line (0-based),
// clamped: 0 before the first line, the end of the content past the last.
func (l *Lines) LineStart(line int) int {
	if line < 0 {
		return 0
	}
	if line >= len(l.starts) {
		return l.size
	}
	return l.start(line)
}

// LineEnd returns the byte offset of the end of line, before its line
// break ("\r\n", "\n", a lone "\r", or the NEL, LS or PS of l's rule);
// the end of the content for the last line and past it.
func (l *Lines) LineEnd(line int) int {
	if line < 0 {
		line = 0
	}
	if line >= len(l.starts)-1 {
		return l.size
	}
	next := l.start(line + 1)
	if l.onlyLF {
		return next - 1
	}
	// A line start follows a break: its last byte says which.
	c := l.content
	switch c[next-1] {
	case '\n':
		if next-2 >= l.start(line) && c[next-2] == '\r' {
			return next - 2
		}
		return next - 1
	case '\r':
		return next - 1
	case 0x85: // NEL, C2 85
		return next - 2
	}
	return next - 3 // LS or PS, E2 80 A8 or A9
}

// Pos returns the position of a byte offset, clamped to the content.
func (l *Lines) Pos(offset int) Pos {
	offset = max(0, min(offset, l.size))
	line := lastAtOrBefore(l.starts, offset)
	return Pos{Offset: offset, Line: line, Col: offset - l.start(line)}
}

// lastAtOrBefore returns the index of the last of the sorted starts (the
// first is at most x) that is at most x.
func lastAtOrBefore(starts []int, x int) int {
	lo, hi := 0, len(starts)-1
	for lo < hi {
		mid := int(uint(lo+hi+1) >> 1)
		if starts[mid] <= x {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// PosNear is Pos for an offset that is probably on line: when it is (the
// end of a node on the line its mark names), the line is known without a
// search.
func (l *Lines) PosNear(offset, line int) Pos {
	if line < 0 || line >= len(l.starts) || offset < 0 || offset > l.size {
		return l.Pos(offset)
	}
	start := l.start(line)
	if offset < start || line+1 < len(l.starts) && offset >= l.start(line+1) {
		return l.Pos(offset)
	}
	return Pos{Offset: offset, Line: line, Col: offset - start}
}

// Range returns the range between two byte offsets.
func (l *Lines) Range(start, end int) Range {
	return Range{Start: l.Pos(start), End: l.Pos(end)}
}

// Offset returns the byte offset of a 0-based line and byte column:
// OffsetAt(line, col, Bytes).
func (l *Lines) Offset(line, col int) int { return l.OffsetAt(line, col, Bytes) }
