package edit

import (
	"bytes"
	"errors"
	"fmt"

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
	eol     string // the file's line break: "\r\n", "\r" or "\n"
	indent  int    // the file's indentation width, 2 when nothing shows it
	// src is the loader's file this one was prepared from (nil for a file
	// parsed here): its parse's chunks make checking an edit cheap.
	src *analysis.File
	// tree is the typed tree of the loader's file (prepare sets it; empty
	// for a file the loader found empty).
	tree *analysis.ManifestTree
	// nodes finds scalars by offset (nodeAt), made on first use.
	nodes *nodeIndex
	// digest is the SHA-256 of content (sum), made on first use.
	digest string
	// means is what the file means (meaning), made on first use.
	means *fileMeaning
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

// sum returns the SHA-256 (hex) of the file's content, the Base of every
// change planned on it: computed once, however many fixes a request plans.
func (f *yfile) sum() string {
	if f.digest == "" {
		f.digest = digest(f.content)
	}
	return f.digest
}

// offset converts a yaml.v3 mark (1-based line, 1-based column counted in
// characters) into a byte offset.
func (f *yfile) offset(line, col int) int { return f.marks.Offset(line, col) }

// start returns the byte offset of a node's text, after a tag or an anchor.
func (f *yfile) start(n *yaml.Node) int { return f.marks.NodeStart(n) }

func isBlank(b byte) bool { return b == ' ' || b == '\t' }

// lineOf returns the 0-based YAML line holding offset.
func (f *yfile) lineOf(offset int) int { return f.marks.LineOf(offset) }

// lineStart returns the byte offset where a 0-based line starts.
func (f *yfile) lineStart(line int) int { return f.marks.LineStart(line) }

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

func endsWithBreak(c []byte) bool {
	return len(c) > 0 && (c[len(c)-1] == '\n' || c[len(c)-1] == '\r')
}
