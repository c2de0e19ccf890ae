package analysis

import (
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// A keystroke that is not in a tools: mapping (a comment, an agent, text
// at the end of the file) leaves every tool declaration the same nodes:
// the chunked parse shares the nodes of the chunks it did not parse again.
// What the tools part of a load gives (resolveTools: the declarations, the
// tool checks' outcomes, the model's Tools and Removed, the set checks'
// findings) reads those nodes, the files around them (until
// Cache.FilesChanged) and nothing else, so the memo keeps the last load's
// tool set whole, and a load whose files hold the same tools: keys, values
// and entries, node for node, takes it instead of walking 10,000
// declarations through two maps. Only what the load itself owns is
// brought to it: the declarations' units, and the findings' offsets when a
// file was parsed again (its lines, where the nodes are, are the same
// bytes).

// keptToolSet is a load's tool set as the memo keeps it for the next load.
type keptToolSet struct {
	set   *toolSet
	units []keptUnit
	// findings are what resolveTools reported, offsets in the units'
	// parses: owned by the memo.
	findings []diag.Finding
	// outcomes are the memo's outcomes of the set's first declarations: a
	// load that takes the set uses them (prune keeps them).
	outcomes []*toolOutcome
}

// keptUnit is what the tools part read of one file of the load.
type keptUnit struct {
	unit                 *unit
	parse                uint64 // the parse the findings' offsets are in
	toolsKey, toolsValue *yaml.Node
	pairs                []*yaml.Node // the tree's toolPairs
}

// keepToolSet keeps the tool set st that l built, with what building it
// reported (found) and the outcomes it used, for the next load.
func (m *resolveMemo) keepToolSet(l *loader, st *toolSet, found []diag.Finding, outcomes []*toolOutcome) {
	if m == nil {
		return
	}
	k := &keptToolSet{set: st, findings: slices.Clone(found), outcomes: outcomes, units: make([]keptUnit, len(l.units))}
	for i, u := range l.units {
		t := u.parsed.tree
		k.units[i] = keptUnit{unit: u, parse: u.parsed.id, toolsKey: t.Tools.Key, toolsValue: t.Tools.Value, pairs: t.toolPairs}
	}
	m.kept = k
}

// keptToolSet returns the kept tool set, brought to l, and a new model with
// its tools, when l's files declare the tools with the same nodes as the
// load that built it; nil otherwise.
func (m *resolveMemo) keptToolSet(l *loader) (*Model, *toolSet) {
	if m == nil || m.kept == nil || len(m.kept.units) != len(l.units) {
		return nil, nil
	}
	k := m.kept
	for i, u := range l.units {
		ku, t := &k.units[i], u.parsed.tree
		if ku.unit.file.Path != u.file.Path || ku.toolsKey != t.Tools.Key || !sameToolsValue(ku.toolsValue, t.Tools.Value) || !slices.Equal(ku.pairs, t.toolPairs) {
			return nil, nil
		}
	}
	reparsed := false
	for i, u := range l.units {
		reparsed = reparsed || k.units[i].parse != u.parsed.id
	}
	if reparsed {
		rebaseInFiles(k.findings, l.units)
	}
	st := k.set
	// The declarations point at the units of the load that built the set.
	var from, to *unit
	for i := range st.buffers.decls {
		d := &st.buffers.decls[i]
		if d.unit != from {
			from, to = d.unit, nil
			for j := range k.units {
				if k.units[j].unit == from {
					to = l.units[j]
				}
			}
		}
		d.unit = to
	}
	for j := range k.units {
		if k.units[j].unit == st.firstToolsIn {
			st.firstToolsIn = l.units[j]
		}
		k.units[j].unit, k.units[j].parse = l.units[j], l.units[j].parsed.id
	}
	for _, o := range k.outcomes {
		o.load = m.load
	}
	m.used += len(k.outcomes)
	m.hits += len(k.outcomes)
	l.findings = append(l.findings, k.findings...)
	prev := st.model
	st.model = &Model{ToolsKey: prev.ToolsKey, Tools: prev.Tools, Removed: prev.Removed}
	return st.model, st
}

// sameToolsValue reports whether two tools: values give the same
// declarations, their entries (ManifestTree.toolPairs) being the same
// nodes: the same node, or two mappings (the chunked parse assembles a
// large mapping anew from its chunks' entries; a merge or an alias, which
// the entries could depend on otherwise, makes the parse whole, every node
// new).
func sameToolsValue(a, b *yaml.Node) bool {
	return a == b || a != nil && b != nil && a.Kind == yaml.MappingNode && b.Kind == yaml.MappingNode
}

// rebaseInFiles recomputes the offsets of fs's ranges, related ones
// included, from the lines of the units their files are (a finding of the
// tools part points into loaded files only).
func rebaseInFiles(fs []diag.Finding, units []*unit) {
	lines := func(path string) *diag.Lines {
		for _, u := range units {
			if u.file.Path == path {
				return u.parsed.lines
			}
		}
		return nil
	}
	for i := range fs {
		if ls := lines(fs[i].File); ls != nil {
			fs[i].Range = rebase(fs[i].Range, ls)
		}
		if len(fs[i].Related) > 0 {
			related := slices.Clone(fs[i].Related)
			for j := range related {
				if ls := lines(related[j].File); ls != nil {
					related[j].Range = rebase(related[j].Range, ls)
				}
			}
			fs[i].Related = related
		}
	}
}
