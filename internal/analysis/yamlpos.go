package analysis

import (
	"bytes"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// positions converts yaml.v3 marks (1-based line, 1-based column counted in
// characters, lines broken the way yaml.v3 breaks them, a leading BOM not
// counted) into byte offsets and diag ranges.
type positions struct {
	text *diag.Text
	// lines breaks lines as editors do (diag.EditorBreaks): the lines of
	// the ranges. nil for YAMLMarks, which makes no ranges.
	lines *diag.Lines
	// yaml breaks lines as yaml.v3 does (diag.YAMLv3Breaks: NEL, LS and PS
	// too); it is lines itself when the content has none of those.
	yaml *diag.Lines
	bom  int
}

func newPositions(text *diag.Text, lines *diag.Lines) *positions {
	p := &positions{text: text, lines: lines}
	if lines != nil {
		p.yaml = lines.With(diag.YAMLv3Breaks)
	} else {
		p.yaml = diag.NewTextLines(text, diag.YAMLv3Breaks)
	}
	if bytes.HasPrefix(text.Slice(0, 3), []byte("\xef\xbb\xbf")) {
		p.bom = 3
	}
	return p
}

// pos is lines.Pos(off) for an offset that is probably on the 0-based YAML
// line hint: it is, unless a NEL, LS or PS comes before, and the line is
// then known without a search.
func (p *positions) pos(off, hint int) diag.Pos { return p.lines.PosNear(off, hint) }

// offset returns the byte offset of a yaml.v3 mark (1-based line and
// column), in O(1) on an ASCII line and O(log n + 64) on another.
func (p *positions) offset(line, col int) int {
	if line < 1 {
		line = 1
	}
	if line > p.yaml.Count() {
		return p.text.Len()
	}
	return p.advance(line-1, max(col-1, 0))
}

// advance returns the offset chars characters after the start of a 0-based
// YAML line, stopping at a "\r" or "\n" or the end of the content. A column
// may count the NEL, LS or PS that ends a line, and go on into the lines
// after it (yaml.v3's columns never do; the walk stays defined).
func (p *positions) advance(line, chars int) int {
	if line == 0 && p.bom > 0 {
		chars++ // U+FEFF, which yaml.v3 does not count
	}
	for {
		off := p.yaml.OffsetAt(line, chars, diag.Chars)
		end := p.yaml.LineEnd(line)
		if off < end || line+1 >= p.yaml.Count() || p.text.At(end) == '\n' || p.text.At(end) == '\r' {
			return off
		}
		// The line ends with a NEL, LS or PS: one character more.
		n := p.yaml.Column(diag.Pos{Offset: end, Line: line, Col: end - p.yaml.LineStart(line)}, diag.Chars)
		if chars == n {
			return off
		}
		chars -= n + 1
		line++
	}
}

// lineEnd returns the byte offset where a 0-based YAML line ends, before
// its line break (the end of the content for the last line).
func (p *positions) lineEnd(line int) int { return p.yaml.LineEnd(line) }

// lineStart returns the byte offset of a 1-based YAML line.
func (p *positions) lineStart(line int) int { return p.offset(line, 1) }

func (p *positions) rng(start, end int) diag.Range { return p.lines.Range(start, end) }

// start returns the byte offset where node n starts (its tag or anchor, if
// any, for scalars with one).
func (p *positions) start(n *yaml.Node) int { return p.offset(n.Line, n.Column) }

// nodeRange returns the range of n: a scalar's text (quotes included), an
// alias's `*name`, a flow collection up to its closing bracket, a block
// collection up to the end of its last entry.
func (p *positions) nodeRange(n *yaml.Node) diag.Range {
	s := p.start(n)
	e := p.end(n, s)
	start := p.pos(s, n.Line-1)
	return diag.Range{Start: start, End: p.pos(e, start.Line)}
}

func (p *positions) end(n *yaml.Node, start int) int {
	// Walk to the last descendant of block collections without recursion.
	for steps := 0; steps < 10000; steps++ {
		switch n.Kind {
		case yaml.ScalarNode:
			return p.scalarEnd(n, start)
		case yaml.AliasNode:
			e := start + 1 + len(n.Value)
			if e > p.text.Len() {
				e = p.text.Len()
			}
			return e
		case yaml.MappingNode, yaml.SequenceNode:
			if n.Style&yaml.FlowStyle != 0 {
				if i := p.skipProperties(start); i < p.text.Len() && (p.text.At(i) == '[' || p.text.At(i) == '{') {
					return p.flowEnd(start)
				}
				// A single pair in a flow sequence (`[a, k: v]`) has no
				// brackets of its own: it ends where its value does.
			}
			if len(n.Content) == 0 {
				return start
			}
			n = n.Content[len(n.Content)-1]
			start = p.start(n)
		case yaml.DocumentNode:
			if len(n.Content) == 0 {
				return start
			}
			n = n.Content[0]
			start = p.start(n)
		default:
			return start
		}
	}
	return start
}

// skipProperties skips a tag (`!!str`) and an anchor (`&a`) before a node's
// text.
func (p *positions) skipProperties(i int) int {
	c := p.text
	for k := 0; k < 2 && i < c.Len() && (c.At(i) == '!' || c.At(i) == '&'); k++ {
		for i < c.Len() && c.At(i) != ' ' && c.At(i) != '\t' && c.At(i) != '\n' && c.At(i) != '\r' {
			i++
		}
		for i < c.Len() && (c.At(i) == ' ' || c.At(i) == '\t') {
			i++
		}
	}
	return i
}

func (p *positions) scalarEnd(n *yaml.Node, start int) int {
	c := p.text
	i := p.skipProperties(start)
	if i >= c.Len() {
		return c.Len()
	}
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0 && c.At(i) == '"':
		for j := i + 1; j < c.Len(); j++ {
			switch c.At(j) {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return c.Len()
	case n.Style&yaml.SingleQuotedStyle != 0 && c.At(i) == '\'':
		for j := i + 1; j < c.Len(); j++ {
			if c.At(j) == '\'' {
				if j+1 < c.Len() && c.At(j+1) == '\'' {
					j++
					continue
				}
				return j + 1
			}
		}
		return c.Len()
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return p.lineContentEnd(i)
	}
	if n.Value == "" && n.Tag == "!!null" && (c.At(i) != '~' && !isNullWord(c.Slice(i, i+4))) {
		return start // an empty value: nothing written
	}
	if string(c.Slice(i, i+len(n.Value))) == n.Value {
		return i + len(n.Value)
	}
	return p.lineContentEnd(i)
}

// isNullWord reports whether b is a spelling of null yaml.v3 reads.
func isNullWord(b []byte) bool {
	return string(b) == "null" || string(b) == "Null" || string(b) == "NULL"
}

// lineContentEnd returns the end of the text on i's line, before a comment
// and trailing blanks.
func (p *positions) lineContentEnd(i int) int {
	c := p.text
	j := i
	for j < c.Len() && c.At(j) != '\n' && c.At(j) != '\r' {
		if c.At(j) == '#' && j > i && (c.At(j-1) == ' ' || c.At(j-1) == '\t') {
			break
		}
		j++
	}
	for j > i && (c.At(j-1) == ' ' || c.At(j-1) == '\t') {
		j--
	}
	return j
}

// flowEnd returns the offset after the bracket that closes the flow
// collection opening at start (after its tag or anchor), or the end of the
// content when it is not closed. It scans windows of the content from the
// bracket on, growing: YAMLFlowClose reads no byte before the bracket, and
// what it decides at a window's last byte bears only on bytes after it, so
// a bracket it finds in a window is the one it finds in the whole content
// (TestFlowEndMatchesTheWholeScan).
func (p *positions) flowEnd(start int) int {
	open, n := p.skipProperties(start), p.text.Len()
	for size := flowWindow; ; size *= 4 {
		to := min(n, open+size)
		if closeAt, ok := YAMLFlowClose(p.text.Slice(open, to), 0); ok {
			return open + closeAt + 1
		}
		if to == n {
			return n
		}
	}
}

// flowWindow is the first window flowEnd scans: a flow collection on a
// few lines (an agent's tools list) closes in it.
const flowWindow = 4 << 10
