package lsp

import (
	"bytes"
	"encoding/binary"
	"sort"
	"unicode/utf8"

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
	content []byte
	enc     Encoding
	starts  []int // byte offset of each line's start
	ascii   bool  // content is all ASCII: columns are byte counts
}

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
		return &Mapper{content: content, enc: enc, starts: starts, ascii: isASCII(content)}
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
	return &Mapper{content: content, enc: enc, starts: starts, ascii: ascii}
}

// isASCII reports whether b holds only ASCII bytes.
func isASCII(b []byte) bool {
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

// Content returns the mapped bytes.
func (m *Mapper) Content() []byte { return m.content }

// Encoding returns the mapper's column unit.
func (m *Mapper) Encoding() Encoding { return m.enc }

// lineEnd returns the offset of the end of line, before its line break.
func (m *Mapper) lineEnd(line int) int {
	if line+1 >= len(m.starts) {
		return len(m.content)
	}
	end := m.starts[line+1]
	if end > m.starts[line] && m.content[end-1] == '\n' {
		end--
	}
	if end > m.starts[line] && m.content[end-1] == '\r' {
		end--
	}
	return end
}

// Offset returns the byte offset of a protocol position, clamped.
func (m *Mapper) Offset(p protocol.Position) int {
	line := int(p.Line)
	if line >= len(m.starts) {
		return len(m.content)
	}
	start, end := m.starts[line], m.lineEnd(line)
	want := int(p.Character)
	if m.ascii {
		return min(start+want, end)
	}
	i, units := start, 0
	for i < end {
		if units >= want {
			return i
		}
		r, size := utf8.DecodeRune(m.content[i:end])
		n := 1
		switch {
		case m.enc == UTF8:
			n = size
		case r >= 0x10000:
			n = 2
		}
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
	offset = max(0, min(offset, len(m.content)))
	line := sort.Search(len(m.starts), func(i int) bool { return m.starts[i] > offset }) - 1
	start := m.starts[line]
	if end := m.lineEnd(line); offset > end {
		offset = end // inside a "\r\n"
	}
	if m.ascii {
		return protocol.Position{Line: uint32(line), Character: uint32(offset - start)}
	}
	units := 0
	for i := start; i < offset; {
		r, size := utf8.DecodeRune(m.content[i:])
		if i+size > offset {
			break // offset is inside this character
		}
		switch {
		case m.enc == UTF8:
			units += size
		case r >= 0x10000:
			units += 2
		default:
			units++
		}
		i += size
	}
	return protocol.Position{Line: uint32(line), Character: uint32(units)}
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
