// Package diag holds the position and finding types shared by the engine
// (internal/analysis), the module inspector (internal/tsinspect) and the
// protocol glue (internal/lsp). Positions are byte based; conversion to
// characters or UTF-16 happens at the edges.
package diag

import (
	"encoding/binary"
	"sort"
	"sync"
	"unicode/utf8"
)

// Severity follows the LSP numbering so that the server can pass it through.
type Severity int

const (
	Error       Severity = 1
	Warning     Severity = 2
	Information Severity = 3
	Hint        Severity = 4
)

// String returns the name the CLI and its JSON use.
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Information:
		return "information"
	case Hint:
		return "hint"
	}
	return "unknown"
}

// Pos is a position in a file: a byte offset and its 0-based line and 0-based
// byte column within that line.
type Pos struct {
	Offset int
	Line   int
	Col    int
}

// Range is a half-open byte range [Start, End).
type Range struct {
	Start, End Pos
}

// Contains reports whether offset lies in r (end inclusive, as a cursor at
// the end of a word still touches it).
func (r Range) Contains(offset int) bool {
	return r.Start.Offset <= offset && offset <= r.End.Offset
}

// IsZero reports whether r is the zero Range (no position known).
func (r Range) IsZero() bool { return r == Range{} }

// Related points at another place that explains a finding (the other
// declaration of a duplicate name, a step of an import cycle).
type Related struct {
	File    string // absolute path
	Range   Range
	Message string
}

// Finding is one diagnostic produced by a rule.
type Finding struct {
	File     string // absolute path of the file the finding is in
	Range    Range
	Severity Severity
	Code     string // stable rule id: "T1".."T11", "A1".."A3", "H1", "H2", "I1"..., "Y1" (YAML syntax)
	Message  string
	Related  []Related
	// Data carries rule-specific facts that quick fixes need (for example
	// "suggest" for A1, "name" for A2). Keys are documented next to each rule.
	Data map[string]string
}

// Sort orders findings by file, then position, then code, then message.
// The sort is stable: findings equal in all of these keep their order.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool { return Less(&fs[i], &fs[j]) })
}

// Less reports whether a sorts before b in Sort's order.
func Less(a, b *Finding) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Range.Start.Offset != b.Range.Start.Offset {
		return a.Range.Start.Offset < b.Range.Start.Offset
	}
	if a.Range.End.Offset != b.Range.End.Offset {
		return a.Range.End.Offset < b.Range.End.Offset
	}
	if a.Code != b.Code {
		return a.Code < b.Code
	}
	return a.Message < b.Message
}

// Merge returns, in a new slice, the findings of a and b (each already in
// Sort's order) in the order Sort gives to a followed by b: a finding of a
// comes before an equal one of b.
func Merge(a, b []Finding) []Finding {
	out := make([]Finding, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if Less(&b[0], &a[0]) {
			out = append(out, b[0])
			b = b[1:]
		} else {
			out = append(out, a[0])
			a = a[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}

// Lines indexes the line starts of one file's content so that byte offsets
// and (line, column) pairs convert in O(log n).
type Lines struct {
	content []byte
	starts  []int // byte offset of the start of each line
	// chars indexes the lines that hold non-ASCII bytes for CharColumn,
	// built on its first call.
	chars     map[int][]int
	charsOnce sync.Once
}

// NewLines indexes content. A line ends after "\n", "\r\n" or a lone "\r",
// as YAML and the Language Server Protocol both break lines (and as editors
// number them).
func NewLines(content []byte) *Lines {
	starts := make([]int, 1, 64)
	for i, b := range content {
		switch {
		case b == '\n':
			starts = append(starts, i+1)
		case b == '\r' && (i+1 == len(content) || content[i+1] != '\n'):
			starts = append(starts, i+1)
		}
	}
	return &Lines{content: content, starts: starts}
}

// NewLinesFromStarts is NewLines for a caller that has split content into
// lines already: starts must be exactly what NewLines would index (0, then
// the offset after each line break), and neither is copied nor written.
func NewLinesFromStarts(content []byte, starts []int) *Lines {
	return &Lines{content: content, starts: starts}
}

// Content returns the indexed bytes.
func (l *Lines) Content() []byte { return l.content }

// Count returns the number of lines (at least 1).
func (l *Lines) Count() int { return len(l.starts) }

// LineStart returns the byte offset of the start of line (0-based), clamped.
func (l *Lines) LineStart(line int) int {
	if line < 0 {
		return 0
	}
	if line >= len(l.starts) {
		return len(l.content)
	}
	return l.starts[line]
}

// LineEnd returns the byte offset of the end of line, before its "\r\n", "\n" or lone "\r".
func (l *Lines) LineEnd(line int) int {
	if line < 0 {
		line = 0
	}
	if line >= len(l.starts)-1 {
		return len(l.content)
	}
	end := l.starts[line+1] - 1
	if end > l.starts[line] && l.content[end-1] == '\r' {
		end--
	}
	return end
}

// Pos returns the position of a byte offset, clamped to the content.
func (l *Lines) Pos(offset int) Pos {
	if offset < 0 {
		offset = 0
	}
	if offset > len(l.content) {
		offset = len(l.content)
	}
	line := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > offset }) - 1
	return Pos{Offset: offset, Line: line, Col: offset - l.starts[line]}
}

// Range returns the range between two byte offsets.
func (l *Lines) Range(start, end int) Range {
	return Range{Start: l.Pos(start), End: l.Pos(end)}
}

// Offset returns the byte offset of a 0-based line and byte column, clamped
// to the line's end.
func (l *Lines) Offset(line, col int) int {
	start := l.LineStart(line)
	end := l.LineEnd(line)
	if col < 0 {
		col = 0
	}
	if col > end-start { // compared this way so that a huge col cannot overflow
		return end
	}
	return start + col
}

// CharColumn returns the column of p counted in characters (runes; an
// invalid byte counts as one), 0-based. The CLI prints it 1-based. It
// costs O(1) on an ASCII line and O(log n + 64) on another (see
// indexChars), so that the columns of 20,000 findings on one line cost
// what they cost on 20,000 lines.
func (l *Lines) CharColumn(p Pos) int {
	start := l.LineStart(p.Line)
	col := max(p.Col, 0)
	end := len(l.content)
	if col < end-start { // compared this way so that a huge col cannot overflow
		end = start + col
	}
	if p.Line < 0 || p.Line >= len(l.starts) {
		return utf8.RuneCount(l.content[start:end]) // a line clamped into the content
	}
	l.charsOnce.Do(l.indexChars)
	marks := l.chars[p.Line]
	if marks == nil {
		return end - start // an ASCII line: a character a byte
	}
	k := sort.Search(len(marks), func(i int) bool { return marks[i] > end }) - 1
	return k*charStride + utf8.RuneCount(l.content[marks[k]:end])
}

// charStride is the distance in characters between two marks of a line.
const charStride = 64

// indexChars marks, on each line holding a byte that is not ASCII, the
// byte offset of every charStride-th character from the line's start
// (decoded as utf8.RuneCount decodes). One pass over the content.
func (l *Lines) indexChars() {
	if IsASCII(l.content) {
		return
	}
	for line, start := range l.starts {
		next := len(l.content)
		if line+1 < len(l.starts) {
			next = l.starts[line+1]
		}
		if IsASCII(l.content[start:next]) {
			continue
		}
		if l.chars == nil {
			l.chars = map[int][]int{}
		}
		marks := make([]int, 0, (next-start)/charStride+1)
		for off, n := start, 0; off <= next; n++ {
			if n%charStride == 0 {
				marks = append(marks, off)
			}
			if off == next {
				break
			}
			_, size := utf8.DecodeRune(l.content[off:next])
			off += size
		}
		l.chars[line] = marks
	}
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
