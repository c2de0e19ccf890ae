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
	text []byte
	// lines breaks lines as editors do (diag.EditorBreaks): the lines of
	// the ranges. nil for YAMLMarks, which makes no ranges.
	lines *diag.Lines
	// yaml breaks lines as yaml.v3 does (diag.YAMLv3Breaks: NEL, LS and PS
	// too); it is lines itself when the content has none of those.
	yaml *diag.Lines
	bom  int
}

func newPositions(text []byte, lines *diag.Lines) *positions {
	p := &positions{text: text, lines: lines}
	if lines != nil {
		p.yaml = lines.With(diag.YAMLv3Breaks)
	} else {
		p.yaml = diag.NewLinesFor(text, diag.YAMLv3Breaks)
	}
	if bytes.HasPrefix(text, []byte("\xef\xbb\xbf")) {
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
		return len(p.text)
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
		if off < end || line+1 >= p.yaml.Count() || p.text[end] == '\n' || p.text[end] == '\r' {
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
			if e > len(p.text) {
				e = len(p.text)
			}
			return e
		case yaml.MappingNode, yaml.SequenceNode:
			if n.Style&yaml.FlowStyle != 0 {
				if i := p.skipProperties(start); i < len(p.text) && (p.text[i] == '[' || p.text[i] == '{') {
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
	for k := 0; k < 2 && i < len(c) && (c[i] == '!' || c[i] == '&'); k++ {
		for i < len(c) && c[i] != ' ' && c[i] != '\t' && c[i] != '\n' && c[i] != '\r' {
			i++
		}
		for i < len(c) && (c[i] == ' ' || c[i] == '\t') {
			i++
		}
	}
	return i
}

func (p *positions) scalarEnd(n *yaml.Node, start int) int {
	c := p.text
	i := p.skipProperties(start)
	if i >= len(c) {
		return len(c)
	}
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0 && c[i] == '"':
		for j := i + 1; j < len(c); j++ {
			switch c[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return len(c)
	case n.Style&yaml.SingleQuotedStyle != 0 && c[i] == '\'':
		for j := i + 1; j < len(c); j++ {
			if c[j] == '\'' {
				if j+1 < len(c) && c[j+1] == '\'' {
					j++
					continue
				}
				return j + 1
			}
		}
		return len(c)
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return p.lineContentEnd(i)
	}
	if n.Value == "" && n.Tag == "!!null" && (c[i] != '~' && !isNullWord(c[i:min(len(c), i+4)])) {
		return start // an empty value: nothing written
	}
	if bytes.HasPrefix(c[i:], []byte(n.Value)) {
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
	for j < len(c) && c[j] != '\n' && c[j] != '\r' {
		if c[j] == '#' && j > i && (c[j-1] == ' ' || c[j-1] == '\t') {
			break
		}
		j++
	}
	for j > i && (c[j-1] == ' ' || c[j-1] == '\t') {
		j--
	}
	return j
}

// flowEnd returns the offset after the bracket that closes the flow
// collection opening at start (after its tag or anchor), or the end of the
// content when it is not closed.
func (p *positions) flowEnd(start int) int {
	if closeAt, ok := YAMLFlowClose(p.text, p.skipProperties(start)); ok {
		return closeAt + 1
	}
	return len(p.text)
}
