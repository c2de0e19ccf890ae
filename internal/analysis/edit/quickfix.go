package edit

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// QuickFixer plans the quick fixes of findings of one loaded project, for
// one request that may ask for many (the code actions of a selection). It
// does the costly work once per action, not once per finding: the
// project's files are prepared once, a title offered is not checked again
// (the request offers one action per title), and the verification loads
// each distinct change once, sharing its parses between loads (verifier).
// It stops at the first sign of its context ending. Not safe for
// concurrent use.
type QuickFixer struct {
	p      *analysis.Project
	m      *manifests // p prepared, on the first finding that has fixes
	fsys   vfs.FS
	verify *verifier
	// offered holds the titles of the fixes offered so far.
	offered map[string]bool
}

// NewQuickFixer returns a planner of the quick fixes of p's findings, p as
// loaded from fsys.
func NewQuickFixer(p *analysis.Project, fsys vfs.FS) *QuickFixer {
	return &QuickFixer{p: p, fsys: fsys, verify: newVerifier(p, fsys), offered: map[string]bool{}}
}

// QuickFixes returns the fixes of one finding (NewQuickFixer, Fixes).
func QuickFixes(ctx context.Context, p *analysis.Project, fsys vfs.FS, f diag.Finding) ([]*Change, error) {
	return NewQuickFixer(p, fsys).Fixes(ctx, f)
}

// Fixes returns the fixes of one finding, the obvious one first and
// marked Preferred. Each fix is checked before it is offered: its edited
// files parse and mean what the fix intends (checked), and applied over
// fsys, the project loads with the fixed finding gone and no new finding
// (Verify). A finding with no clear fix gets none. Which fixes a finding
// offers is its rule's (analysis.Rule.Fixes, in the rule's file); this
// file makes the edits of each kind.
//
// A fix whose title q offered already (for another finding: the same
// misspelt name in two agents gets "Replace x with y" twice) is left out
// unchecked, and holds its place: the fix after it is not Preferred. A
// refused title is checked again for another finding: its edits differ
// (a name replaced in a list may be fine where the same replacement in a
// map repeats a key). The error is ctx's, once it ends: nothing more is
// planned or loaded.
func (q *QuickFixer) Fixes(ctx context.Context, f diag.Finding) ([]*Change, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rule, ok := analysis.RuleOf(f.Code)
	if !ok || len(rule.Fixes) == 0 {
		return nil, nil
	}
	if q.m == nil {
		q.m = prepare(q.p)
	}
	var out []*Change
	placed := false // the finding's obvious fix is offered, here or before
	for _, kind := range rule.Fixes {
		fix := fixer(kind)
		if fix == nil {
			continue
		}
		c, check := fix(q.m, q.fsys, f)
		if c == nil {
			continue
		}
		if q.offered[c.Title] {
			placed = true
			continue
		}
		fixed := f
		c.Fixes = &fixed
		c.Kind = KindQuickFix
		err := ctx.Err()
		if err == nil && check != nil {
			err = check()
		}
		if err == nil {
			err = q.verify.check(ctx, c)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			continue
		}
		c.Preferred = !placed
		placed = true
		q.offered[c.Title] = true
		out = append(out, c)
	}
	return out, nil
}

// fixPlanner plans a fix of one kind for a finding: the change (nil when
// the finding has no such fix) and check, which applies the change's edits
// to each file and checks the result (checked), or nil when there is
// nothing to check. check is the costly part of planning (a parse of the
// edited chunks): only a fix that may be offered runs it.
type fixPlanner func(m *manifests, fsys vfs.FS, f diag.Finding) (c *Change, check func() error)

// fixer returns the planner of a fix of that kind, or nil for a kind this
// package does not know (a test checks every rule's kinds).
func fixer(kind analysis.FixKind) fixPlanner {
	switch kind {
	case analysis.FixSetBeeuniValue:
		return (*manifests).fixBeeuniValue
	case analysis.FixAddBeeuniTools:
		return (*manifests).fixNoBeeuni
	case analysis.FixAddToTools:
		return (*manifests).fixAddToTools
	case analysis.FixRemoveFromAgent:
		return (*manifests).fixRemoveFromAgent
	case analysis.FixReplaceName:
		return (*manifests).fixReplaceName
	case analysis.FixRenameTool:
		return (*manifests).fixRename
	case analysis.FixCreateModule:
		return (*manifests).fixCreateModule
	case analysis.FixDeleteCopy:
		return (*manifests).fixDeleteCopy
	}
	return nil
}

// checkOf is the check of edits in one file: they apply, and the result
// parses and means what intend makes of the original (checked).
func checkOf(y *yfile, edits []TextEdit, intend func(doc map[string]any) bool) func() error {
	return func() error {
		_, err := checked(y, edits, intend)
		return err
	}
}

// fileOf returns the prepared file a finding is in.
func (m *manifests) fileOf(f diag.Finding) *yfile { return m.file(f.File) }

// fixBeeuniValue (T3) sets `<key>: beeuni:<key>`.
func (m *manifests) fixBeeuniValue(_ vfs.FS, f diag.Finding) (*Change, func() error) {
	key := f.Data[analysis.DataKey]
	if !analysis.IsBeeuniTool(key) {
		return nil, nil
	}
	y := m.fileOf(f)
	n, parents := y.nodeAt(f.Range.Start.Offset)
	if n == nil || len(parents) == 0 {
		return nil, nil
	}
	tools := parents[len(parents)-1]
	s, e, err := y.scalarSpan(n, isFlow(tools))
	if err != nil || s == e {
		return nil, nil
	}
	value := analysis.BeeuniPrefix + key
	edits := []TextEdit{{File: y.path, Start: s, End: e, NewText: requote(n, value)}}
	c := &Change{Title: "Set to " + value, Edits: edits, Base: map[string]string{y.path: y.sum()}}
	return c, checkOf(y, edits, func(doc map[string]any) bool {
		t, ok := child(doc, "tools", false)
		if ok {
			t[key] = value
		}
		return ok
	})
}

// fixNoBeeuni (T8) adds the five Beeuni tools to the tools: mapping the
// finding is on.
func (m *manifests) fixNoBeeuni(_ vfs.FS, f diag.Finding) (*Change, func() error) {
	y := m.fileOf(f)
	key, tools := toolsOf(y)
	if key == nil {
		y, key, tools = m.toolsTarget()
		if key == nil {
			return nil, nil
		}
	}
	var entries []entry
	for _, n := range analysis.BeeuniTools() {
		if len(m.decls(n)) == 0 {
			entries = append(entries, entry{key: n, value: analysis.BeeuniPrefix + n})
		}
	}
	if len(entries) == 0 {
		return nil, nil
	}
	edits, err := y.addEntries(tools, key, entries)
	if err != nil {
		return nil, nil
	}
	title := "Add the five Beeuni tools"
	if len(entries) < 5 {
		title = fmt.Sprintf("Add the Beeuni tools (%s)", entryNames(entries))
	}
	return &Change{Title: title, Edits: edits, Base: map[string]string{y.path: y.sum()}}, checkOf(y, edits, addIntent(entries))
}

func addIntent(entries []entry) func(map[string]any) bool {
	return func(doc map[string]any) bool {
		t, ok := child(doc, "tools", true)
		if !ok {
			return false
		}
		for _, e := range entries {
			if _, had := t[e.key]; had {
				return false
			}
			t[e.key] = e.value
		}
		return true
	}
}

func entryNames(entries []entry) string {
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.key
	}
	return strings.Join(names, ", ")
}

// fixAddToTools (A2) adds `<name>: beeuni:<name>` under the top-level tools.
func (m *manifests) fixAddToTools(_ vfs.FS, f diag.Finding) (*Change, func() error) {
	name := f.Data[analysis.DataName]
	if !analysis.IsBeeuniTool(name) || len(m.decls(name)) > 0 {
		return nil, nil
	}
	y, key, tools := m.toolsTarget()
	if y == nil {
		return nil, nil
	}
	entries := []entry{{key: name, value: analysis.BeeuniPrefix + name}}
	edits, err := y.addEntries(tools, key, entries)
	if err != nil {
		return nil, nil
	}
	c := &Change{
		Title: fmt.Sprintf("Add `%s: beeuni:%s` under tools: in %s", name, name, m.p.Rel(y.path)),
		Edits: edits,
		Base:  map[string]string{y.path: y.sum()},
	}
	return c, checkOf(y, edits, addIntent(entries))
}

// agentList finds the agent tools list a finding's name is in: the list
// item node, its sequence, the key the sequence is the value of, and the
// path of keys from the top (agents, <agent>, tools[, exclude]).
func (y *yfile) agentListItem(offset int) (item, seq, key *yaml.Node, keys []string, ok bool) {
	n, parents := y.nodeAt(offset)
	if n == nil || len(parents) < 2 {
		return nil, nil, nil, nil, false
	}
	seq = parents[len(parents)-1]
	if seq.Kind != yaml.SequenceNode {
		return nil, nil, nil, nil, false
	}
	// Collect the mapping keys on the way down.
	for i := 0; i+1 < len(parents); i++ {
		p, c := parents[i], parents[i+1]
		if p.Kind != yaml.MappingNode {
			continue
		}
		for j := 0; j+1 < len(p.Content); j += 2 {
			if p.Content[j+1] == c {
				keys = append(keys, p.Content[j].Value)
				if c == seq {
					key = p.Content[j]
				}
			}
		}
	}
	if len(keys) < 3 || keys[0] != "agents" || keys[2] != "tools" || key == nil {
		return nil, nil, nil, nil, false
	}
	return n, seq, key, keys, true
}

// fixRemoveFromAgent (A2) removes the name from the agent's list.
func (m *manifests) fixRemoveFromAgent(_ vfs.FS, f diag.Finding) (*Change, func() error) {
	name := f.Data[analysis.DataName]
	y := m.fileOf(f)
	item, seq, key, keys, ok := y.agentListItem(f.Range.Start.Offset)
	if !ok || item.Value != name {
		return nil, nil
	}
	idx := -1
	for i, c := range seq.Content {
		if c == item {
			idx = i
		}
	}
	edits, err := y.removeSeqItem(key, seq, idx)
	if err != nil {
		return nil, nil
	}
	c := &Change{
		Title: fmt.Sprintf("Remove %s from the tools of agent %s", name, keys[1]),
		Edits: edits,
		Base:  map[string]string{y.path: y.sum()},
	}
	return c, checkOf(y, edits, func(doc map[string]any) bool {
		cur := doc
		for _, k := range keys[:len(keys)-1] {
			next, ok := child(cur, k, false)
			if !ok {
				return false
			}
			cur = next
		}
		last := keys[len(keys)-1]
		list, ok := cur[last].([]any)
		if !ok || idx >= len(list) {
			return false
		}
		cur[last] = append(append([]any{}, list[:idx]...), list[idx+1:]...)
		return true
	})
}

// fixReplaceName (A1) replaces a misspelt name with the close real one.
func (m *manifests) fixReplaceName(_ vfs.FS, f diag.Finding) (*Change, func() error) {
	suggest := f.Data[analysis.DataSuggest]
	if suggest == "" || !analysis.ValidToolName(suggest) {
		return nil, nil
	}
	y := m.fileOf(f)
	n, parents := y.nodeAt(f.Range.Start.Offset)
	if n == nil || len(parents) == 0 {
		return nil, nil
	}
	flow := false
	for _, p := range parents {
		flow = flow || (p.Kind != yaml.DocumentNode && isFlow(p))
	}
	s, e, err := y.scalarSpan(n, flow)
	if err != nil || s == e {
		return nil, nil
	}
	edits := []TextEdit{{File: y.path, Start: s, End: e, NewText: requote(n, suggest)}}
	c := &Change{
		Title: fmt.Sprintf("Replace %s with %s", n.Value, suggest),
		Edits: edits,
		Base:  map[string]string{y.path: y.sum()},
	}
	return c, checkOf(y, edits, nil)
}

// fixRename (T1) renames a tool to its snake_case name, with every agent
// list that names it.
func (m *manifests) fixRename(_ vfs.FS, f diag.Finding) (*Change, func() error) {
	name, suggest := f.Data[analysis.DataName], f.Data[analysis.DataSuggest]
	if suggest == "" || !analysis.ValidToolName(suggest) || len(m.decls(suggest)) > 0 {
		return nil, nil
	}
	ds := m.decls(name)
	if len(ds) != 1 || ds[0].unmerged("rename") != nil {
		return nil, nil
	}
	c := &Change{Title: "Rename to " + suggest, Base: map[string]string{}}
	byFile := map[*yfile][]TextEdit{}
	d := ds[0]
	s, e, err := d.file.scalarSpan(d.key, isFlow(d.tools))
	if err != nil || s == e {
		return nil, nil
	}
	byFile[d.file] = append(byFile[d.file], TextEdit{File: d.file.path, Start: s, End: e, NewText: requote(d.key, suggest)})
	for _, y := range m.files {
		for _, ref := range agentRefs(y, name) {
			s, e, err := y.scalarSpan(ref.node, ref.flow)
			if err != nil || s == e {
				return nil, nil
			}
			byFile[y] = append(byFile[y], TextEdit{File: y.path, Start: s, End: e, NewText: requote(ref.node, suggest)})
		}
	}
	var checks []func() error
	for _, y := range m.files {
		edits := byFile[y]
		if len(edits) == 0 {
			continue
		}
		checks = append(checks, checkOf(y, edits, nil))
		c.Edits = append(c.Edits, edits...)
		c.Base[y.path] = y.sum()
	}
	return c, func() error {
		for _, check := range checks {
			if err := check(); err != nil {
				return err
			}
		}
		return nil
	}
}

type agentRef struct {
	node *yaml.Node
	flow bool
}

// agentRefs returns the scalars naming a tool in a file's agents' tools
// values (list items, exclude items, legacy map keys).
func agentRefs(y *yfile, name string) []agentRef {
	if y == nil {
		return nil
	}
	_, agents, _ := mapGet(y.root, "agents")
	if agents == nil || agents.Kind != yaml.MappingNode {
		return nil
	}
	var out []agentRef
	for i := 1; i < len(agents.Content); i += 2 {
		_, tools, _ := mapGet(agents.Content[i], "tools")
		if tools == nil {
			continue
		}
		flow := isFlow(agents.Content[i])
		var items []*yaml.Node
		switch tools.Kind {
		case yaml.SequenceNode:
			items = tools.Content
		case yaml.MappingNode:
			flow = flow || isFlow(tools)
			if _, ex, _ := mapGet(tools, "exclude"); ex != nil && ex.Kind == yaml.SequenceNode {
				items = ex.Content
				flow = flow || isFlow(ex)
			} else {
				for j := 0; j+1 < len(tools.Content); j += 2 {
					items = append(items, tools.Content[j])
				}
			}
		}
		if tools.Kind == yaml.SequenceNode {
			flow = flow || isFlow(tools)
		}
		for _, it := range items {
			if it.Kind == yaml.ScalarNode && it.Value == name {
				out = append(out, agentRef{node: it, flow: flow})
			}
		}
	}
	return out
}

// fixCreateModule (T6) creates the missing module from a template that
// loads.
func (m *manifests) fixCreateModule(fsys vfs.FS, f diag.Finding) (*Change, func() error) {
	name, written := f.Data[analysis.DataName], f.Data[analysis.DataPath]
	abs := repoPath(m.p.Root, written)
	if abs == "" || !analysis.HasModuleExtension(written) || !analysis.ValidToolName(name) {
		return nil, nil
	}
	if _, err := fsys.Stat(abs); err == nil {
		return nil, nil
	}
	if _, err := fsys.EvalSymlinks(abs); err == nil {
		return nil, nil // a dangling link
	}
	return &Change{
		Title:  "Create " + path.Clean(written) + " from a template",
		Create: []NewFile{{Path: abs, Content: ModuleTemplate(name, path.Ext(written))}},
		Show:   abs,
	}, nil
}

// fixDeleteCopy (H1) deletes a Beeuni tool's copy under
// harnesses/opencode/tools/.
func (m *manifests) fixDeleteCopy(_ vfs.FS, f diag.Finding) (*Change, func() error) {
	name, rel := f.Data[analysis.DataName], f.Data[analysis.DataPath]
	if !analysis.IsBeeuniTool(name) || !strings.HasPrefix(rel, analysis.HarnessToolsDir+"/") {
		return nil, nil
	}
	abs := repoPath(m.p.Root, rel)
	if abs == "" || filepath.Dir(abs) != filepath.Join(m.p.Root, filepath.FromSlash(analysis.HarnessToolsDir)) {
		return nil, nil
	}
	return &Change{Title: fmt.Sprintf("Delete %s (a copy of the Beeuni tool %s)", rel, name), Delete: []string{abs}}, nil
}

// ModuleTemplate is the source of a new project tool module: a plain object
// with a JSON Schema, which loads as is (CommonJS for .cjs and .cts).
func ModuleTemplate(name, ext string) []byte {
	body := fmt.Sprintf(`{
  description: 'Say what %[1]s does and when the model should call it.',
  parameters: {
    type: 'object',
    properties: {
      input: { type: 'string', description: 'What %[1]s works on.' },
    },
    required: ['input'],
  },
  async execute(args, context) {
    // Read secrets from context.env and pass context.signal to fetch.
    // Throw an Error whose message says what to change.
    return { input: args.input }
  },
}
`, name)
	header := fmt.Sprintf("// %s: a project tool. The model reads description and parameters;\n// execute(args, context) returns a string or any JSON value.\n", name)
	if ext == ".cjs" || ext == ".cts" {
		return []byte(header + "module.exports = " + body)
	}
	return []byte(header + "export default " + body)
}
