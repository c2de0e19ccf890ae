package analysis

import (
	"bytes"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// Ranges of a tree's nodes, as the editor shows them: a scalar's token
// (quotes included), a collection up to its last token (a flow one to its
// closing bracket), an empty value just after its key's colon. They are
// computed on demand: a lookup converts only the nodes it looks at.

// KeyRange is the range of the entry's name.
func (d *ToolDecl) KeyRange() diag.Range { return d.t.TokenRange(d.Key) }

// ValueRange is the range of the value token; zero-width after the colon
// for a null value; the whole collection for a list or map.
func (d *ToolDecl) ValueRange() diag.Range { return d.t.ValueRange(d.Key, d.Value) }

// TokenRange returns the range of a scalar's token in the source, quotes
// included; zero for a tree without a parse.
func (t *ManifestTree) TokenRange(n *yaml.Node) diag.Range {
	if t.pos == nil {
		return diag.Range{}
	}
	start := t.nodeOffset(n)
	return t.pos.lines.Range(start, tokenEnd(t.pos.text, start, n))
}

// ValueRange returns the range of the value of key: TokenRange for a
// scalar, NodeRange for a collection, zero-width after the key's colon for
// an empty value.
func (t *ManifestTree) ValueRange(key, v *yaml.Node) diag.Range {
	switch {
	case t.pos == nil:
		return diag.Range{}
	case isNull(v):
		if v.Line > 0 && v.Value != "" { // an explicit ~ or null
			return t.TokenRange(v)
		}
		off := t.TokenRange(key).End.Offset
		c := t.pos.text
		for off < len(c) && (c[off] == ' ' || c[off] == '\t') {
			off++
		}
		if off < len(c) && c[off] == ':' {
			off++
		}
		return t.pos.lines.Range(off, off)
	case v.Kind == yaml.ScalarNode:
		return t.TokenRange(v)
	}
	return t.NodeRange(v)
}

// NodeRange covers a node and everything in it, ending at its last token.
func (t *ManifestTree) NodeRange(n *yaml.Node) diag.Range {
	if t.pos == nil {
		return diag.Range{}
	}
	start := t.nodeOffset(n)
	end := t.nodeEnd(n)
	if end < start {
		end = start
	}
	if (n.Kind == yaml.SequenceNode || n.Kind == yaml.MappingNode) && n.Style&yaml.FlowStyle != 0 {
		end = closingBracket(t.pos.text, start, end)
	}
	return t.pos.lines.Range(start, end)
}

// nodeOffset returns the byte offset of a node's start (its tag or anchor,
// if any).
func (t *ManifestTree) nodeOffset(n *yaml.Node) int { return t.pos.offset(n.Line, n.Column) }

// nodeEnd returns the end offset of the last token inside n.
func (t *ManifestTree) nodeEnd(n *yaml.Node) int {
	switch n.Kind {
	case yaml.ScalarNode:
		return tokenEnd(t.pos.text, t.nodeOffset(n), n)
	case yaml.AliasNode:
		return tokenEnd(t.pos.text, t.nodeOffset(n), &yaml.Node{Kind: yaml.ScalarNode, Value: "*" + n.Value})
	case yaml.SequenceNode, yaml.MappingNode, yaml.DocumentNode:
		end := t.nodeOffset(n)
		for _, c := range n.Content {
			if e := t.nodeEnd(c); e > end {
				end = e
			}
		}
		return end
	}
	return t.nodeOffset(n)
}

// tokenEnd finds where a scalar token that starts at start ends.
func tokenEnd(c []byte, start int, n *yaml.Node) int {
	if start >= len(c) {
		return start
	}
	switch n.Style & (yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle | yaml.LiteralStyle | yaml.FoldedStyle) {
	case yaml.DoubleQuotedStyle:
		for i := start + 1; i < len(c); i++ {
			switch c[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return len(c)
	case yaml.SingleQuotedStyle:
		for i := start + 1; i < len(c); i++ {
			if c[i] == '\'' {
				if i+1 < len(c) && c[i+1] == '\'' {
					i++
					continue
				}
				return i + 1
			}
		}
		return len(c)
	case yaml.LiteralStyle, yaml.FoldedStyle:
		for start < len(c) && c[start] != '\n' && c[start] != '\r' {
			start++
		}
		return start
	}
	// Plain: the value itself when the source spells it out on one line.
	if v := n.Value; len(v) > 0 && bytes.HasPrefix(c[start:], []byte(v)) {
		return start + len(v)
	}
	// A plain scalar folded over lines, or an alias/tag: to the end of the
	// token on its first line.
	end := start
	for end < len(c) && c[end] != '\n' && c[end] != '\r' && c[end] != '#' {
		end++
	}
	for end > start && (c[end-1] == ' ' || c[end-1] == '\t') {
		end--
	}
	return end
}

// closingBracket returns the offset after the bracket that closes the flow
// collection opening at start, looking from the end of its last token.
func closingBracket(c []byte, start, from int) int {
	if start >= len(c) || (c[start] != '[' && c[start] != '{') {
		return from
	}
	for i := from; i < len(c); i++ {
		switch c[i] {
		case ']', '}':
			return i + 1
		case ' ', '\t', '\r', '\n', ',':
		default:
			return from
		}
	}
	return from
}
