package features

import (
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// fileIndex is what the features need of one parsed YAML file: the entries
// of its tools:, agents: and imports: sections with the range of every name.
// It is read from the file's ManifestTree (built once per parse, aliases and
// merge keys resolved as the rules resolve them), so it is empty when the
// file does not parse.
type fileIndex struct {
	file     *analysis.File
	tree     *analysis.ManifestTree
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
	d    *analysis.ToolDecl
	key  *yaml.Node
	node *yaml.Node // the value as written
}

// Key is the range of the tool's name.
func (e *toolEntry) Key() diag.Range { return e.d.KeyRange() }

// Value is the range of the value token; zero-width after the colon for a
// null value; the whole collection for a list or map.
func (e *toolEntry) Value() diag.Range { return e.d.ValueRange() }

// Text is the value when it is a string (aliases followed), else "".
func (e *toolEntry) Text() string {
	if e.IsString() {
		return e.d.Resolved().Value
	}
	return ""
}

// IsString reports whether the value is a string scalar (aliases
// followed).
func (e *toolEntry) IsString() bool { return e.d.Kind() != analysis.ValueOther }

// onLine reports whether the entry's key or scalar value starts on line
// (1-based, as yaml.v3 counts).
func (e *toolEntry) onLine(line int) bool {
	return e.key.Line == line || e.node.Kind == yaml.ScalarNode && e.node.Line == line
}

// refWhere says where an agent names a tool.
type refWhere = analysis.RefWhere

const (
	refItem    = analysis.RefItem    // an item of agents.X.tools: [..]
	refExclude = analysis.RefExclude // an item of agents.X.tools.exclude
	refLegacy  = analysis.RefLegacy  // a key of the legacy map agents.X.tools: {bash: false}
)

// agentRef is one tool name written in an agent's tools value.
type agentRef struct {
	Name    string
	t       *analysis.ManifestTree
	node    *yaml.Node
	Where   refWhere
	Enabled bool // the legacy map's boolean; true otherwise
}

// Range is the range of the name.
func (r *agentRef) Range() diag.Range { return r.t.TokenRange(r.node) }

// agentEntry is one agent under agents:.
type agentEntry struct {
	Name       string
	t          *analysis.ManifestTree
	key, val   *yaml.Node
	toolsKey   *yaml.Node // nil when the agent has no tools key
	toolsNode  *yaml.Node
	excludeKey *yaml.Node
	Refs       []agentRef
}

// Key is the range of the agent's name.
func (a *agentEntry) Key() diag.Range { return a.t.TokenRange(a.key) }

// Whole covers the agent's name and value.
func (a *agentEntry) Whole() diag.Range {
	k := a.Key()
	if end := a.t.NodeRange(a.val).End; end.Offset > k.End.Offset {
		k.End = end
	}
	return k
}

// ToolsKey is the range of the agent's `tools` key; zero without one.
func (a *agentEntry) ToolsKey() diag.Range {
	if a.toolsKey == nil {
		return diag.Range{}
	}
	return a.t.TokenRange(a.toolsKey)
}

// ToolsValue is the range of the agent's tools value.
func (a *agentEntry) ToolsValue() diag.Range {
	if a.toolsNode == nil {
		return diag.Range{}
	}
	return a.t.ValueRange(a.toolsKey, a.toolsNode)
}

// ExcludeKey is the range of `exclude` in `tools: {exclude: [...]}`.
func (a *agentEntry) ExcludeKey() diag.Range {
	if a.excludeKey == nil {
		return diag.Range{}
	}
	return a.t.TokenRange(a.excludeKey)
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

// indexFileLine indexes f from its tree; line > 0 keeps only the entries
// on that line (1-based, as yaml.v3 counts).
func indexFileLine(p *analysis.Project, f *analysis.File, line int) *fileIndex {
	ix := &fileIndex{file: f, line: line}
	if f == nil {
		return ix
	}
	t := f.Tree()
	ix.tree, ix.root = t, t.Root
	if t.Root == nil {
		return ix
	}
	if t.Tools.Key != nil {
		ix.toolsKey = t.TokenRange(t.Tools.Key)
		ix.indexTools(t.Tools.Entries)
	}
	ix.indexAgents(t.Agents.Entries)
	ix.indexImports(p, t.Imports.Items)
	return ix
}

func (ix *fileIndex) indexTools(ds []analysis.ToolDecl) {
	if ix.line == 0 {
		ix.tools = make([]toolEntry, 0, len(ds))
	}
	for i := range ds {
		d := &ds[i]
		if d.Key.Kind != yaml.ScalarNode {
			continue
		}
		e := toolEntry{Name: d.Name, d: d, key: d.Key, node: d.Value}
		if ix.line == 0 || e.onLine(ix.line) {
			ix.tools = append(ix.tools, e)
		}
	}
}

func (ix *fileIndex) indexAgents(ds []analysis.AgentDecl) {
	if len(ds) > 0 {
		ix.agents = make([]agentEntry, 0, len(ds))
	}
	for i := range ds {
		d := &ds[i]
		a := agentEntry{Name: d.Name, t: ix.tree, key: d.Key, val: d.Value, toolsKey: d.ToolsKey, toolsNode: d.Tools, excludeKey: d.ExcludeKey}
		for _, r := range d.Refs {
			if ix.line != 0 && r.Node.Line != ix.line {
				continue
			}
			if a.Refs == nil {
				a.Refs = make([]agentRef, 0, len(d.Refs))
			}
			a.Refs = append(a.Refs, agentRef{Name: r.Name, t: ix.tree, node: r.Node, Where: r.Where, Enabled: r.Enabled})
		}
		ix.agents = append(ix.agents, a)
	}
}

func (ix *fileIndex) indexImports(p *analysis.Project, items []*yaml.Node) {
	for _, it := range items {
		e := importEntry{Path: it.Value, Range: ix.tree.TokenRange(it)}
		if it.Tag == "!!str" && p != nil {
			e.Target = resolveRepoPath(p.Root, it.Value)
		}
		ix.imports = append(ix.imports, e)
	}
}

// scalarRange returns the range of a scalar's token in f, quotes included.
func scalarRange(f *analysis.File, n *yaml.Node) diag.Range { return f.Tree().TokenRange(n) }

// nodeRange covers a node of f and everything in it, ending at its last
// token.
func nodeRange(f *analysis.File, n *yaml.Node) diag.Range { return f.Tree().NodeRange(n) }

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
