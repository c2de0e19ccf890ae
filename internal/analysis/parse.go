package analysis

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// parsed is what parsing one file yields. It depends only on the file's path
// and content, so the cache can keep it.
type parsed struct {
	path  string
	text  []byte // the content, never modified
	lines *diag.Lines
	pos   *positions
	// root is the document's top node (normally a mapping), nil when the file
	// is empty, comments only, or does not parse.
	doc  *yaml.Node
	root *yaml.Node
	// syntax is the Y1 finding, if any.
	syntax *diag.Finding
	// findings are the per-file findings that depend on nothing else: Y1, Y2
	// and T10 (duplicate keys).
	findings []diag.Finding
	// chunks are the chunk parses this parse was built from, or reused by a
	// fallback (see chunkparse.go); nil when the file was parsed whole.
	chunks *chunkSet
	// dups are the duplicate-key findings (T10) of this parse, for the
	// next parse of the file (see checkDuplicateKeys).
	dups *dupMemo
	// stop is the stopper of the load the parse runs in, while the checks
	// of its tree run (nil once the parse is made).
	stop *stopper
	// byChunks is set when the file was parsed by chunks (not whole): it
	// then holds exactly one document.
	byChunks bool
	// tree is the typed tree of this parse: what the rules read.
	tree *ManifestTree
	// id numbers the parses of one Cache (0 without a cache): memoized
	// outcomes (memo.go) know which parse their offsets are in.
	id uint64
}

var yamlErrLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parseFile parses content as a YAML manifest: the nodes, the tree the
// rules read, and the findings of one file (Y1, Y2, T10). It returns nil
// when stop stops (stop.go).
func parseFile(stop *stopper, path string, text []byte) *parsed {
	p := decodeFile(stop, path, text)
	if p == nil {
		return nil
	}
	p.tree = buildTree(stop, p.root, p.pos, nil)
	if p.root != nil {
		p.checkShape()
		p.stop = stop
		p.checkDuplicateKeys(nil)
		p.stop = nil
	}
	if stop.stoppedErr() != nil {
		return nil
	}
	return p
}

// decodeFile decodes text's document, with Y1 for a syntax error or a
// second document. It returns nil
// when stop stops: yaml.v3 reads the content through it.
func decodeFile(stop *stopper, path string, text []byte) *parsed {
	if stop.stopped() {
		return nil
	}
	content := text
	lines := diag.NewLinesFor(text, diag.EditorBreaks)
	p := &parsed{path: path, text: text, lines: lines, pos: newPositions(text, lines)}
	if bytes.HasPrefix(content, []byte{0xfe, 0xff}) || bytes.HasPrefix(content, []byte{0xff, 0xfe}) {
		p.fail(0, 0, "the file is UTF-16: save it as UTF-8")
		return p
	}
	dec := yaml.NewDecoder(stop.reader(bytes.NewReader(ForYAMLv3(content))))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if stop.stoppedErr() != nil {
			return nil
		}
		if errors.Is(err, io.EOF) {
			return p // empty or comments only: a valid manifest with no keys
		}
		p.syntaxError(err)
		return p
	}
	p.doc = &doc
	if len(doc.Content) > 0 {
		p.root = doc.Content[0]
	}
	// A second document: the manifest is one document.
	var next yaml.Node
	err := dec.Decode(&next)
	if stop.stoppedErr() != nil {
		return nil
	}
	if err == nil {
		// yaml.v3 marks a document after the first at its `---` marker
		// (the first document may have one too: it is not the one to
		// remove).
		start := p.pos.offset(next.Line, next.Column)
		end := start
		if bytes.HasPrefix(content[start:], []byte("---")) {
			end = start + 3
		}
		p.addFinding(start, end, ruleSyntax, msgSecondDocument())
	} else if !errors.Is(err, io.EOF) {
		p.syntaxError(err)
	}
	return p
}

func (p *parsed) addFinding(start, end int, r *Rule, msg string) *diag.Finding {
	p.findings = append(p.findings, r.finding(p.path, p.lines.Range(start, end), msg, nil, nil))
	return &p.findings[len(p.findings)-1]
}

// fail records a syntax error on a range and drops the document.
func (p *parsed) fail(start, end int, reason string) {
	p.doc, p.root = nil, nil
	p.findings = p.findings[:0]
	f := p.addFinding(start, end, ruleSyntax, msgSyntax(reason))
	cp := *f
	p.syntax = &cp
}

// syntaxError turns a yaml.v3 error into a Y1 finding on the line it names.
// yaml.v3 reports a line but no column: the range covers the line's text.
// Parser errors ("did not find expected …") name the line before the
// construct that failed; scanner errors name the line itself.
func (p *parsed) syntaxError(err error) {
	msg := err.Error()
	m := yamlErrLine.FindStringSubmatch(msg)
	if m == nil {
		reason := strings.TrimPrefix(msg, "yaml: ")
		off := 0
		switch {
		case strings.Contains(reason, "UTF-8"):
			off = firstInvalidUTF8(p.text)
		case strings.Contains(reason, "control characters"):
			off = firstControl(p.text)
		}
		end := off + 1
		if end > len(p.text) {
			end = len(p.text)
		}
		p.fail(off, end, reason)
		return
	}
	line, _ := strconv.Atoi(m[1])
	reason := m[2]
	if strings.HasPrefix(reason, "did not find expected") || strings.Contains(reason, "not allowed in this context") && !strings.HasPrefix(reason, "mapping values") {
		line++
	}
	if line > p.pos.yaml.Count() {
		line = p.pos.yaml.Count()
	}
	if strings.Contains(reason, "tab") || strings.Contains(reason, "cannot start any token") {
		// yaml.v3 may name the line where the construct began: point at
		// the first tab in indentation from there on.
		if off, ok := p.indentTab(line); ok {
			p.fail(off, off+1, reason)
			return
		}
	}
	if open := flowOpener(reason); open != 0 {
		if off, ok := p.unclosedBracket(line, open); ok {
			p.fail(off, off+1, reason)
			return
		}
	}
	if strings.HasPrefix(reason, "mapping values are not allowed") {
		if off, ok := p.offendingColon(line); ok {
			p.fail(off, off+1, reason)
			return
		}
	}
	start := p.pos.lineStart(line)
	for start < len(p.text) && (p.text[start] == ' ' || p.text[start] == '\t') {
		start++
	}
	end := p.pos.lineContentEnd(start)
	if end <= start {
		// A blank line: point at its end.
		end = start
	}
	p.fail(start, end, reason)
}

// flowOpener returns the bracket an "expected ',' or ']'" error is about.
func flowOpener(reason string) byte {
	switch {
	case strings.HasSuffix(reason, "or ']'"):
		return '['
	case strings.HasSuffix(reason, "or '}'"):
		return '{'
	}
	return 0
}

// unclosedBracket finds, on a 1-based line, the last opening bracket that the
// line does not close (quotes skipped).
func (p *parsed) unclosedBracket(line int, open byte) (int, bool) {
	closeB := byte(']')
	if open == '{' {
		closeB = '}'
	}
	start := p.pos.lineStart(line)
	end := p.pos.lineContentEnd(start)
	var stack []int
	var quote byte
	for i := start; i < end; i++ {
		c := p.text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == open:
			stack = append(stack, i)
		case c == closeB && len(stack) > 0:
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) == 0 {
		return 0, false
	}
	return stack[len(stack)-1], true
}

// offendingColon finds the `: ` that YAML refuses on a 1-based line: the
// second one on the line (`a: b: c`), or the only one when the line
// continues a plain scalar from the line before (a key missing its colon).
// Colons inside quotes are skipped.
func (p *parsed) offendingColon(line int) (int, bool) {
	start, end := p.pos.lineStart(line), p.pos.lineContentEnd(p.pos.lineStart(line))
	var colons []int
	var quote byte
	for i := start; i < end; i++ {
		c := p.text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == ':' && (i+1 == end || p.text[i+1] == ' ' || p.text[i+1] == '\t'):
			colons = append(colons, i)
		}
	}
	switch len(colons) {
	case 0:
		return 0, false
	case 1:
		return colons[0], true
	}
	return colons[1], true
}

// indentTab finds the first tab in the indentation of a line at or after
// the 1-based YAML line.
func (p *parsed) indentTab(line int) (int, bool) {
	for l := line; l <= p.pos.yaml.Count(); l++ {
		for i := p.pos.lineStart(l); i < len(p.text); i++ {
			c := p.text[i]
			if c == '\t' {
				return i, true
			}
			if c != ' ' && c != '-' && c != '?' && c != ':' {
				break
			}
		}
	}
	return 0, false
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return 0
}

func firstControl(b []byte) int {
	for i, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			return i
		}
	}
	return 0
}

// kindName describes a node for messages: "a list", "a number", …
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "null"
		case "!!int", "!!float":
			return "a number (" + n.Value + ")"
		case "!!bool":
			return "a boolean (" + n.Value + ")"
		case "!!str":
			return "the string `" + n.Value + "`"
		case "!!timestamp":
			return "a timestamp"
		case "!!binary":
			return "binary data"
		}
		return "a " + strings.TrimPrefix(n.Tag, "!!") + " value"
	}
	return "an empty document"
}
