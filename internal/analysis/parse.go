package analysis

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// parsed is what parsing one file yields. It depends only on the file's path
// and content, so the cache can keep it.
type parsed struct {
	path    string
	content []byte
	lines   *diag.Lines
	pos     *positions
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
	chunks chunkSet
	// dups are the duplicate-key findings (T10) by subtree, for the next
	// parse of the file (see checkDuplicateKeys).
	dups map[*yaml.Node][]diag.Finding
	// byChunks is set when the file was parsed by chunks (not whole): it
	// then holds exactly one document.
	byChunks bool
	// id numbers the parses of one Cache (0 without a cache): memoized
	// outcomes (memo.go) know which parse their offsets are in.
	id uint64
}

var yamlErrLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parseFile parses content as a YAML manifest.
func parseFile(path string, content []byte) *parsed {
	lines := diag.NewLines(content)
	p := &parsed{path: path, content: content, lines: lines, pos: newPositions(content, lines)}
	if bytes.HasPrefix(content, []byte{0xfe, 0xff}) || bytes.HasPrefix(content, []byte{0xff, 0xfe}) {
		p.fail(0, 0, "the file is UTF-16: save it as UTF-8")
		return p
	}
	dec := yaml.NewDecoder(bytes.NewReader(ForYAMLv3(content)))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
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
	if err := dec.Decode(&next); err == nil {
		// yaml.v3 marks a document after the first at its `---` marker
		// (the first document may have one too: it is not the one to
		// remove).
		start := p.pos.offset(next.Line, next.Column)
		end := start
		if bytes.HasPrefix(content[start:], []byte("---")) {
			end = start + 3
		}
		p.addFinding(start, end, diag.Error, CodeSyntax, msgSecondDocument(), nil)
	} else if !errors.Is(err, io.EOF) {
		p.syntaxError(err)
	}
	if p.root != nil {
		p.checkShape()
		p.checkDuplicateKeys(nil)
	}
	return p
}

func (p *parsed) addFinding(start, end int, sev diag.Severity, code, msg string, data map[string]string) *diag.Finding {
	p.findings = append(p.findings, diag.Finding{
		File: p.path, Range: p.lines.Range(start, end), Severity: sev, Code: code, Message: msg, Data: data,
	})
	return &p.findings[len(p.findings)-1]
}

// fail records a syntax error on a range and drops the document.
func (p *parsed) fail(start, end int, reason string) {
	p.doc, p.root = nil, nil
	p.findings = p.findings[:0]
	f := p.addFinding(start, end, diag.Error, CodeSyntax, msgSyntax(reason), nil)
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
			off = firstInvalidUTF8(p.content)
		case strings.Contains(reason, "control characters"):
			off = firstControl(p.content)
		}
		end := off + 1
		if end > len(p.content) {
			end = len(p.content)
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
	for start < len(p.content) && (p.content[start] == ' ' || p.content[start] == '\t') {
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
		c := p.content[i]
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
		c := p.content[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == ':' && (i+1 == end || p.content[i+1] == ' ' || p.content[i+1] == '\t'):
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
		for i := p.pos.lineStart(l); i < len(p.content); i++ {
			c := p.content[i]
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

// checkShape reports a top level that is not a mapping (Y2).
func (p *parsed) checkShape() {
	n := p.root
	if n.Kind == yaml.MappingNode {
		return
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return // `~` or `null`: nothing declared
	}
	r := p.pos.nodeRange(n)
	p.findings = append(p.findings, diag.Finding{
		File: p.path, Range: r, Severity: diag.Error, Code: CodeShape, Message: msgNotMapping(kindName(n)),
	})
}

// checkDuplicateKeys reports every key that appears twice in one mapping
// (T10), anywhere in the document. It walks with an explicit stack and never
// follows aliases, so neither deep nesting nor alias bombs can hurt it.
//
// prev holds the findings of the previous parse of the file by subtree, for
// the collections one and two levels under the root (a top-level value; an
// entry of a top-level mapping or sequence, an agent's body say): a chunked
// parse shares the nodes of unchanged chunks, and a subtree found again
// gives the same findings at the same lines, so they are taken from prev,
// their offsets recomputed, without walking it. The findings of this parse
// are kept the same way in p.dups.
func (p *parsed) checkDuplicateKeys(prev map[*yaml.Node][]diag.Finding) {
	p.dups = map[*yaml.Node][]diag.Finding{}
	p.duplicatesUnder(p.root, 0, prev)
}

// duplicatesUnder checks the subtree of n, at depth under the root.
func (p *parsed) duplicatesUnder(n *yaml.Node, depth int, prev map[*yaml.Node][]diag.Finding) {
	if n.Kind != yaml.MappingNode && n.Kind != yaml.SequenceNode {
		return
	}
	if depth == 0 || depth > 2 {
		p.walkDuplicates(n, depth, prev)
		return
	}
	if fs, ok := prev[n]; ok {
		kept := slices.Clone(fs)
		rebaseFindings(kept, p.lines)
		p.findings = append(p.findings, kept...)
		p.dups[n] = kept
		return
	}
	before := len(p.findings)
	p.walkDuplicates(n, depth, prev)
	p.dups[n] = slices.Clone(p.findings[before:])
}

// walkDuplicates checks n's own keys, then its children: those at depths
// 1 and 2 through duplicatesUnder (and its memo), deeper ones with an
// explicit stack.
func (p *parsed) walkDuplicates(n *yaml.Node, depth int, prev map[*yaml.Node][]diag.Finding) {
	if depth < 2 {
		if n.Kind == yaml.MappingNode {
			p.duplicateKeysIn(n)
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k := n.Content[i]; k.Kind != yaml.ScalarNode {
					p.duplicatesUnder(k, depth+1, prev)
				}
				p.duplicatesUnder(n.Content[i+1], depth+1, prev)
			}
			return
		}
		for _, c := range n.Content {
			p.duplicatesUnder(c, depth+1, prev)
		}
		return
	}
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n.Kind {
		case yaml.MappingNode:
			p.duplicateKeysIn(n)
			for i := 0; i+1 < len(n.Content); i += 2 {
				if v := n.Content[i+1]; v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode {
					stack = append(stack, v)
				}
				if k := n.Content[i]; k.Kind == yaml.MappingNode || k.Kind == yaml.SequenceNode {
					stack = append(stack, k)
				}
			}
		case yaml.SequenceNode:
			for i := len(n.Content) - 1; i >= 0; i-- {
				if c := n.Content[i]; c.Kind == yaml.MappingNode || c.Kind == yaml.SequenceNode {
					stack = append(stack, c)
				}
			}
		}
	}
}

// duplicateKeysIn reports the keys of one mapping that repeat an earlier key.
// Small mappings (most of a manifest) are compared pairwise, large ones
// through a map.
func (p *parsed) duplicateKeysIn(n *yaml.Node) {
	isKey := func(k *yaml.Node) bool { return k.Kind == yaml.ScalarNode && k.Tag != "!!merge" }
	report := func(first, k *yaml.Node) {
		firstRange := p.pos.nodeRange(first)
		p.findings = append(p.findings, diag.Finding{
			File: p.path, Range: p.pos.nodeRange(k), Severity: diag.Error, Code: CodeDuplicateKey,
			Message: msgDuplicateKey(k.Value, firstRange.Start.Line+1),
			Related: []diag.Related{{File: p.path, Range: firstRange, Message: msgFirstKey(k.Value)}},
			Data:    map[string]string{DataName: k.Value},
		})
	}
	const small = 16
	if len(n.Content) <= 2*small {
		for i := 2; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if !isKey(k) {
				continue
			}
			for j := 0; j < i; j += 2 {
				if f := n.Content[j]; isKey(f) && f.Value == k.Value {
					report(f, k)
					break
				}
			}
		}
		return
	}
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !isKey(k) {
			continue
		}
		if first, ok := seen[k.Value]; ok {
			report(first, k)
		} else {
			seen[k.Value] = k
		}
	}
}
