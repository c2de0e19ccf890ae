package features

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
)

// Modules holds the module inspections by absolute module path
// (analysis.Inspection.Results). A nil map means inspection is off or has
// not finished: hovers then say so instead of describing the module.
type Modules = map[string]*tsinspect.Result

// Hover describes what is under offset in path: a tools: key or value, the
// top-level tools: key, a name in an agent's tools, an agent's tools key or
// value, an import entry. ok is false when there is nothing to say.
func Hover(p *analysis.Project, modules Modules, path string, offset int) (h HoverInfo, ok bool) {
	f, path := projectFile(p, path)
	if f == nil {
		return HoverInfo{}, false
	}
	ix := indexAt(p, f, offset)
	hv := &hoverer{p: p, modules: modules, path: path}
	if ix.toolsKey.Contains(offset) {
		return HoverInfo{Markdown: hv.toolsTable(), Range: ix.toolsKey}, true
	}
	if e, onKey := ix.toolAt(offset); e != nil {
		r := e.Value()
		if onKey {
			r = e.Key()
		}
		return HoverInfo{Markdown: hv.tool(e), Range: r}, true
	}
	if a, r := ix.refAt(offset); r != nil {
		return HoverInfo{Markdown: hv.ref(a, r), Range: r.Range()}, true
	}
	line := ix.yamlLine(offset)
	on := func(n *yaml.Node) bool { return n != nil && n.Line == line }
	for i := range ix.agents {
		a := &ix.agents[i]
		// The agent's name, its tools key, its exclude key, a scalar tools
		// value: each shows what the agent's model sees.
		for _, c := range []struct {
			n *yaml.Node
			r func() diag.Range
		}{{a.key, a.Key}, {a.toolsKey, a.ToolsKey}, {a.excludeKey, a.ExcludeKey}, {a.toolsNode, a.ToolsValue}} {
			if !on(c.n) || c.n == a.toolsNode && !isScalarValue(a) {
				continue
			}
			if r := c.r(); r.Contains(offset) {
				return HoverInfo{Markdown: hv.sees(a), Range: r, Agent: a.Name}, true
			}
		}
	}
	if e := ix.importAt(offset); e != nil {
		return HoverInfo{Markdown: hv.importEntry(e), Range: e.Range}, true
	}
	return HoverInfo{}, false
}

func isScalarValue(a *agentEntry) bool {
	return a.toolsNode.Kind == yaml.ScalarNode
}

type hoverer struct {
	p       *analysis.Project
	modules Modules
	path    string
}

// modelTool returns the tool the session gets for a declaration in this
// file.
func (hv *hoverer) modelTool(name string) (analysis.Tool, bool) {
	if hv.p.Model == nil {
		return analysis.Tool{}, false
	}
	for _, t := range hv.p.Model.Tools {
		if t.Name == name && samePath(t.File, hv.path) {
			return *t, true
		}
	}
	return analysis.Tool{}, false
}

func (hv *hoverer) sessionTool(name string) (analysis.Tool, bool) {
	if hv.p.Model == nil {
		return analysis.Tool{}, false
	}
	return hv.p.Model.Tool(name)
}

// toolsTable is `tools ls` in a code block.
func (hv *hoverer) toolsTable() string {
	if hv.p.Model == nil {
		return ""
	}
	return "**What a session gets** (`beeuni-lsp tools ls`):\n\n```text\n" + analysis.FormatToolsLs(hv.p.Model, analysis.NotLoadedTools(hv.p, hv.p.Findings)) + "```"
}

// tool describes one entry under tools:.
func (hv *hoverer) tool(e *toolEntry) string {
	var b strings.Builder
	t, ok := hv.modelTool(e.Name)
	if ok && !t.Key.IsZero() && t.Key.StartLine != e.key.Line-1 {
		ok = false // a second entry of the name in this file (T10)
	}
	if !ok {
		fmt.Fprintf(&b, "**%s**: not loaded", e.Name)
		if other, found := hv.sessionTool(e.Name); found && !other.Implicit() {
			fmt.Fprintf(&b, " (the declaration in `%s` counts)", hv.p.Rel(other.File))
		}
		b.WriteString("\n")
		for _, fd := range hv.findingsOn(e.Key(), e.Value()) {
			fmt.Fprintf(&b, "\n- %s (%s)", fd.Message, fd.Code)
		}
		return b.String()
	}
	fmt.Fprintf(&b, "**%s** · `%s` · source `%s`", t.Name, t.Kind, t.Source)
	switch t.Kind {
	case analysis.KindBeeuni:
		b.WriteString("\n\n" + beeuniToolFacts[t.Name].does)
		b.WriteString("\n\nMaintained by Beeuni: a fix to it reaches every project that lists it, with no change here.")
		b.WriteString("\n\n" + beeuniToolFacts[t.Name].view)
	case analysis.KindOverridden:
		b.WriteString("\n\nThe project's module runs instead of the Beeuni tool, on every harness. Beeuni no longer updates it.")
		b.WriteString(hv.module(t.Module))
		b.WriteString(hv.secretGaps(t))
		b.WriteString("\n\n" + beeuniToolFacts[t.Name].view + " " + keepShapeFact)
	case analysis.KindProject:
		b.WriteString(hv.module(t.Module))
		b.WriteString(hv.secretGaps(t))
	}
	return b.String()
}

// secretGaps names, for each secret the tool's module reads from
// `context.env`, the agents that can call the tool while their `secrets:`
// list does not grant it (A4 on each agent).
func (hv *hoverer) secretGaps(t analysis.Tool) string {
	gaps := analysis.SecretGaps(hv.p, t, hv.modules[t.Module])
	if len(gaps) == 0 {
		return ""
	}
	const most = 5
	var b strings.Builder
	for _, g := range gaps {
		names := make([]string, 0, min(len(g.Agents), most))
		for _, a := range g.Agents[:min(len(g.Agents), most)] {
			names = append(names, "`"+a+"`")
		}
		more := ""
		if len(g.Agents) > most {
			more = fmt.Sprintf(" and %d more", len(g.Agents)-most)
		}
		fmt.Fprintf(&b, "\n- agents that can call this tool and do not get `%s`: %s%s", g.Secret, strings.Join(names, ", "), more)
	}
	return "\n\n**Secrets:**" + b.String() + "\n\n_Their `secrets:` list does not grant it: `context.env` has it only if the box's environment does._"
}

// findingsOn returns this file's findings that touch one of the ranges.
func (hv *hoverer) findingsOn(rs ...diag.Range) []diag.Finding {
	var out []diag.Finding
	for _, fd := range hv.p.Findings {
		if !samePath(fd.File, hv.path) {
			continue
		}
		for _, r := range rs {
			if overlaps(fd.Range, r) {
				out = append(out, fd)
				break
			}
		}
	}
	return out
}

func overlaps(a, b diag.Range) bool {
	return a.Start.Offset <= b.End.Offset && b.Start.Offset <= a.End.Offset
}

// module describes a module from its inspection.
func (hv *hoverer) module(abs string) string {
	if abs == "" {
		return ""
	}
	r := hv.modules[abs]
	switch {
	case hv.modules == nil:
		return "\n\n_Module inspection is off or has not finished._"
	case r == nil:
		return "\n\n_The module has not been inspected yet._"
	case r.Incomplete:
		return "\n\n_The inspection of the module did not finish._"
	}
	var b strings.Builder
	if !r.Loads {
		fmt.Fprintf(&b, "\n\n**Will not load:** %s. The daemon skips the module and the other tools still load.", strings.TrimSuffix(r.Reason, "."))
	}
	if r.DescriptionKnown && r.Description != "" {
		b.WriteString("\n\n" + r.Description)
	}
	if tbl := paramTable(r.Parameters); tbl != "" {
		b.WriteString("\n\n" + tbl)
	}
	if len(r.ParametersUnknown) > 0 {
		b.WriteString("\n\n" + unknownParts(r.ParametersUnknown))
	}
	return b.String()
}

// unknownParts names the parts of the schema that only running the module
// would tell (the table shows the rest).
func unknownParts(parts []tsinspect.UnknownValue) string {
	const most = 5
	var names []string
	for i, p := range parts {
		if i == most {
			names = append(names, fmt.Sprintf("and %d more", len(parts)-most))
			break
		}
		names = append(names, fmt.Sprintf("`parameters.%s` (%s)", p.Path, p.Why))
	}
	return "_Not known statically, so not shown: " + cell(strings.Join(names, "; ")) + "._"
}

// paramTable renders the properties of a JSON Schema object as a markdown
// table, in the order the schema lists them.
func paramTable(schema json.RawMessage) string {
	if len(schema) == 0 {
		return ""
	}
	var top struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if json.Unmarshal(schema, &top) != nil {
		return ""
	}
	names, props := orderedObject(top.Properties)
	if len(names) == 0 {
		return "_No parameters._"
	}
	var b strings.Builder
	b.WriteString("| parameter | type | required | description |\n| --- | --- | --- | --- |")
	for _, n := range names {
		var p struct {
			Type        json.RawMessage `json:"type"`
			Description string          `json:"description"`
			Enum        []any           `json:"enum"`
		}
		_ = json.Unmarshal(props[n], &p)
		typ := schemaType(p.Type)
		if len(p.Enum) > 0 {
			var vals []string
			for _, v := range p.Enum {
				s, _ := json.Marshal(v)
				vals = append(vals, string(s))
			}
			typ = strings.TrimSpace(typ + " one of " + strings.Join(vals, ", "))
		}
		req := ""
		if contains(top.Required, n) {
			req = "yes"
		}
		fmt.Fprintf(&b, "\n| `%s` | %s | %s | %s |", n, cell(typ), req, cell(p.Description))
	}
	return b.String()
}

// orderedObject returns the keys of a JSON object in source order, with
// their raw values.
func orderedObject(raw json.RawMessage) ([]string, map[string]json.RawMessage) {
	if len(raw) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil
	}
	var names []string
	vals := map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return names, vals
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return names, vals
		}
		if _, dup := vals[k]; !dup {
			names = append(names, k)
		}
		vals[k] = v
	}
	return names, vals
}

func schemaType(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return strings.Join(list, " or ")
	}
	return ""
}

// cell makes text safe in a markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	s = strings.ReplaceAll(s, "\r\n", " ")
	return strings.ReplaceAll(s, "\n", " ")
}

// ref describes a name written in an agent's tools.
func (hv *hoverer) ref(a *agentEntry, r *agentRef) string {
	var b strings.Builder
	name := r.Name
	known, _ := analysis.HarnessTool(name)
	t, loaded := hv.sessionTool(name)
	switch {
	case name == "*" && r.Where == refItem:
		b.WriteString("**`*`**: every tool. A list holding `*` is the same as `all`.")
	case known:
		fmt.Fprintf(&b, "**%s** · harness tool\n\n%s", name, harnessDoc(name))
	case analysis.IsBeeuniTool(name) && loaded:
		fmt.Fprintf(&b, "**%s** · Beeuni tool · `%s` · source `%s`\n\n%s", name, t.Kind, t.Source, beeuniToolFacts[name].does)
	case analysis.IsBeeuniTool(name):
		fmt.Fprintf(&b, "**%s** · a Beeuni tool this project does not load\n\nAn agent list cannot add it: add `%s: beeuni:%s` under the top-level `tools:` first.", name, name, name)
	case loaded:
		fmt.Fprintf(&b, "**%s** · project tool · source `%s`", name, t.Source)
		if r := hv.modules[t.Module]; r != nil && r.DescriptionKnown && r.Description != "" {
			b.WriteString("\n\n" + r.Description)
		}
	default:
		fmt.Fprintf(&b, "**%s** · unknown: neither a harness, a Beeuni nor a project tool of this project", name)
		if r.Where == refExclude {
			b.WriteString("\n\nA typo in an `exclude` list leaves the real tool enabled.")
		}
	}
	switch {
	case r.Where == refExclude:
		fmt.Fprintf(&b, "\n\nExcluded: agent `%s`'s model does not see it.", a.Name)
	case r.Where == refLegacy && !r.Enabled:
		fmt.Fprintf(&b, "\n\n`false` (legacy map form): agent `%s`'s model does not see it.", a.Name)
	case r.Where == refLegacy:
		fmt.Fprintf(&b, "\n\nKept (legacy map form) for agent `%s`.", a.Name)
	case name != "*":
		fmt.Fprintf(&b, "\n\nListed: agent `%s`'s model sees it.", a.Name)
	}
	if analysis.IsBeeuniTool(name) && r.Where != refItem {
		b.WriteString(" To remove a tool for one agent only, use its list, not the top-level `tools:` (which removes it for every agent).")
	}
	b.WriteString("\n\n" + visibilityFact)
	return b.String()
}

// modelAgent returns the resolved agent declared in this file.
func (hv *hoverer) modelAgent(name string) (analysis.Agent, bool) {
	if hv.p.Model == nil {
		return analysis.Agent{}, false
	}
	for _, a := range hv.p.Model.Agents {
		if a.Name == name && samePath(a.File, hv.path) {
			return *a, true
		}
	}
	return analysis.Agent{}, false
}

var formWords = map[analysis.AgentForm]string{
	analysis.FormAll:     "every tool (`all`, the default)",
	analysis.FormNone:    "no tool (`none`)",
	analysis.FormList:    "only the tools listed",
	analysis.FormExclude: "every tool but those excluded",
	analysis.FormLegacy:  "every tool but those set to `false` (legacy map form)",
	analysis.FormInvalid: "a value of another shape: see the error",
}

// sees lists every tool the agent's model sees.
func (hv *hoverer) sees(a *agentEntry) string {
	ma, ok := hv.modelAgent(a.Name)
	if !ok {
		return fmt.Sprintf("**Agent `%s`**: not resolved (see the diagnostics).", a.Name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Agent `%s`'s model sees %s**: %s.", a.Name, plural(ma.Sees.Len(), "tool"), formWords[ma.Form])
	var harness, beeuni, project []string
	for n := range ma.Sees.All() {
		known, _ := analysis.HarnessTool(n)
		switch {
		case known:
			harness = append(harness, n)
		case analysis.IsBeeuniTool(n):
			beeuni = append(beeuni, n)
		default:
			project = append(project, n)
		}
	}
	if ma.Sees.Len() > 0 {
		fmt.Fprintf(&b, "\n\n- harness: %s\n- Beeuni: %s\n- project: %s", codeList(harness), codeList(beeuni), codeList(project))
	}
	b.WriteString(sharedPermissionNote(ma))
	if ma.Sees.Contains("bash") {
		b.WriteString("\n\nOn the standard harness `bash` also covers the `pty_*` tools.")
	}
	if !ma.Sees.Contains("task") && ma.Form != analysis.FormNone {
		b.WriteString("\n\nWithout `task` this agent cannot delegate to subagents.")
	}
	b.WriteString("\n\n" + visibilityFact + " " + connectorFact)
	return b.String()
}

// importEntry describes an entry under imports:.
func (hv *hoverer) importEntry(e *importEntry) string {
	if f := hv.p.File(e.Target); e.Target != "" && f != nil {
		fix := indexFile(hv.p, f)
		return fmt.Sprintf("**Imported file** `%s`: declares %s and %s.", f.Rel, plural(len(fix.tools), "tool"), plural(len(fix.agents), "agent"))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Import** `%s`: not loaded", e.Path)
	for _, fd := range hv.findingsOn(e.Range) {
		fmt.Fprintf(&b, "\n\n- %s (%s)", fd.Message, fd.Code)
	}
	return b.String()
}

// countIn counts how many of names the view holds.
func countIn(v analysis.View, names ...string) int {
	n := 0
	for _, x := range names {
		if v.Contains(x) {
			n++
		}
	}
	return n
}

// sharedPermissionNote says what the standard harness does when an agent's
// list names only some of write, edit and apply_patch (one permission).
func sharedPermissionNote(a analysis.Agent) string {
	trio := []string{"write", "edit", "apply_patch"}
	switch a.Form {
	case analysis.FormList:
		if n := countIn(a.Sees, trio...); n > 0 && n < 3 {
			return "\n\nOn the standard harness `write`, `edit` and `apply_patch` share one permission: listing one shows all three, so this agent sees all three there."
		}
	case analysis.FormExclude, analysis.FormLegacy:
		hidden := false
		for _, r := range a.Refs {
			if !r.Enabled || a.Form == analysis.FormExclude {
				hidden = hidden || contains(trio, r.Name)
			}
		}
		if hidden && countIn(a.Sees, trio...) > 0 {
			return "\n\nOn the standard harness `write`, `edit` and `apply_patch` share one permission: excluding one hides all three, so this agent sees none of them there."
		}
	}
	return ""
}
