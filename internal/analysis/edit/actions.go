package edit

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// Refactors returns the actions offered at a cursor (byte offset) in one of
// the project's YAML files, with no diagnostic needed:
//   - on a `<name>: beeuni:<name>` entry: Eject <name> (or, when refused, the
//     refused action disabled with its reason and the explicit overwrite);
//   - on a Beeuni tool entry that points to a module: Return to
//     beeuni:<name> (delete <path>), when the module is still the copy eject
//     wrote and nothing else uses it, and Return to beeuni:<name> (keep the
//     file);
//   - on an agent's tools value in the legacy map form: Convert to exclude.
func Refactors(p *analysis.Project, fsys vfs.FS, file string, offset int) []*Change {
	return refactors(p, fsys, file, offset, true)
}

// RefactorsUnverified is Refactors without the check of each eject's edited
// manifest (a parse of the whole file, twice): the eject changes come
// marked Unverified, for an editor that asks for the edit only when the
// user picks the action (codeAction/resolve), where Refactors plans it
// again, checked. Every other refusal is the same.
func RefactorsUnverified(p *analysis.Project, fsys vfs.FS, file string, offset int) []*Change {
	return refactors(p, fsys, file, offset, false)
}

func refactors(p *analysis.Project, fsys vfs.FS, file string, offset int, verify bool) []*Change {
	m := prepare(p)
	y := m.file(file)
	if y == nil {
		return nil
	}
	var out []*Change
	if _, tools := toolsOf(y); tools != nil && tools.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(tools.Content); i += 2 {
			k, v := tools.Content[i], tools.Content[i+1]
			if k.Kind != yaml.ScalarNode || !analysis.IsBeeuniTool(k.Value) || v.Kind != yaml.ScalarNode {
				continue
			}
			if !y.onEntry(k, v, isFlow(tools), offset) {
				continue
			}
			if strings.HasPrefix(v.Value, analysis.BeeuniPrefix) {
				out = append(out, ejectActions(p, fsys, k.Value, verify)...)
			} else {
				out = append(out, ReturnActions(p, fsys, k.Value)...)
			}
		}
	}
	if c := m.legacyToExclude(y, offset); c != nil {
		out = append(out, c)
	}
	return out
}

// SourceActions returns the file-level actions: with no tools: key anywhere,
// an eject action for each of the five Beeuni tools the session gets.
func SourceActions(p *analysis.Project, fsys vfs.FS) []*Change {
	return sourceActions(p, fsys, true)
}

// SourceActionsUnverified is SourceActions with the ejects unchecked, as
// RefactorsUnverified.
func SourceActionsUnverified(p *analysis.Project, fsys vfs.FS) []*Change {
	return sourceActions(p, fsys, false)
}

func sourceActions(p *analysis.Project, fsys vfs.FS, verify bool) []*Change {
	m := prepare(p)
	if m.hasToolsKey() || m.unparsed() != "" {
		return nil
	}
	var out []*Change
	for _, name := range analysis.BeeuniTools() {
		for _, c := range ejectActions(p, fsys, name, verify) {
			c.Kind = KindSource
			out = append(out, c)
		}
	}
	return out
}

// onEntry reports whether offset touches an entry's key or value.
func (y *yfile) onEntry(k, v *yaml.Node, flow bool, offset int) bool {
	ks, ke, err := y.scalarSpan(k, flow)
	if err != nil {
		return false
	}
	ve := ke
	if _, e, err := y.scalarSpan(v, flow); err == nil {
		ve = e
	}
	return ks <= offset && offset <= ve
}

// legacyToExclude converts an agent's `tools: { bash: false, ... }` to
// `tools: { exclude: [bash, ...] }`, when the cursor is on that value.
func (m *manifests) legacyToExclude(y *yfile, offset int) *Change {
	_, agents, _ := mapGet(y.root, "agents")
	if agents == nil || agents.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(agents.Content); i += 2 {
		agentName, agent := agents.Content[i].Value, agents.Content[i+1]
		toolsKey, tools, _ := mapGet(agent, "tools")
		if tools == nil || tools.Kind != yaml.MappingNode || len(tools.Content) == 0 {
			continue
		}
		start := y.start(toolsKey)
		end := y.lineEnd(y.lastLine(tools, toolsKey.Column-1, isFlow(agent)))
		if offset < start || offset > end {
			continue
		}
		c, err := y.convertLegacy(agentName, tools, isFlow(agent) || isFlow(tools))
		if err != nil {
			return nil
		}
		return c
	}
	return nil
}

func (y *yfile) convertLegacy(agentName string, tools *yaml.Node, flow bool) (*Change, error) {
	var excluded []string // as written, quotes kept
	var names []any
	type span struct{ ks, ve int }
	spans := make([]span, 0, len(tools.Content)/2)
	for j := 0; j+1 < len(tools.Content); j += 2 {
		k, v := tools.Content[j], tools.Content[j+1]
		if k.Kind != yaml.ScalarNode || v.Kind != yaml.ScalarNode || v.Tag != "!!bool" || k.Value == "exclude" {
			return nil, errUnsupported
		}
		ks, ke, err := y.scalarSpan(k, flow)
		if err != nil {
			return nil, err
		}
		_, ve, err := y.scalarSpan(v, flow)
		if err != nil {
			return nil, err
		}
		if v.Value == "false" || v.Value == "False" || v.Value == "FALSE" {
			excluded = append(excluded, string(y.content[ks:ke]))
			names = append(names, k.Value)
		}
		spans = append(spans, span{ks, ve})
	}
	if names == nil {
		names = []any{}
	}
	list := "exclude: [" + strings.Join(excluded, ", ") + "]"
	var edits []TextEdit
	if flow {
		s := y.start(tools)
		closeAt, ok := y.flowClose(tools)
		if !ok {
			return nil, errUnsupported
		}
		inner := string(y.content[s:closeAt])
		if strings.Contains(inner, "#") || strings.ContainsAny(inner, "\r\n") {
			return nil, errUnsupported // comments or lines inside: keep them, do not convert
		}
		edits = []TextEdit{{File: y.path, Start: s, End: closeAt + 1, NewText: "{" + list + "}"}}
	} else {
		for i, sp := range spans {
			line := y.lineOf(sp.ks)
			if y.lineOf(sp.ve) != line || (i > 0 && y.lineOf(spans[i-1].ks) == line) {
				return nil, errUnsupported
			}
			if i == 0 {
				edits = append(edits, TextEdit{File: y.path, Start: sp.ks, End: sp.ve, NewText: list})
				continue
			}
			if cs, _, found, _ := y.commentAfter(sp.ve); found {
				// Keep the entry's comment, on a line of its own.
				edits = append(edits, TextEdit{File: y.path, Start: sp.ks, End: cs})
				continue
			}
			del := TextEdit{File: y.path, Start: y.lineStart(line), End: y.lineNext(line)}
			if del.End == len(y.content) && !endsWithBreak(y.content) {
				del.Start, del.End = y.lineEnd(line-1), y.lineEnd(line)
			}
			edits = append(edits, del)
		}
	}
	if _, err := checked(y, edits, func(doc map[string]any) bool {
		agents, ok := child(doc, "agents", false)
		if !ok {
			return false
		}
		agent, ok := child(agents, agentName, false)
		if !ok {
			return false
		}
		agent["tools"] = map[string]any{"exclude": names}
		return true
	}); err != nil {
		return nil, err
	}
	return &Change{
		Title: fmt.Sprintf("Convert the tools of agent %s to exclude: [...]", agentName),
		Kind:  KindRefactor,
		Edits: edits,
		Base:  map[string]string{y.path: y.sum()},
	}, nil
}
