package lsp

import (
	"bytes"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"go.lsp.dev/protocol"
)

// Encoding is the unit of a protocol Position's character column.
type Encoding string

const (
	UTF16 Encoding = "utf-16" // the protocol's default
	UTF8  Encoding = "utf-8"  // byte columns
)

// Mapper converts between byte offsets in one version of a document and
// protocol positions in one encoding. Lines end at "\n", "\r\n" or a lone
// "\r", as the protocol says. A position past the end of its line clamps
// to the line's end, a line past the last clamps to the end of the content;
// a column inside a character (half a surrogate pair, the middle of a UTF-8
// sequence) snaps to the character's start. Invalid UTF-8 counts one unit
// per byte. A Mapper is immutable and safe for concurrent use.
type Mapper struct {
	content []byte // nil while lazy holds it
	lazy    *lazyContent
	size    int // len of the content
	enc     Encoding
	// starts holds the byte offset of each line's start, plus shift from
	// line shiftFrom on (see start): edits within one line share the
	// array of the mapper they were made from.
	starts    []int
	shiftFrom int
	shift     int
	ascii     bool // content is all ASCII: columns are byte counts
	noCR      bool // content has no "\r": lines end at "\n" only
	// cols holds, for a long line of a content that is not all ASCII, the
	// byte offset and column of every colStride-th character, made when a
	// position on that line is first converted (see lineCols).
	colsMu sync.Mutex
	cols   map[int][]colMark
}

// colMark is a character's byte offset and its column in the encoding.
type colMark struct{ off, units int }

// colStride is the distance in characters between two marks of a line;
// a line shorter than longLine bytes is walked from its start.
const (
	colStride = 64
	longLine  = 4 * colStride
)

// NewMapper indexes content for enc.
func NewMapper(content []byte, enc Encoding) *Mapper {
	if bytes.IndexByte(content, '\r') < 0 {
		// The usual case, on every keystroke: lines end at "\n" only. Find
		// them and check for ASCII with the vectorised byte search and a
		// word at a time, instead of a branch per byte (a 10,000-tool
		// manifest is 870 KB).
		starts := make([]int, 1, bytes.Count(content, []byte{'\n'})+1)
		for i := 0; ; {
			j := bytes.IndexByte(content[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			starts = append(starts, i)
		}
		return &Mapper{content: content, size: len(content), enc: enc, starts: starts, ascii: diag.IsASCII(content), noCR: true}
	}
	starts := make([]int, 1, 64)
	ascii := true
	for i := 0; i < len(content); i++ {
		switch b := content[i]; {
		case b == '\n':
			starts = append(starts, i+1)
		case b == '\r':
			if i+1 < len(content) && content[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		case b >= utf8.RuneSelf:
			ascii = false
		}
	}
	return &Mapper{content: content, size: len(content), enc: enc, starts: starts, ascii: ascii}
}

// start returns the byte offset of the start of line (in range).
func (m *Mapper) start(line int) int {
	if line >= m.shiftFrom {
		return m.starts[line] + m.shift
	}
	return m.starts[line]
}

// Content returns the mapped bytes.
func (m *Mapper) Content() []byte {
	if m.lazy != nil {
		return m.lazy.get()
	}
	return m.content
}

// Len returns the length of the mapped bytes, without making them.
func (m *Mapper) Len() int { return m.size }

// Encoding returns the mapper's column unit.
func (m *Mapper) Encoding() Encoding { return m.enc }

// lineEnd returns the offset of the end of line, before its line break.
func (m *Mapper) lineEnd(line int) int {
	if line+1 >= len(m.starts) {
		return m.size
	}
	end := m.start(line + 1)
	if m.noCR {
		return end - 1 // the "\n" before each line start
	}
	if end > m.start(line) && m.content[end-1] == '\n' {
		end--
	}
	if end > m.start(line) && m.content[end-1] == '\r' {
		end--
	}
	return end
}

// Offset returns the byte offset of a protocol position, clamped.
func (m *Mapper) Offset(p protocol.Position) int {
	line := int(p.Line)
	if line >= len(m.starts) {
		return m.size
	}
	start, end := m.start(line), m.lineEnd(line)
	want := int(p.Character)
	if m.ascii {
		return min(start+want, end)
	}
	i, units := start, 0
	if end-start > longLine {
		// From the last mark at or before the column wanted.
		marks := m.lineCols(line, start, end)
		k := sort.Search(len(marks), func(k int) bool { return marks[k].units > want }) - 1
		i, units = marks[k].off, marks[k].units
	}
	for i < end {
		if units >= want {
			return i
		}
		r, size := utf8.DecodeRune(m.content[i:end])
		n := m.unitsOf(r, size)
		if units+n > want {
			return i // inside a character: its start
		}
		units += n
		i += size
	}
	return end
}

// Position returns the protocol position of a byte offset, clamped to the
// content; an offset inside a character maps to the character's start.
func (m *Mapper) Position(offset int) protocol.Position {
	offset = max(0, min(offset, m.size))
	line := sort.Search(len(m.starts), func(i int) bool { return m.start(i) > offset }) - 1
	start := m.start(line)
	if end := m.lineEnd(line); offset > end {
		offset = end // inside a "\r\n"
	}
	if m.ascii {
		return protocol.Position{Line: uint32(line), Character: uint32(offset - start)}
	}
	units, i := 0, start
	if end := m.lineEnd(line); end-start > longLine {
		// From the last mark at or before offset.
		marks := m.lineCols(line, start, end)
		k := sort.Search(len(marks), func(k int) bool { return marks[k].off > offset }) - 1
		i, units = marks[k].off, marks[k].units
	}
	for i < offset {
		r, size := utf8.DecodeRune(m.content[i:])
		if i+size > offset {
			break // offset is inside this character
		}
		units += m.unitsOf(r, size)
		i += size
	}
	return protocol.Position{Line: uint32(line), Character: uint32(units)}
}

// unitsOf returns the columns r takes in m's encoding (size: its bytes).
func (m *Mapper) unitsOf(r rune, size int) int {
	switch {
	case m.enc == UTF8:
		return size
	case r >= 0x10000:
		return 2
	}
	return 1
}

// lineCols returns the marks of the line from start to end (before its
// break), making them on first use: the positions on one long line then
// cost O(log n + colStride) each instead of a walk from the line's start
// (quadratic for thousands of diagnostics on one line).
func (m *Mapper) lineCols(line, start, end int) []colMark {
	m.colsMu.Lock()
	defer m.colsMu.Unlock()
	if marks, ok := m.cols[line]; ok {
		return marks
	}
	marks := make([]colMark, 0, (end-start)/colStride+1)
	for i, units, n := start, 0, 0; ; n++ {
		if n%colStride == 0 {
			marks = append(marks, colMark{i, units})
		}
		if i >= end {
			break
		}
		r, size := utf8.DecodeRune(m.content[i:end])
		units += m.unitsOf(r, size)
		i += size
	}
	if m.cols == nil {
		m.cols = map[int][]colMark{}
	}
	m.cols[line] = marks
	return marks
}

// Range returns the protocol range of a byte range.
func (m *Mapper) Range(start, end int) protocol.Range {
	if end < start {
		end = start
	}
	return protocol.Range{Start: m.Position(start), End: m.Position(end)}
}

// Offsets returns the byte offsets of a protocol range, start before end.
func (m *Mapper) Offsets(r protocol.Range) (start, end int) {
	start, end = m.Offset(r.Start), m.Offset(r.End)
	if end < start {
		start, end = end, start
	}
	return start, end
}

// Edited returns the mapper of the content with [start, end) replaced by
// text, in the same encoding. When the content is all ASCII without "\r"
// and so is text (a manifest, typically), the line index is updated from
// this one and the new content is made only when asked for (Content): a
// keystroke then neither copies nor scans the whole document. Otherwise
// the new content is made and indexed at once, as NewMapper does.
func (m *Mapper) Edited(start, end int, text string) *Mapper {
	start, end = max(0, min(start, m.size)), max(0, min(end, m.size))
	if end < start {
		start, end = end, start
	}
	if !m.ascii || !m.noCR || !diag.IsASCII([]byte(text)) || strings.IndexByte(text, '\r') >= 0 {
		old := m.Content()
		next := make([]byte, 0, len(old)-(end-start)+len(text))
		next = append(next, old[:start]...)
		next = append(next, text...)
		next = append(next, old[end:]...)
		return NewMapper(next, m.enc)
	}
	// Line starts up to start stay; those after a "\n" in [start, end)
	// go; text brings its own; the rest move by delta.
	delta := len(text) - (end - start)
	first := sort.Search(len(m.starts), func(i int) bool { return m.start(i) > start })
	after := sort.Search(len(m.starts), func(i int) bool { return m.start(i) > end })
	next := &Mapper{lazy: m.lazyEdit(splice{start, end, text}), size: m.size + delta, enc: m.enc, ascii: true, noCR: true}
	if first == after && strings.IndexByte(text, '\n') < 0 {
		// Within one line (typing): the same starts, those after the
		// line moved by delta. Edits of the same line share m's array.
		switch {
		case m.shift == 0 || m.shiftFrom == after:
			next.starts, next.shiftFrom, next.shift = m.starts, after, m.shift+delta
		default:
			next.starts = make([]int, len(m.starts))
			for i := range next.starts {
				next.starts[i] = m.start(i)
			}
			next.shiftFrom, next.shift = after, delta
		}
		return next
	}
	starts := make([]int, first, first+strings.Count(text, "\n")+len(m.starts)-after)
	for i := range first {
		starts[i] = m.start(i)
	}
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, start+i)
	}
	for i := after; i < len(m.starts); i++ {
		starts = append(starts, m.start(i)+delta)
	}
	next.starts, next.shiftFrom = starts, len(starts)
	return next
}

// maxPendingEdits bounds the edits a lazy content keeps before the
// content they apply to is made.
const maxPendingEdits = 64

// lazyEdit returns the content of m with e applied, made when first read.
func (m *Mapper) lazyEdit(e splice) *lazyContent {
	if m.lazy != nil {
		return m.lazy.then(e)
	}
	return &lazyContent{root: m.content, edits: []splice{e}}
}

// splice replaces [start, end) with text.
type splice struct {
	start, end int
	text       string
}

// lazyContent is a content made when first read: root (never modified)
// with edits applied in order. It is safe for concurrent use.
type lazyContent struct {
	root  []byte
	edits []splice

	mu   sync.Mutex
	data []byte
	done bool
}

// then returns the content of l with e applied, made when first read: on
// l's content if made, else on l's root with l's edits and e (l's content
// is made first when too many edits are pending).
func (l *lazyContent) then(e splice) *lazyContent {
	l.mu.Lock()
	switch {
	case l.done:
		data := l.data
		l.mu.Unlock()
		return &lazyContent{root: data, edits: []splice{e}}
	case len(l.edits) < maxPendingEdits:
		edits := make([]splice, len(l.edits), len(l.edits)+1)
		copy(edits, l.edits)
		root := l.root
		l.mu.Unlock()
		return &lazyContent{root: root, edits: append(edits, e)}
	}
	l.mu.Unlock()
	return &lazyContent{root: l.get(), edits: []splice{e}}
}

// get makes the content once, applying every edit in one buffer.
func (l *lazyContent) get() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		return l.data
	}
	size, most := len(l.root), len(l.root)
	for _, e := range l.edits {
		size += len(e.text) - (e.end - e.start)
		most = max(most, size)
	}
	buf := make([]byte, len(l.root), most)
	copy(buf, l.root)
	for _, e := range l.edits {
		n := len(buf) + len(e.text) - (e.end - e.start)
		tail := buf[e.end:]
		buf = buf[:max(n, len(buf))]
		copy(buf[e.start+len(e.text):], tail)
		copy(buf[e.start:], e.text)
		buf = buf[:n]
	}
	l.data, l.done = buf[:len(buf):len(buf)], true
	l.root, l.edits = nil, nil // no longer needed: let them go
	return l.data
}
