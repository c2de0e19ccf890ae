package edit

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

// lastLine returns the 0-based line where node n's text ends: the closing
// bracket of a flow collection, the last line of a scalar, the last line of
// the last entry of a block collection. Block scalars and multi-line plain
// scalars are followed through their more-indented lines.
func (f *yfile) lastLine(n *yaml.Node, parentIndent int, flow bool) int {
	for steps := 0; steps < 100000; steps++ {
		switch n.Kind {
		case yaml.AliasNode:
			return f.lineOf(f.start(n))
		case yaml.ScalarNode:
			if _, end, err := f.scalarSpan(n, flow); err == nil {
				return f.lineOf(end)
			}
			// Follow the lines indented deeper than the entry's key.
			line := f.lineOf(f.start(n))
			last := line
			for l := line + 1; l < f.marks.LineCount(); l++ {
				if f.lineIsBlankOrComment(l) && f.lineIndent(l) <= parentIndent {
					continue
				}
				if f.lineIndent(l) <= parentIndent {
					break
				}
				last = l
			}
			return last
		case yaml.MappingNode, yaml.SequenceNode:
			if isFlow(n) {
				if end, ok := f.flowClose(n); ok {
					return f.lineOf(end)
				}
				return f.lineOf(f.start(n))
			}
			if len(n.Content) == 0 {
				return f.lineOf(f.start(n))
			}
			last := n.Content[len(n.Content)-1]
			if n.Kind == yaml.MappingNode {
				parentIndent = n.Content[len(n.Content)-2].Column - 1
			} else {
				parentIndent = n.Column - 1
			}
			n = last
		default:
			return f.lineOf(f.start(n))
		}
	}
	return f.lineOf(f.start(n))
}

// flowClose returns the offset of the bracket that closes a flow collection.
func (f *yfile) flowClose(n *yaml.Node) (int, bool) {
	return analysis.YAMLFlowClose(f.content, f.start(n))
}

// entry is one `key: value` line to add to a mapping.
// A comment, if any, ends the entry's line (in a flow mapping, after the
// rest of the line, so that the mapping stays valid).
type entry struct{ key, value, comment string }

// line writes an entry for a block mapping.
func (e entry) line() string {
	if e.comment != "" {
		return e.key + ": " + e.value + "  " + e.comment
	}
	return e.key + ": " + e.value
}

// flowComments returns the comment of the entries, one line for all of them.
func flowComment(entries []entry) string {
	for _, e := range entries {
		if e.comment != "" {
			return e.comment
		}
	}
	return ""
}

// addEntries plans the insertion of entries at the end of mapping m (block
// or flow). keyCol is the column of m's own key (for an empty block
// mapping, the new keys go one indentation step deeper); keyLine is the
// line of that key.
func (f *yfile) addEntries(m *yaml.Node, keyNode *yaml.Node, entries []entry) ([]TextEdit, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	switch {
	case m.Kind == yaml.MappingNode && isFlow(m):
		closeAt, ok := f.flowClose(m)
		if !ok {
			return nil, errUnsupported
		}
		parts := make([]string, len(entries))
		for i, e := range entries {
			parts[i] = e.key + ": " + e.value
		}
		if len(m.Content) == 0 {
			// `{}` (or `{ }`): write inside the braces.
			edits := []TextEdit{{File: f.path, Start: f.start(m) + 1, End: closeAt, NewText: strings.Join(parts, ", ")}}
			return f.withFlowComment(edits, closeAt, entries), nil
		}
		last := m.Content[len(m.Content)-1]
		_, end, err := f.scalarSpan(last, true)
		if err != nil {
			if last.Kind != yaml.MappingNode && last.Kind != yaml.SequenceNode || !isFlow(last) {
				return nil, err
			}
			lc, ok := f.flowClose(last)
			if !ok {
				return nil, errUnsupported
			}
			end = lc + 1
		}
		edits := []TextEdit{{File: f.path, Start: end, End: end, NewText: ", " + strings.Join(parts, ", ")}}
		return f.withFlowComment(edits, end, entries), nil
	case m.Kind == yaml.MappingNode && len(m.Content) > 0:
		col := m.Content[0].Column - 1
		if m.Content[0].Line == 0 || f.lineStart(m.Content[0].Line-1)+col != f.offset(m.Content[0].Line, m.Content[0].Column) {
			return nil, errUnsupported // a key after a tab or a multi-byte character
		}
		line := f.lastLine(m, col, false)
		at, eol := f.lineEnd(line), f.breakOf(line)
		var b strings.Builder
		for _, e := range entries {
			b.WriteString(eol + strings.Repeat(" ", col) + e.line())
		}
		return []TextEdit{{File: f.path, Start: at, End: at, NewText: b.String()}}, nil
	case isNull(m) && keyNode != nil:
		// `tools:` with nothing (or `~`, `null`): start a block mapping
		// under the key, one indentation step deeper.
		var edits []TextEdit
		keyLine := f.lineOf(f.start(keyNode))
		if m.Value != "" {
			// `~` or `null`: remove it (and the blanks before it).
			s, e, err := f.scalarSpan(m, false)
			if err != nil {
				return nil, err
			}
			if f.lineOf(s) != keyLine {
				return nil, errUnsupported
			}
			for s > 0 && isBlank(f.content[s-1]) {
				s--
			}
			edits = append(edits, TextEdit{File: f.path, Start: s, End: e})
		}
		at, eol := f.lineEnd(keyLine), f.breakOf(keyLine)
		col := keyNode.Column - 1 + f.indent
		var b strings.Builder
		for _, e := range entries {
			b.WriteString(eol + strings.Repeat(" ", col) + e.line())
		}
		return append(edits, TextEdit{File: f.path, Start: at, End: at, NewText: b.String()}), nil
	}
	return nil, errUnsupported
}

// withFlowComment adds the entries' comment at the end of the line where
// the flow insertion happened, when that line can take one.
func (f *yfile) withFlowComment(edits []TextEdit, at int, entries []entry) []TextEdit {
	comment := flowComment(entries)
	if comment == "" {
		return edits
	}
	if c, ok := f.setLineComment(at, comment); ok {
		edits = append(edits, c...)
	}
	return edits
}

// addTopKey plans a new top-level key holding a block mapping of entries
// (flow when the top mapping is flow), at the end of the root mapping, or
// as the file's first content when the file is empty or only comments.
func (f *yfile) addTopKey(key string, entries []entry) ([]TextEdit, error) {
	if f.root != nil && isFlow(f.root) {
		inner := make([]string, len(entries))
		for i, e := range entries {
			inner[i] = e.key + ": " + e.value
		}
		return f.addEntries(f.root, nil, []entry{{key: key, value: "{" + strings.Join(inner, ", ") + "}", comment: flowComment(entries)}})
	}
	blockWith := func(eol string) string {
		var b strings.Builder
		b.WriteString(key + ":")
		for _, e := range entries {
			b.WriteString(eol + strings.Repeat(" ", f.indent) + e.line())
		}
		return b.String()
	}
	if f.root != nil && len(f.root.Content) > 0 {
		if f.root.Content[0].Column != 1 {
			return nil, errUnsupported
		}
		line := f.lastLine(f.root, 0, false)
		at, eol := f.lineEnd(line), f.breakOf(line)
		return []TextEdit{{File: f.path, Start: at, End: at, NewText: eol + blockWith(eol)}}, nil
	}
	if f.doc != nil && f.root == nil {
		return nil, errUnsupported // a list or a scalar at the top: not a manifest
	}
	if f.root != nil && len(f.root.Content) == 0 {
		return nil, errUnsupported // `{}` written in block context; rare
	}
	// Empty or comments only: add after the content, keeping the file's end
	// and the break of the last line.
	end := len(f.content)
	if end == f.bom {
		return []TextEdit{{File: f.path, Start: end, End: end, NewText: blockWith(f.eol) + f.eol}}, nil
	}
	last := f.content[end-1]
	if last == '\n' || last == '\r' {
		eol := f.breakOf(f.lineOf(end - 1))
		return []TextEdit{{File: f.path, Start: end, End: end, NewText: blockWith(eol) + eol}}, nil
	}
	return []TextEdit{{File: f.path, Start: end, End: end, NewText: f.eol + blockWith(f.eol)}}, nil
}

// removeSeqItem plans the removal of item i from sequence seq, the value of
// key. The last item of a list becomes `[]`, not an omitted value (which
// would mean every tool).
func (f *yfile) removeSeqItem(key, seq *yaml.Node, i int) ([]TextEdit, error) {
	item := seq.Content[i]
	if isFlow(seq) {
		s, e, err := f.scalarSpan(item, true)
		if err != nil {
			return nil, err
		}
		if len(seq.Content) == 1 {
			closeAt, ok := f.flowClose(seq)
			if !ok {
				return nil, errUnsupported
			}
			return []TextEdit{{File: f.path, Start: f.start(seq) + 1, End: closeAt}}, nil
		}
		if i+1 < len(seq.Content) {
			next := f.start(seq.Content[i+1])
			return []TextEdit{{File: f.path, Start: s, End: next}}, nil
		}
		// The last item: remove it with the comma before it.
		_, pe, err := f.scalarSpan(seq.Content[i-1], true)
		if err != nil {
			return nil, err
		}
		return []TextEdit{{File: f.path, Start: pe, End: e}}, nil
	}
	itemLine := f.lineOf(f.start(item))
	dash := f.lineStart(itemLine) + f.lineIndent(itemLine)
	if dash >= len(f.content) || f.content[dash] != '-' {
		return nil, errUnsupported // `- a` and the item on different lines, or a compact form
	}
	lastLine := f.lastLine(item, seq.Column-1, false)
	del := TextEdit{File: f.path, Start: f.lineStart(itemLine), End: f.lineNext(lastLine)}
	if del.End == len(f.content) && !endsWithBreak(f.content) && itemLine > 0 {
		// The file ends on the item with no final newline: remove the break
		// before it instead, so the file still ends without one.
		del.Start, del.End = f.lineEnd(itemLine-1), f.lineEnd(lastLine)
	}
	if len(seq.Content) > 1 {
		return []TextEdit{del}, nil
	}
	if key == nil {
		return nil, errUnsupported
	}
	// The only item: the value becomes `[]` on the key's line.
	keyLine := f.lineOf(f.start(key))
	_, kend, err := f.scalarSpan(key, false)
	if err != nil {
		return nil, err
	}
	colon := kend
	for colon < len(f.content) && isBlank(f.content[colon]) {
		colon++
	}
	if colon >= len(f.content) || f.content[colon] != ':' || f.lineOf(colon) != keyLine || keyLine == itemLine {
		return nil, errUnsupported
	}
	return []TextEdit{{File: f.path, Start: colon + 1, End: colon + 1, NewText: " []"}, del}, nil
}
