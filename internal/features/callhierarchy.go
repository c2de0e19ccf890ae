package features

import (
	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// The call hierarchy of a project: agents call the tools they get. On a
// tool, its incoming calls are the agents whose model sees it; on an
// agent, its outgoing calls are the tools it gets (harness, Beeuni and
// project tools, after its tools: value).

// CallKind says whether a call hierarchy item is an agent or a tool.
type CallKind int

const (
	CallAgent CallKind = iota
	CallTool
)

// CallItem is an agent or a tool. Range covers its entry (the agent's name
// and its tools value, the tool's key and value) in File, Selection its
// name. A tool
// the project does not declare (a harness tool, a Beeuni tool of a project
// without tools:) has no entry: its place is the agent's, where the agent
// gets it (Detail says which kind of tool it is).
type CallItem struct {
	Kind      CallKind
	Name      string
	Detail    string // "agent", "project · tools/x.ts", "beeuni", "harness", …
	File      string
	Range     diag.Range
	Selection diag.Range
}

// Call is one edge: the agent that calls and the tool called, with the
// places in the agent's file where the agent gets the tool (the name in
// its tools: list, or the agent's name when it gets the tool without
// naming it: all, none of the excluded, no tools:).
type Call struct {
	Item       CallItem // the other end: the agent (incoming) or the tool (outgoing)
	FromRanges []diag.Range
	FromFile   string
}

// PrepareCallHierarchy returns the item at offset: an agent's name, a
// tool's entry, a tool named in an agent's tools, or, in a tool module,
// its default export (every tool declared with that module).
func PrepareCallHierarchy(p *analysis.Project, modules Modules, path string, offset int) []CallItem {
	if p == nil || p.Model == nil {
		return nil
	}
	f, path := projectFile(p, path)
	if f == nil {
		return moduleItems(p, modules, path, offset)
	}
	ix := indexAt(p, f, offset)
	if e, _ := ix.toolAt(offset); e != nil {
		if it, ok := toolItem(p, e.Name); ok {
			return []CallItem{it}
		}
		return nil
	}
	if _, r := ix.refAt(offset); r != nil {
		if it, ok := toolItem(p, r.Name); ok {
			return []CallItem{it}
		}
		return nil
	}
	for i := range ix.agents {
		a := &ix.agents[i]
		if a.Key().Contains(offset) {
			if it, ok := agentItem(p, a.Name); ok {
				return []CallItem{it}
			}
		}
	}
	return nil
}

// moduleItems returns the tools declared with the module at path, when
// offset is in its default export.
func moduleItems(p *analysis.Project, modules Modules, path string, offset int) []CallItem {
	r := modules[path]
	if r == nil || r.DefaultExport.IsZero() || !r.DefaultExport.Contains(offset) {
		return nil
	}
	var out []CallItem
	for _, t := range p.Model.Tools {
		if t.Module == path {
			if it, ok := toolItem(p, t.Name); ok {
				out = append(out, it)
			}
		}
	}
	return out
}

// IncomingCalls returns the agents that can call the tool item, in the
// order they are declared.
func IncomingCalls(p *analysis.Project, item CallItem) []Call {
	if p == nil || p.Model == nil || item.Kind != CallTool {
		return nil
	}
	var out []Call
	for _, a := range p.Model.Agents {
		if !a.Sees.Contains(item.Name) {
			continue
		}
		it, ok := agentItem(p, a.Name)
		if !ok {
			continue
		}
		out = append(out, Call{Item: it, FromFile: a.File, FromRanges: callPlaces(p, a, item.Name)})
	}
	return out
}

// OutgoingCalls returns the tools the agent item gets, in the order its
// model sees them.
func OutgoingCalls(p *analysis.Project, item CallItem) []Call {
	if p == nil || p.Model == nil || item.Kind != CallAgent {
		return nil
	}
	a := modelAgent(p, item.Name)
	if a == nil {
		return nil
	}
	var out []Call
	for name := range a.Sees.All() {
		it, ok := toolItem(p, name)
		if !ok {
			it, ok = undeclaredToolItem(p, a, name)
		}
		if !ok {
			continue
		}
		out = append(out, Call{Item: it, FromFile: a.File, FromRanges: callPlaces(p, a, name)})
	}
	return out
}

// callPlaces returns where agent a gets the tool: each enabled mention of
// it in its tools value, else the agent's name.
func callPlaces(p *analysis.Project, a *analysis.Agent, tool string) []diag.Range {
	f := p.File(a.File)
	if f == nil {
		return nil
	}
	var out []diag.Range
	if a.Form == analysis.FormList || a.Form == analysis.FormLegacy {
		for _, r := range a.Refs {
			if r.Name == tool && r.Enabled {
				out = append(out, f.Range(r.Span))
			}
		}
	}
	if len(out) == 0 {
		out = append(out, f.Range(a.Key))
	}
	return out
}

// agentItem is the item of the agent of that name (its first declaration).
func agentItem(p *analysis.Project, name string) (CallItem, bool) {
	a := modelAgent(p, name)
	if a == nil {
		return CallItem{}, false
	}
	f := p.File(a.File)
	if f == nil {
		return CallItem{}, false
	}
	key := f.Range(a.Key)
	whole := key
	if !a.ToolsValue.IsZero() {
		if end := f.Range(a.ToolsValue).End; end.Offset > whole.End.Offset {
			whole.End = end
		}
	}
	return CallItem{Kind: CallAgent, Name: a.Name, Detail: "agent", File: a.File, Range: whole, Selection: key}, true
}

func modelAgent(p *analysis.Project, name string) *analysis.Agent {
	for _, a := range p.Model.Agents {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// toolItem is the item of a tool the session gets from a tools: entry.
func toolItem(p *analysis.Project, name string) (CallItem, bool) {
	t, ok := p.Model.Tool(name)
	if !ok || t.Implicit() {
		return CallItem{}, false
	}
	f := p.File(t.File)
	if f == nil {
		return CallItem{}, false
	}
	key := f.Range(t.Key)
	whole := key
	if v := f.Range(t.Value); v.End.Offset > whole.End.Offset {
		whole.End = v.End
	}
	detail := t.Kind.String()
	if t.Kind != analysis.KindBeeuni {
		detail += " · " + t.Source
	}
	return CallItem{Kind: CallTool, Name: t.Name, Detail: detail, File: t.File, Range: whole, Selection: key}, true
}

// undeclaredToolItem is the item of a tool that agent a gets without a
// tools: entry: a harness tool, or a Beeuni tool of a project without
// tools:. Its place is the agent's name.
func undeclaredToolItem(p *analysis.Project, a *analysis.Agent, name string) (CallItem, bool) {
	f := p.File(a.File)
	if f == nil {
		return CallItem{}, false
	}
	detail := "harness"
	if t, ok := p.Model.Tool(name); ok {
		detail = t.Kind.String()
	}
	key := f.Range(a.Key)
	return CallItem{Kind: CallTool, Name: name, Detail: detail, File: a.File, Range: key, Selection: key}, true
}
