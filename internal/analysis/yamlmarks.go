package analysis

import "go.yaml.in/yaml/v3"

// YAMLMarks converts the marks of yaml.v3 nodes (1-based line, 1-based
// column counted in characters) into byte offsets of one file's content,
// breaking lines where yaml.v3 does (diag.YAMLv3Breaks: "\r\n", "\r", "\n",
// and NEL, LS and PS, as YAML 1.1 does); a leading BOM is not counted. It is the same
// conversion the loader's ranges use, for packages that edit the text.
type YAMLMarks struct{ p *positions }

// NewYAMLMarks indexes the lines of content.
func NewYAMLMarks(content []byte) *YAMLMarks {
	return &YAMLMarks{p: newPositions(content, nil)}
}

// LineCount returns the number of YAML lines (at least 1).
func (m *YAMLMarks) LineCount() int { return m.p.yaml.Count() }

// LineStart returns the byte offset where a 0-based YAML line starts (the
// first after a BOM), clamped: the end of the content past the last line.
func (m *YAMLMarks) LineStart(line int) int {
	if line <= 0 {
		return m.p.bom
	}
	return m.p.yaml.LineStart(line)
}

// LineOf returns the 0-based YAML line holding a byte offset (clamped).
func (m *YAMLMarks) LineOf(offset int) int { return m.p.yaml.Pos(offset).Line }

// Offset returns the byte offset of a mark (1-based line and column).
func (m *YAMLMarks) Offset(line, col int) int { return m.p.offset(line, col) }

// NodeStart returns the byte offset of n's text, after its tag and anchor.
func (m *YAMLMarks) NodeStart(n *yaml.Node) int {
	return m.p.skipProperties(m.p.offset(n.Line, n.Column))
}

// LineEnd returns the byte offset where a 0-based YAML line ends, before
// its line break (the end of the content for the last line).
func (m *YAMLMarks) LineEnd(line int) int { return m.p.lineEnd(line) }
