package analysis

import (
	"bytes"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// positions converts yaml.v3 marks (1-based line, 1-based column counted in
// characters, lines broken the way YAML breaks them, a leading BOM not
// counted) into byte offsets and diag ranges.
type positions struct {
	content []byte
	lines   *diag.Lines
	// starts holds the byte offset of each YAML line. YAML breaks lines at
	// "\r\n", "\r", "\n", and (yaml.v3 follows YAML 1.1) NEL, LS and PS.
	starts []int
	bom    int
	// sameLines is true when YAML breaks lines exactly where lines does
	// (only at "\n"): a yaml.v3 line number is then the diag line, and
	// nodeRange converts offsets without a binary search.
	sameLines bool
	// wide holds, for each YAML line with a byte that is not ASCII, the
	// byte offset of every colStride-th character (see indexColumns).
	wide map[int][]int
}

func newPositions(content []byte, lines *diag.Lines) *positions {
	// Nearly every YAML line break is a "\n": count them to size the index.
	p := &positions{content: content, lines: lines, starts: make([]int, 1, bytes.Count(content, []byte{'\n'})+1)}
	if bytes.HasPrefix(content, []byte("\xef\xbb\xbf")) {
		p.bom = 3
		p.starts[0] = 3
	}
	for i := p.bom; i < len(content); i++ {
		switch c := content[i]; c {
		case '\n':
			p.starts = append(p.starts, i+1)
		case '\r':
			if i+1 < len(content) && content[i+1] == '\n' {
				i++
			}
			p.starts = append(p.starts, i+1)
		case 0xc2: // NEL is C2 85
			if i+1 < len(content) && content[i+1] == 0x85 {
				i++
				p.starts = append(p.starts, i+1)
			}
		case 0xe2: // LS E2 80 A8, PS E2 80 A9
			if i+2 < len(content) && content[i+1] == 0x80 && (content[i+2] == 0xa8 || content[i+2] == 0xa9) {
				i += 2
				p.starts = append(p.starts, i+1)
			}
		}
	}
	p.sameLines = lines != nil && len(p.starts) == lines.Count()
	p.indexColumns()
	return p
}

// pos is lines.Pos(off) for an offset that is probably on the 0-based line
// hint: when it is, the line is known without a search.
func (p *positions) pos(off, hint int) diag.Pos {
	if !p.sameLines || off < 0 || off > len(p.content) || hint < 0 || hint >= len(p.starts) {
		return p.lines.Pos(off)
	}
	start := p.starts[hint]
	if hint == 0 {
		start = 0 // a BOM is part of the first line
	}
	if off < start || hint+1 < len(p.starts) && off >= p.starts[hint+1] {
		return p.lines.Pos(off)
	}
	return diag.Pos{Offset: off, Line: hint, Col: off - start}
}

// offset returns the byte offset of a yaml.v3 mark (1-based line and
// column), in O(colStride) (see indexColumns).
func (p *positions) offset(line, col int) int {
	if line < 1 {
		line = 1
	}
	if line > len(p.starts) {
		return len(p.content)
	}
	return p.advance(line-1, max(col-1, 0))
}

// lineEnd returns the byte offset where a 0-based YAML line ends, before
// its line break (the end of the content for the last line).
func (p *positions) lineEnd(line int) int {
	starts, c := p.starts, p.content
	if line < 0 {
		line = 0
	}
	if line+1 >= len(starts) {
		return len(c)
	}
	next := starts[line+1]
	switch {
	case next >= 2 && c[next-2] == '\r' && c[next-1] == '\n':
		return next - 2
	case next >= 1 && (c[next-1] == '\n' || c[next-1] == '\r'):
		return next - 1
	case next >= 2 && c[next-2] == 0xc2 && c[next-1] == 0x85: // NEL
		return next - 2
	case next >= 3 && c[next-3] == 0xe2 && c[next-2] == 0x80: // LS, PS
		return next - 3
	}
	return next
}

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
			if e > len(p.content) {
				e = len(p.content)
			}
			return e
		case yaml.MappingNode, yaml.SequenceNode:
			if n.Style&yaml.FlowStyle != 0 {
				if i := p.skipProperties(start); i < len(p.content) && (p.content[i] == '[' || p.content[i] == '{') {
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
	c := p.content
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
	c := p.content
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
	if n.Value == "" && n.Tag == "!!null" && (c[i] != '~' && !bytes.HasPrefix(c[i:], []byte("null")) && !bytes.HasPrefix(c[i:], []byte("Null")) && !bytes.HasPrefix(c[i:], []byte("NULL"))) {
		return start // an empty value: nothing written
	}
	if bytes.HasPrefix(c[i:], []byte(n.Value)) {
		return i + len(n.Value)
	}
	return p.lineContentEnd(i)
}

// lineContentEnd returns the end of the text on i's line, before a comment
// and trailing blanks.
func (p *positions) lineContentEnd(i int) int {
	c := p.content
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
	if closeAt, ok := YAMLFlowClose(p.content, p.skipProperties(start)); ok {
		return closeAt + 1
	}
	return len(p.content)
}
