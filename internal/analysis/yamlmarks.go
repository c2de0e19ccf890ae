package analysis

import "go.yaml.in/yaml/v3"

// YAMLMarks converts the marks of yaml.v3 nodes (1-based line, 1-based
// column counted in characters) into byte offsets of one file's content,
// breaking lines where YAML does: "\r\n", "\r", "\n", and NEL, LS and PS
// (yaml.v3 follows YAML 1.1); a leading BOM is not counted. It is the same
// conversion the loader's ranges use, for packages that edit the text.
type YAMLMarks struct{ p *positions }

// NewYAMLMarks indexes the lines of content.
func NewYAMLMarks(content []byte) *YAMLMarks { return &YAMLMarks{p: newPositions(content, nil)} }

// LineStarts returns the byte offset where each YAML line starts (index 0
// is the first line, after a BOM). Callers must not modify it.
func (m *YAMLMarks) LineStarts() []int { return m.p.starts }

// Offset returns the byte offset of a mark (1-based line and column).
func (m *YAMLMarks) Offset(line, col int) int { return m.p.offset(line, col) }

// NodeStart returns the byte offset of n's text, after its tag and anchor.
func (m *YAMLMarks) NodeStart(n *yaml.Node) int {
	return m.p.skipProperties(m.p.offset(n.Line, n.Column))
}

// LineEnd returns the byte offset where a 0-based YAML line ends, before
// its line break (the end of the content for the last line).
func (m *YAMLMarks) LineEnd(line int) int { return m.p.lineEnd(line) }
