package features

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// DocumentSymbols returns the outline of path: its tools:, agents: and
// imports: sections, in file order, each with its entries as children.
func DocumentSymbols(p *analysis.Project, path string) []Symbol {
	f, path := projectFile(p, path)
	if f == nil {
		return nil
	}
	ix := indexFile(p, f)
	if ix.root == nil {
		return nil
	}
	fm := modelOf(p, path)
	var out []Symbol
	for i := 0; i+1 < len(ix.root.Content); i += 2 {
		k, v := ix.root.Content[i], ix.root.Content[i+1]
		var children []Symbol
		var detail string
		switch k.Value {
		case "tools":
			children = make([]Symbol, 0, len(ix.tools))
			for i := range ix.tools {
				e := &ix.tools[i]
				if e.d.Merged {
					continue // written in the mapping it comes from, outside this section
				}
				key := e.Key()
				children = append(children, Symbol{
					Name: e.Name, Kind: SymbolTool, File: path, Detail: fm.toolDetail(e),
					Range: span(key, e.Value()), Selection: key,
				})
			}
			detail = plural(len(ix.tools), "tool")
		case "agents":
			for _, a := range ix.agents {
				children = append(children, Symbol{
					Name: a.Name, Kind: SymbolAgent, File: path, Detail: fm.agentDetail(a.Name),
					Range: a.Whole(), Selection: a.Key(),
				})
			}
			detail = plural(len(children), "agent")
		case "imports":
			for _, e := range ix.imports {
				children = append(children, Symbol{Name: e.Path, Kind: SymbolImport, File: path, Range: e.Range, Selection: e.Range})
			}
			detail = plural(len(children), "file")
		default:
			continue
		}
		kr := scalarRange(f, k)
		out = append(out, Symbol{
			Name: k.Value, Kind: SymbolSection, File: path, Detail: detail,
			Range: span(kr, nodeRange(f, v)), Selection: kr, Children: children,
		})
	}
	return out
}

// span covers a and b.
func span(a, b diag.Range) diag.Range {
	r := a
	if b.End.Offset > r.End.Offset {
		r.End = b.End
	}
	return r
}

// fileModel is the part of the model one file declares, by name: the
// tools the session gets from its tools: entries and its agents. Built once
// per request, so that a file of a thousand entries costs a thousand
// lookups, not a million comparisons.
type fileModel struct {
	m      *analysis.Model
	tools  map[string]int // index in m.Tools
	agents map[string]int // index in m.Agents
}

func modelOf(p *analysis.Project, path string) fileModel {
	fm := fileModel{m: p.Model}
	if p.Model == nil {
		return fm
	}
	fm.tools = make(map[string]int, len(p.Model.Tools))
	for i, t := range p.Model.Tools {
		if _, dup := fm.tools[t.Name]; !dup && samePath(t.File, path) {
			fm.tools[t.Name] = i
		}
	}
	fm.agents = make(map[string]int, len(p.Model.Agents))
	for i, a := range p.Model.Agents {
		if _, dup := fm.agents[a.Name]; !dup && samePath(a.File, path) {
			fm.agents[a.Name] = i
		}
	}
	return fm
}

// tool returns the tool the session gets from this entry; a second entry of
// the same name in the file (T10: the first counts) gets none.
func (fm fileModel) tool(e *toolEntry) (*analysis.Tool, bool) {
	i, ok := fm.tools[e.Name]
	if !ok {
		return nil, false
	}
	t := fm.m.Tools[i]
	if !t.Key.IsZero() && t.Key.StartLine != e.key.Line-1 {
		return nil, false
	}
	return t, true
}

// toolDetail is what `tools ls` says of an entry, or that it is not loaded.
func (fm fileModel) toolDetail(e *toolEntry) string {
	if t, ok := fm.tool(e); ok {
		return t.Kind.String() + " · " + t.Source
	}
	return "not loaded"
}

// agentDetail says how many tools the agent's model sees.
func (fm fileModel) agentDetail(name string) string {
	if i, ok := fm.agents[name]; ok {
		return "sees " + plural(fm.m.Agents[i].Sees.Len(), "tool")
	}
	return ""
}

// WorkspaceSymbols returns the tools and agents of every project whose name
// matches query (case-insensitive; the letters of query in order), best
// matches first: the same name, then a prefix, then a substring, then the
// letters in order.
func WorkspaceSymbols(projects []*analysis.Project, query string) []Symbol {
	q := strings.ToLower(query)
	type scored struct {
		s    Symbol
		rank int
	}
	var all []scored
	for _, p := range projects {
		if p == nil {
			continue
		}
		for _, f := range p.Files {
			ix := indexFile(p, f)
			fm := modelOf(p, f.Path)
			for i := range ix.tools {
				e := &ix.tools[i]
				if r := matchRank(e.Name, q); r >= 0 {
					all = append(all, scored{Symbol{Name: e.Name, Kind: SymbolTool, File: f.Path, Detail: fm.toolDetail(e),
						Range: span(e.Key(), e.Value()), Selection: e.Key(), Container: "tools in " + f.Rel}, r})
				}
			}
			for _, a := range ix.agents {
				if r := matchRank(a.Name, q); r >= 0 {
					all = append(all, scored{Symbol{Name: a.Name, Kind: SymbolAgent, File: f.Path, Detail: fm.agentDetail(a.Name),
						Range: a.Whole(), Selection: a.Key(), Container: "agents in " + f.Rel}, r})
				}
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].rank != all[j].rank {
			return all[i].rank < all[j].rank
		}
		return all[i].s.Name < all[j].s.Name
	})
	if len(all) == 0 {
		return nil
	}
	out := make([]Symbol, len(all))
	for i, s := range all {
		out[i] = s.s
	}
	return out
}

// matchRank scores name against a lower-case query: 0 equal, 1 prefix,
// 2 substring, 3 subsequence, -1 no match. An empty query matches all (3).
func matchRank(name, q string) int {
	n := strings.ToLower(name)
	switch {
	case q == "":
		return 3
	case n == q:
		return 0
	case strings.HasPrefix(n, q):
		return 1
	case strings.Contains(n, q):
		return 2
	}
	i := 0
	for j := 0; j < len(n) && i < len(q); j++ {
		if n[j] == q[i] {
			i++
		}
	}
	if i == len(q) {
		return 3
	}
	return -1
}

// maxFoldDepth bounds the walk of a pathological nesting.
const maxFoldDepth = 64

// FoldingRanges returns a range for every mapping or sequence of path that
// spans more than one line, from the line of its key (or its item's dash)
// to its last line.
func FoldingRanges(p *analysis.Project, path string) []FoldingRange {
	f, _ := projectFile(p, path)
	if f == nil || f.Doc == nil {
		return nil
	}
	var out []FoldingRange
	var walk func(n *yaml.Node, startLine, depth int)
	walk = func(n *yaml.Node, startLine, depth int) {
		if depth > maxFoldDepth {
			return
		}
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, -1, depth+1)
			}
		case yaml.MappingNode, yaml.SequenceNode:
			if startLine >= 0 {
				end := f.Lines.Pos(nodeRange(f, n).End.Offset).Line
				if end > startLine {
					out = append(out, FoldingRange{StartLine: startLine, EndLine: end})
				}
			}
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					walk(n.Content[i+1], n.Content[i].Line-1, depth+1)
				}
				return
			}
			for _, c := range n.Content {
				walk(c, c.Line-1, depth+1)
			}
		}
	}
	walk(f.Doc, -1, 0)
	sort.SliceStable(out, func(i, j int) bool { return out[i].StartLine < out[j].StartLine })
	return out
}

// InlayHints returns, at the end of each tools: entry of path, what
// `tools ls` says of it (beeuni, beeuni (overridden), project) or why it
// will not load. On the root manifest of a project with no tools: key in
// any file, one hint at the end of the first line says that sessions get
// all five Beeuni tools.
func InlayHints(p *analysis.Project, modules Modules, path string) []InlayHint {
	f, path := projectFile(p, path)
	if f == nil {
		return nil
	}
	var out []InlayHint
	if p.Model != nil && !p.Model.ToolsKey && !f.Imported {
		off := f.Lines.LineEnd(0)
		out = append(out, InlayHint{
			Offset: off, Pos: f.Lines.Pos(off), PaddingLeft: off > 0,
			Label: "sessions get all five Beeuni tools (no tools: key)",
			Tooltip: "No `tools:` key in this manifest or its imports: every session gets " +
				codeList(analysis.BeeuniTools()) + ". With a `tools:` key, sessions get only the Beeuni tools it lists.",
		})
	}
	hv := &hoverer{p: p, modules: modules, path: path}
	fm := modelOf(p, path)
	ix := indexFile(p, f)
	if out == nil {
		out = make([]InlayHint, 0, len(ix.tools))
	}
	for i := range ix.tools {
		e := &ix.tools[i]
		key, value := e.Key(), e.Value()
		off := value.End.Offset
		if value.End.Line != key.Start.Line {
			off = key.End.Offset
			if c := f.Content(); off < len(c) && c[off] == ':' {
				off++
			}
		}
		h := InlayHint{Offset: off, Pos: f.Lines.Pos(off), PaddingLeft: true}
		t, ok := fm.tool(e)
		switch {
		case !ok:
			h.Label = "not loaded"
			var msgs []string
			for _, fd := range hv.findingsOn(key, value) {
				if fd.Severity == diag.Error {
					msgs = append(msgs, fmt.Sprintf("%s (%s)", fd.Message, fd.Code))
				}
			}
			h.Tooltip = strings.Join(msgs, "\n\n")
		case t.Module != "" && modules[t.Module] != nil && !modules[t.Module].Loads && !modules[t.Module].Incomplete:
			reason := modules[t.Module].Reason
			h.Label = "will not load: " + shorten(reason, 60)
			h.Tooltip = reason
		default:
			h.Label = t.Kind.String()
		}
		out = append(out, h)
	}
	return out
}

// shorten cuts s to at most n characters, ending with "…" when cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
