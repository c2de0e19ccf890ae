package features

import (
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// fileIndex is what the features need of one parsed YAML file: the entries
// of its tools:, agents: and imports: sections with the range of every name.
// It is built from File.Doc, so it is empty when the file does not parse.
type fileIndex struct {
	file     *analysis.File
	toolsKey diag.Range // zero when the file has no tools: key
	tools    []toolEntry
	agents   []agentEntry
	imports  []importEntry
	// root is the top-level mapping, nil when the document is not one.
	root *yaml.Node
	// line, when not 0, is the only line whose entries were kept.
	line int
}

// toolEntry is one key: value under tools:. Ranges are computed on demand:
// a lookup converts only the nodes on the cursor's line.
type toolEntry struct {
	Name string
	f    *analysis.File
	key  *yaml.Node
	node *yaml.Node // the value
}

// Key is the range of the tool's name.
func (e *toolEntry) Key() diag.Range { return scalarRange(e.f, e.key) }

// Value is the range of the value token; zero-width after the colon for a
// null value; the whole collection for a list or map.
func (e *toolEntry) Value() diag.Range {
	switch {
	case isNull(e.node):
		return nullValueRange(e.f, e.key, e.node)
	case e.node.Kind == yaml.ScalarNode:
		return scalarRange(e.f, e.node)
	}
	return nodeRange(e.f, e.node)
}

// Text is the value when it is a string, else "".
func (e *toolEntry) Text() string {
	if e.IsString() {
		return e.node.Value
	}
	return ""
}

// IsString reports whether the value is a string scalar.
func (e *toolEntry) IsString() bool {
	return e.node.Kind == yaml.ScalarNode && e.node.Tag == "!!str"
}

// onLine reports whether the entry's key or scalar value starts on line
// (1-based, as yaml.v3 counts).
func (e *toolEntry) onLine(line int) bool {
	return e.key.Line == line || e.node.Kind == yaml.ScalarNode && e.node.Line == line
}

// refWhere says where an agent names a tool.
type refWhere int

const (
	refItem    refWhere = iota // an item of agents.X.tools: [..]
	refExclude                 // an item of agents.X.tools.exclude
	refLegacy                  // a key of the legacy map agents.X.tools: {bash: false}
)

// agentRef is one tool name written in an agent's tools value.
type agentRef struct {
	Name    string
	f       *analysis.File
	node    *yaml.Node
	Where   refWhere
	Enabled bool // the legacy map's boolean; true otherwise
}

// Range is the range of the name.
func (r *agentRef) Range() diag.Range { return scalarRange(r.f, r.node) }

// agentEntry is one agent under agents:.
type agentEntry struct {
	Name       string
	f          *analysis.File
	key, val   *yaml.Node
	toolsKey   *yaml.Node // nil when the agent has no tools key
	toolsNode  *yaml.Node
	excludeKey *yaml.Node
	Refs       []agentRef
}

// Key is the range of the agent's name.
func (a *agentEntry) Key() diag.Range { return scalarRange(a.f, a.key) }

// Whole covers the agent's name and value.
func (a *agentEntry) Whole() diag.Range {
	k := a.Key()
	if end := nodeRange(a.f, a.val).End; end.Offset > k.End.Offset {
		k.End = end
	}
	return k
}

// ToolsKey is the range of the agent's `tools` key; zero without one.
func (a *agentEntry) ToolsKey() diag.Range {
	if a.toolsKey == nil {
		return diag.Range{}
	}
	return scalarRange(a.f, a.toolsKey)
}

// ToolsValue is the range of the agent's tools value.
func (a *agentEntry) ToolsValue() diag.Range {
	switch {
	case a.toolsNode == nil:
		return diag.Range{}
	case isNull(a.toolsNode):
		return nullValueRange(a.f, a.toolsKey, a.toolsNode)
	}
	return nodeRange(a.f, a.toolsNode)
}

// ExcludeKey is the range of `exclude` in `tools: {exclude: [...]}`.
func (a *agentEntry) ExcludeKey() diag.Range {
	if a.excludeKey == nil {
		return diag.Range{}
	}
	return scalarRange(a.f, a.excludeKey)
}

// importEntry is one item under imports:.
type importEntry struct {
	Path   string // as written
	Range  diag.Range
	Target string // absolute path the entry resolves to, "" when it is not a string
}

// indexFile builds the index of one file. It never fails: shapes it does not
// understand are left out (the analysis reports them).
func indexFile(p *analysis.Project, f *analysis.File) *fileIndex {
	return indexFileLine(p, f, 0)
}

// indexAt indexes only what a lookup at offset can find: the tools:
// entries and agent names on offset's line (the agents themselves and the
// imports are always kept; there are few). It allocates little on a
// manifest of thousands of entries.
func indexAt(p *analysis.Project, f *analysis.File, offset int) *fileIndex {
	return indexFileLine(p, f, f.Lines.Pos(offset).Line+1)
}

// indexFileLine indexes f; line > 0 keeps only the entries on that line
// (1-based, as yaml.v3 counts).
func indexFileLine(p *analysis.Project, f *analysis.File, line int) *fileIndex {
	ix := &fileIndex{file: f, line: line}
	if f == nil || f.Doc == nil {
		return ix
	}
	root := f.Doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return ix
		}
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return ix
	}
	ix.root = root
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "tools":
			ix.toolsKey = scalarRange(f, k)
			ix.indexTools(v)
		case "agents":
			ix.indexAgents(v)
		case "imports":
			ix.indexImports(p, v)
		}
	}
	return ix
}

func (ix *fileIndex) indexTools(v *yaml.Node) {
	if v.Kind != yaml.MappingNode {
		return
	}
	if ix.line == 0 {
		ix.tools = make([]toolEntry, 0, len(v.Content)/2)
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		e := toolEntry{Name: k.Value, f: ix.file, key: k, node: val}
		if ix.line == 0 || e.onLine(ix.line) {
			ix.tools = append(ix.tools, e)
		}
	}
}

func (ix *fileIndex) indexAgents(v *yaml.Node) {
	if v.Kind != yaml.MappingNode {
		return
	}
	f := ix.file
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		a := agentEntry{Name: k.Value, f: f, key: k, val: val}
		if val.Kind == yaml.MappingNode {
			for j := 0; j+1 < len(val.Content); j += 2 {
				tk, tv := val.Content[j], val.Content[j+1]
				if tk.Value != "tools" {
					continue
				}
				a.toolsKey, a.toolsNode = tk, tv
				a.indexRefs(tv, ix.line)
			}
		}
		ix.agents = append(ix.agents, a)
	}
}

func (a *agentEntry) indexRefs(v *yaml.Node, line int) {
	keep := func(n *yaml.Node) bool { return line == 0 || n.Line == line }
	item := func(it *yaml.Node, where refWhere) {
		if it.Kind == yaml.ScalarNode && it.Tag == "!!str" && keep(it) {
			a.Refs = append(a.Refs, agentRef{Name: it.Value, f: a.f, node: it, Where: where, Enabled: true})
		}
	}
	switch v.Kind {
	case yaml.SequenceNode:
		if line == 0 {
			a.Refs = make([]agentRef, 0, len(v.Content))
		}
		for _, it := range v.Content {
			item(it, refItem)
		}
	case yaml.MappingNode:
		if len(v.Content) == 2 && v.Content[0].Value == "exclude" {
			a.excludeKey = v.Content[0]
			if seq := v.Content[1]; seq.Kind == yaml.SequenceNode {
				if line == 0 {
					a.Refs = make([]agentRef, 0, len(seq.Content))
				}
				for _, it := range seq.Content {
					item(it, refExclude)
				}
			}
			return
		}
		if line == 0 {
			a.Refs = make([]agentRef, 0, len(v.Content)/2)
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			k, b := v.Content[j], v.Content[j+1]
			if k.Kind != yaml.ScalarNode || !keep(k) {
				continue
			}
			a.Refs = append(a.Refs, agentRef{Name: k.Value, f: a.f, node: k, Where: refLegacy, Enabled: b.Value == "true"})
		}
	}
}

func (ix *fileIndex) indexImports(p *analysis.Project, v *yaml.Node) {
	if v.Kind != yaml.SequenceNode {
		return
	}
	for _, it := range v.Content {
		if it.Kind != yaml.ScalarNode {
			continue
		}
		e := importEntry{Path: it.Value, Range: scalarRange(ix.file, it)}
		if it.Tag == "!!str" && p != nil {
			e.Target = resolveRepoPath(p.Root, it.Value)
		}
		ix.imports = append(ix.imports, e)
	}
}

// isNull reports whether n is an empty or null value.
func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// nodeOffset returns the byte offset of a node's start (its tag or
// anchor, if any): yaml.v3 marks converted as the engine converts them.
func nodeOffset(f *analysis.File, n *yaml.Node) int {
	return f.Marks().Offset(n.Line, n.Column)
}

// scalarRange returns the range of a scalar's token in the source, quotes
// included.
func scalarRange(f *analysis.File, n *yaml.Node) diag.Range {
	start := nodeOffset(f, n)
	return f.Lines.Range(start, scalarEnd(f.Content, start, n))
}

// scalarEnd finds where a scalar token that starts at start ends.
func scalarEnd(c []byte, start int, n *yaml.Node) int {
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
		return lineEndAt(c, start)
	}
	// Plain: the value itself when the source spells it out on one line.
	if v := n.Value; len(v) > 0 && start+len(v) <= len(c) && string(c[start:start+len(v)]) == v {
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

func lineEndAt(c []byte, off int) int {
	for off < len(c) && c[off] != '\n' && c[off] != '\r' {
		off++
	}
	return off
}

// nullValueRange places an empty value just after its key's colon.
func nullValueRange(f *analysis.File, k, v *yaml.Node) diag.Range {
	if v.Line > 0 && v.Value != "" { // an explicit ~ or null
		return scalarRange(f, v)
	}
	kr := scalarRange(f, k)
	off := kr.End.Offset
	c := f.Content
	for off < len(c) && (c[off] == ' ' || c[off] == '\t') {
		off++
	}
	if off < len(c) && c[off] == ':' {
		off++
	}
	return f.Lines.Range(off, off)
}

// nodeRange covers a node and everything in it, ending at its last token.
func nodeRange(f *analysis.File, n *yaml.Node) diag.Range {
	start := nodeOffset(f, n)
	end := nodeEnd(f, n)
	if end < start {
		end = start
	}
	// A flow collection ends at its closing bracket.
	if (n.Kind == yaml.SequenceNode || n.Kind == yaml.MappingNode) && n.Style&yaml.FlowStyle != 0 {
		end = closingBracket(f.Content, start, end)
	}
	return f.Lines.Range(start, end)
}

// nodeEnd returns the end offset of the last token inside n.
func nodeEnd(f *analysis.File, n *yaml.Node) int {
	switch n.Kind {
	case yaml.ScalarNode:
		return scalarEnd(f.Content, nodeOffset(f, n), n)
	case yaml.AliasNode:
		s := nodeOffset(f, n)
		return scalarEnd(f.Content, s, &yaml.Node{Kind: yaml.ScalarNode, Value: "*" + n.Value})
	case yaml.SequenceNode, yaml.MappingNode, yaml.DocumentNode:
		end := nodeOffset(f, n)
		for _, c := range n.Content {
			if e := nodeEnd(f, c); e > end {
				end = e
			}
		}
		return end
	}
	return nodeOffset(f, n)
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

// yamlLine returns the 1-based line (as yaml.v3 counts) of offset.
func (ix *fileIndex) yamlLine(offset int) int { return ix.file.Lines.Pos(offset).Line + 1 }

// toolAt returns the tools: entry whose key or scalar value holds offset,
// and whether the offset is on the key.
func (ix *fileIndex) toolAt(offset int) (*toolEntry, bool) {
	line := ix.yamlLine(offset)
	for i := range ix.tools {
		e := &ix.tools[i]
		if !e.onLine(line) {
			continue
		}
		if e.key.Line == line && e.Key().Contains(offset) {
			return e, true
		}
		if e.node.Kind == yaml.ScalarNode && e.node.Line == line && e.Value().Contains(offset) {
			return e, false
		}
	}
	return nil, false
}

// refAt returns the agent and the ref under offset.
func (ix *fileIndex) refAt(offset int) (*agentEntry, *agentRef) {
	line := ix.yamlLine(offset)
	for i := range ix.agents {
		a := &ix.agents[i]
		for j := range a.Refs {
			if r := &a.Refs[j]; r.node.Line == line && r.Range().Contains(offset) {
				return a, r
			}
		}
	}
	return nil, nil
}

// importAt returns the imports: entry under offset.
func (ix *fileIndex) importAt(offset int) *importEntry {
	for i := range ix.imports {
		if ix.imports[i].Range.Contains(offset) {
			return &ix.imports[i]
		}
	}
	return nil
}

// nameAt returns the tool name under offset: a tools: key or a name in an
// agent's tools, with its range.
func (ix *fileIndex) nameAt(offset int) (string, diag.Range, bool) {
	if e, onKey := ix.toolAt(offset); e != nil && onKey {
		return e.Name, e.Key(), true
	}
	if _, r := ix.refAt(offset); r != nil {
		return r.Name, r.Range(), true
	}
	return "", diag.Range{}, false
}

// projectFile returns the file of p at path, and path cleaned (the form every
// entry point compares the project's paths with); the file is nil when p is
// nil or path is not one of its files.
func projectFile(p *analysis.Project, path string) (*analysis.File, string) {
	path = filepath.Clean(path)
	if p == nil {
		return nil, path
	}
	return p.File(path), path
}
