package edit

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

// errUnsupported marks YAML this package will not edit (an alias, a block
// scalar where a one-line value is expected, a multi-line plain scalar):
// no action is offered rather than a risky one.
var errUnsupported = errors.New("this YAML is written in a form the edit does not change safely")

// yfile is one YAML file prepared for editing: its bytes, its parsed nodes,
// and the conventions an edit must keep (line break, indentation width).
type yfile struct {
	path    string
	content []byte
	doc     *yaml.Node // document node; nil for an empty or comments-only file
	root    *yaml.Node // the top mapping; nil when the document is not one
	bom     int        // 3 when the file starts with a UTF-8 byte order mark
	marks   *analysis.YAMLMarks
	starts  []int  // byte offset of each YAML line, from marks
	eol     string // the file's line break: "\r\n", "\r" or "\n"
	indent  int    // the file's indentation width, 2 when nothing shows it
	// src is the loader's file this one was prepared from (nil for a file
	// parsed here): its parse's chunks make checking an edit cheap.
	src *analysis.File
}

// parseYFile parses content. A file that does not parse is not edited.
func parseYFile(path string, content []byte) (*yfile, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(analysis.ForYAMLv3(content), &doc); err != nil {
		return nil, fmt.Errorf("%s does not parse: %w", path, err)
	}
	return newYFile(path, content, &doc), nil
}

// newYFile prepares content for editing from doc, its first document as
// yaml.v3 parsed it (nil or empty for an empty file): the project's loader
// already parsed each file, and the edit planners only read the nodes.
func newYFile(path string, content []byte, doc *yaml.Node) *yfile {
	f := &yfile{path: path, content: content, eol: "\n", indent: 2}
	if doc != nil && doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		f.doc = doc
		if top := doc.Content[0]; top.Kind == yaml.MappingNode {
			f.root = top
		}
	}
	if bytes.HasPrefix(content, []byte("\xef\xbb\xbf")) {
		f.bom = 3
	}
	f.marks = analysis.NewYAMLMarks(content)
	f.starts = f.marks.LineStarts()
	if i := bytes.IndexAny(content, "\r\n"); i >= 0 {
		switch {
		case content[i] == '\n':
			f.eol = "\n"
		case i+1 < len(content) && content[i+1] == '\n':
			f.eol = "\r\n"
		default:
			f.eol = "\r"
		}
	}
	if f.root != nil {
		if w := nestedIndent(f.root); w > 0 {
			f.indent = w
		}
	}
	return f
}

// nestedIndent finds the indentation width the file uses: the column step
// from a block mapping key to the keys of its block mapping value.
func nestedIndent(m *yaml.Node) int {
	stack := []*yaml.Node{m}
	for steps := 0; len(stack) > 0 && steps < 100000; steps++ {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind != yaml.MappingNode || n.Style&yaml.FlowStyle != 0 {
			continue
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Kind == yaml.MappingNode && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0 && v.Content[0].Line > k.Line {
				if w := v.Content[0].Column - k.Column; w > 0 {
					return w
				}
			}
			stack = append(stack, v)
		}
	}
	return 0
}

// offset converts a yaml.v3 mark (1-based line, 1-based column counted in
// characters) into a byte offset.
func (f *yfile) offset(line, col int) int { return f.marks.Offset(line, col) }

// start returns the byte offset of a node's text, after a tag or an anchor.
func (f *yfile) start(n *yaml.Node) int { return f.marks.NodeStart(n) }

func isBlank(b byte) bool { return b == ' ' || b == '\t' }

// lineOf returns the 0-based YAML line holding offset.
func (f *yfile) lineOf(offset int) int {
	lo, hi := 0, len(f.starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if f.starts[mid] <= offset {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// lineStart returns the byte offset where a 0-based line starts.
func (f *yfile) lineStart(line int) int {
	if line >= len(f.starts) {
		return len(f.content)
	}
	return f.starts[line]
}

// lineEnd returns the offset of a 0-based line's end, before its break.
func (f *yfile) lineEnd(line int) int { return f.marks.LineEnd(line) }

// lineNext returns the offset after a 0-based line's break (or the end).
func (f *yfile) lineNext(line int) int { return f.lineStart(line + 1) }

// breakOf returns the line break that ends a 0-based line ("\n", "\r\n" or
// "\r"), or the file's first break when the line has none of those (the
// last line, or a line ended by NEL, LS or PS). A line inserted at the end
// of that line takes this break, so that a file mixing breaks keeps every
// byte outside the inserted span.
func (f *yfile) breakOf(line int) string {
	switch brk := string(f.content[f.lineEnd(line):f.lineNext(line)]); brk {
	case "\n", "\r\n", "\r":
		return brk
	}
	return f.eol
}

// lineIsBlankOrComment reports whether a line holds nothing but blanks and
// maybe a comment.
func (f *yfile) lineIsBlankOrComment(line int) bool {
	i := f.lineStart(line)
	end := f.lineEnd(line)
	for i < end && isBlank(f.content[i]) {
		i++
	}
	return i == end || f.content[i] == '#'
}

// lineIndent returns the number of leading spaces of a 0-based line.
func (f *yfile) lineIndent(line int) int {
	i := f.lineStart(line)
	n := 0
	for i+n < len(f.content) && f.content[i+n] == ' ' {
		n++
	}
	return n
}

// scalarSpan returns the byte range of a scalar's text (quotes included),
// checked: decoding exactly those bytes gives the node's value. Block
// scalars, aliases and multi-line scalars are refused with errUnsupported.
func (f *yfile) scalarSpan(n *yaml.Node, flow bool) (start, end int, err error) {
	if n.Kind != yaml.ScalarNode || n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return 0, 0, errUnsupported
	}
	c := f.content
	start = f.start(n)
	if start >= len(c) {
		return 0, 0, errUnsupported
	}
	switch c[start] {
	case '"':
		end = -1
		for j := start + 1; j < len(c) && c[j] != '\n' && c[j] != '\r'; j++ {
			if c[j] == '\\' {
				j++
				continue
			}
			if c[j] == '"' {
				end = j + 1
				break
			}
		}
	case '\'':
		end = -1
		for j := start + 1; j < len(c) && c[j] != '\n' && c[j] != '\r'; j++ {
			if c[j] == '\'' {
				if j+1 < len(c) && c[j+1] == '\'' {
					j++
					continue
				}
				end = j + 1
				break
			}
		}
	default:
		end = start
		for end < len(c) && c[end] != '\n' && c[end] != '\r' {
			if c[end] == '#' && end > start && isBlank(c[end-1]) {
				break
			}
			if flow && (c[end] == ',' || c[end] == ']' || c[end] == '}' || c[end] == '[' || c[end] == '{') {
				break
			}
			if c[end] == ':' && end+1 < len(c) && (isBlank(c[end+1]) || c[end+1] == '\n' || c[end+1] == '\r' || flow && c[end+1] == ',') {
				break
			}
			end++
		}
		for end > start && isBlank(c[end-1]) {
			end--
		}
	}
	if end <= start {
		// An empty plain value (`key:` with nothing) has no text to replace.
		if end == start && n.Value == "" && n.Style == 0 {
			return start, start, nil
		}
		return 0, 0, errUnsupported
	}
	if v, ok := decodeScalar(c[start:end]); !ok || v != n.Value {
		return 0, 0, errUnsupported
	}
	return start, end, nil
}

// decodeScalar decodes one scalar's text on its own.
func decodeScalar(text []byte) (string, bool) {
	var n yaml.Node
	if err := yaml.Unmarshal(append([]byte("v: "), text...), &n); err != nil {
		return "", false
	}
	if len(n.Content) != 1 || len(n.Content[0].Content) != 2 || n.Content[0].Content[1].Kind != yaml.ScalarNode {
		return "", false
	}
	return n.Content[0].Content[1].Value, true
}

// requote writes a new plain-safe value in the quoting style of n.
func requote(n *yaml.Node, value string) string {
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		return `"` + value + `"`
	case n.Style&yaml.SingleQuotedStyle != 0:
		return "'" + value + "'"
	}
	return value
}

// commentAfter finds a comment on the rest of the line after offset, in a
// part of the line that holds no quoted text that would hide a `#`. ok is
// false when the rest of the line cannot be read safely.
func (f *yfile) commentAfter(offset int) (start, end int, found, ok bool) {
	c := f.content
	line := f.lineOf(offset)
	lineEnd := f.lineEnd(line)
	for i := offset; i < lineEnd; i++ {
		switch q := c[i]; q {
		case '"', '\'':
			// Skip a quoted scalar that closes on this line.
			closed := false
			for i++; i < lineEnd; i++ {
				if q == '"' && c[i] == '\\' {
					i++
					continue
				}
				if c[i] == q {
					if q == '\'' && i+1 < lineEnd && c[i+1] == '\'' {
						i++
						continue
					}
					closed = true
					break
				}
			}
			if !closed {
				return 0, 0, false, false
			}
		case '#':
			if i == f.lineStart(line) || isBlank(c[i-1]) {
				return i, lineEnd, true, true
			}
		}
	}
	return lineEnd, lineEnd, false, true
}

// TemplateComment is the comment the project template puts on a Beeuni
// tool's entry; an eject makes it false, so the eject's marker replaces it.
const TemplateComment = "# maintained by Beeuni, updated automatically"

// setLineComment ends the line holding offset with comment (e.g.
// "# ejected from beeuni:web_search"). A comment that stood there is kept,
// with comment after it (`# used by the researcher # ejected from
// beeuni:web_search`), unless it is TemplateComment, which comment
// replaces; a line that already ends with comment is left as it is (no
// edit). Everything else on the line (a `,` or `}` of a flow mapping)
// stays before the comment, so a flow mapping stays valid. ok is false
// when the line cannot take a comment safely.
func (f *yfile) setLineComment(offset int, comment string) (edits []TextEdit, ok bool) {
	start, end, found, ok := f.commentAfter(offset)
	if !ok {
		return nil, false
	}
	c := f.content
	if found {
		old := strings.TrimRight(string(c[start:end]), " \t")
		switch {
		case old == comment || strings.HasSuffix(old, " "+comment):
			return nil, true
		case old != TemplateComment:
			at := start + len(old)
			return []TextEdit{{File: f.path, Start: at, End: at, NewText: " " + comment}}, true
		}
		// The template's comment: replace it, keeping the blanks before it
		// only if there are two or more.
		s := start
		for s > offset && isBlank(c[s-1]) {
			s--
		}
		return []TextEdit{{File: f.path, Start: s, End: end, NewText: "  " + comment}}, true
	}
	s := end
	for s > offset && isBlank(c[s-1]) {
		s--
	}
	return []TextEdit{{File: f.path, Start: s, End: end, NewText: "  " + comment}}, true
}

// mapGet returns the key and value nodes of the first `key` in mapping m.
func mapGet(m *yaml.Node, key string) (k, v *yaml.Node, index int) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil, -1
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Kind == yaml.ScalarNode && m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1], i
		}
	}
	return nil, nil, -1
}

func isFlow(n *yaml.Node) bool { return n.Style&yaml.FlowStyle != 0 }

// isEmptyValue reports whether n is a null written as nothing, `~` or
// `null`.
func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

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
			for l := line + 1; l < len(f.starts); l++ {
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

func endsWithBreak(c []byte) bool {
	return len(c) > 0 && (c[len(c)-1] == '\n' || c[len(c)-1] == '\r')
}
