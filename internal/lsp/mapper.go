package lsp

import (
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
// protocol positions in one encoding, with the document's diag.Lines
// (diag.EditorBreaks: lines end at "\n", "\r\n" or a lone "\r", as the
// protocol says). A position past the end of its line clamps to the line's
// end, a line past the last clamps to the end of the content; a column
// inside a character (half a surrogate pair, the middle of a UTF-8
// sequence) snaps to the character's start. Invalid UTF-8 counts one unit
// per byte. A Mapper is immutable and safe for concurrent use.
type Mapper struct {
	lines *diag.Lines
	enc   Encoding
}

// NewMapper indexes content for enc.
func NewMapper(content []byte, enc Encoding) *Mapper {
	return &Mapper{lines: diag.NewLines(content), enc: enc}
}

// compact returns a mapper giving the same positions that holds no
// content when it need not (diag.Lines.Compact): for a file only converted
// to, never read from, nor edited.
func (m *Mapper) compact() *Mapper { return &Mapper{lines: m.lines.Compact(), enc: m.enc} }

// Lines returns the document's line index.
func (m *Mapper) Lines() *diag.Lines { return m.lines }

// Content returns the mapped bytes.
func (m *Mapper) Content() []byte { return m.lines.Content() }

// Len returns the length of the mapped bytes, without making them.
func (m *Mapper) Len() int { return m.lines.Len() }

// Encoding returns the mapper's column unit.
func (m *Mapper) Encoding() Encoding { return m.enc }

// unit is the diag column unit of m's encoding.
func (m *Mapper) unit() diag.Unit {
	if m.enc == UTF8 {
		return diag.Bytes
	}
	return diag.UTF16
}

// Offset returns the byte offset of a protocol position, clamped.
func (m *Mapper) Offset(p protocol.Position) int {
	return m.lines.OffsetAt(int(p.Line), int(p.Character), m.unit())
}

// Position returns the protocol position of a byte offset, clamped to the
// content; an offset inside a character (or a "\r\n") maps to its start.
func (m *Mapper) Position(offset int) protocol.Position {
	p := m.lines.Pos(offset)
	return protocol.Position{Line: uint32(p.Line), Character: uint32(m.lines.Column(p, m.unit()))}
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

// Edited returns the mapper of a copy of the content with [start, end)
// replaced by text, in the same encoding (diag.Lines.Edited): m and its
// content stay as they are.
func (m *Mapper) Edited(start, end int, text string) *Mapper {
	return &Mapper{lines: m.lines.Edited(start, end, text), enc: m.enc}
}
