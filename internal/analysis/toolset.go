package analysis

import (
	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// declaration is one tool entry as written, valid or not.
type declaration struct {
	unit  *unit
	key   *yaml.Node
	value *yaml.Node
	name  string
	// universe is the name's index in the agents' universe (see
	// resolveAgents) when it is a tool the session gets; 0 otherwise (the
	// harness tools come first, so no tool has index 0).
	universe int
	// first is true for the name's first declaration, the one that counts.
	first bool
}

// toolSet is every tool declaration of the project and the model built
// from them: what the set checks read (rule.go), and what the tools rules
// leave for the agents rules and the harness folder rules.
type toolSet struct {
	model *Model
	// declared maps each name written under any tools: key (with a valid or
	// invalid value) to its first declaration; others holds the later ones
	// in other files (T9), only for names declared more than once.
	declared map[string]*declaration
	others   map[string][]*declaration
	// firstToolsKey is the first tools: key in load order, for T8.
	firstToolsKey *yaml.Node
	firstToolsIn  *unit
	// all lists the declarations in load order (first ones and T9's later
	// ones).
	all []*declaration
	// suggest indexes the names A1 suggests from, on first use
	// (suggestIndex).
	suggest *nameIndex
	// toolDecls[i] is the declaration of the model's Tools[i] (nil for the
	// implicit Beeuni tools).
	toolDecls []*declaration
	// findings are the set checks' findings.
	findings []diag.Finding
	// stop is the load's stopper while the set checks run: a declaration
	// a set check reads is a unit of work.
	stop *stopper
	// buffers are the storage of declared, all and toolDecls, for the
	// memo to hand to the next load once this one is over.
	buffers toolSetBuffers
}

// toolSetBuffers is the storage a toolSet is built in: the declarations,
// the map of first declarations and the lists of pointers into them.
// Nothing of a toolSet is in the Project; the memo keeps the last load's
// (keptToolSet), and a load that cannot take it whole builds its own in
// its storage, emptied, instead of 10,000 declarations and a map of 10,000
// names being allocated again on every keystroke.
type toolSetBuffers struct {
	decls     []declaration
	first     map[string]*declaration
	all       []*declaration
	toolDecls []*declaration
	outcomes  []*toolOutcome // the memo's outcomes of the first declarations (keptToolSet)
}

// takeToolSetBuffers returns empty buffers with room for n declarations:
// those of the tool set m kept (keptToolSet), cleared, when it kept one
// large enough, else new ones (m may be nil: no memo).
func (m *resolveMemo) takeToolSetBuffers(n int) toolSetBuffers {
	var b toolSetBuffers
	if m != nil && m.kept != nil {
		st := m.kept.set
		b = st.buffers
		b.toolDecls, b.outcomes = st.toolDecls, m.kept.outcomes
		clear(b.decls)
		clear(b.all)
		clear(b.toolDecls)
		clear(b.first)
		clear(b.outcomes)
		b = toolSetBuffers{decls: b.decls[:0], first: b.first, all: b.all[:0], toolDecls: b.toolDecls[:0], outcomes: b.outcomes[:0]}
		m.kept = nil
	}
	if cap(b.decls) < n {
		b.decls = make([]declaration, 0, n)
	}
	if cap(b.all) < n {
		b.all = make([]*declaration, 0, n)
	}
	if cap(b.toolDecls) < n {
		b.toolDecls = make([]*declaration, 0, n)
	}
	if b.first == nil {
		b.first = make(map[string]*declaration, n)
	}
	if m != nil && cap(b.outcomes) < n {
		b.outcomes = make([]*toolOutcome, 0, n)
	}
	return b
}

// report adds a set check's finding of rule r on node n of u.
func (s *toolSet) report(r *Rule, u *unit, n *yaml.Node, msg string, data map[string]string, related ...diag.Related) {
	s.findings = append(s.findings, r.finding(u.file.Path, u.parsed.pos.nodeRange(n), msg, data, related))
}

// resolve gathers the declarations of every loaded file from its tree
// (ManifestTree: the tools mapping's entries, merges expanded), runs the tool
// checks on each name's first declaration and the set checks on them all,
// and builds the model. A declaration, and an agent and each name it
// writes, are units of work of l.stop: once it stops, the model is
// incomplete.
func (l *loader) resolve() *Model {
	m, st := l.memo.keptToolSet(l)
	if st == nil {
		before := len(l.findings)
		var outcomes []*toolOutcome
		m, st, outcomes = l.resolveTools()
		if l.stop.stoppedErr() != nil {
			return m
		}
		l.memo.keepToolSet(l, st, l.findings[before:], outcomes)
	}
	l.tools = st
	m.Agents = l.resolveAgents(m, st)
	return m
}

// resolveTools is resolve's part for the tools: the declarations, the tool
// checks, the model's Tools and Removed, and the set checks. It returns
// the outcomes the memo gave the first declarations, too (keepToolSet).
func (l *loader) resolveTools() (*Model, *toolSet, []*toolOutcome) {
	m := &Model{}
	st := &toolSet{model: m, others: map[string][]*declaration{}}
	// The tools: mappings first, to size the declarations' buffers.
	type toolsMapping struct {
		unit  *unit
		pairs []*yaml.Node // flat: key, value, … (ManifestTree.toolPairs)
	}
	var mappings []toolsMapping
	total := 0
	for _, u := range l.units {
		t := u.parsed.tree
		if t.Tools.Key == nil {
			continue
		}
		m.ToolsKey = true
		if st.firstToolsKey == nil {
			st.firstToolsKey, st.firstToolsIn = t.Tools.Key, u
		}
		v := resolveAlias(t.Tools.Value)
		if isNull(v) {
			continue // `tools:` with every line deleted: listed nothing
		}
		if v.Kind != yaml.MappingNode {
			l.report(ruleNotString, u, v, msgToolsNotMapping(kindName(v)), nil)
			continue
		}
		mappings = append(mappings, toolsMapping{u, t.toolPairs})
		total += len(t.toolPairs) / 2
	}
	// One allocation for every declaration, reused from the last load with
	// a memo (toolSetBuffers): slab never grows, its pointers stay valid.
	buf := l.memo.takeToolSetBuffers(total)
	slab, first, all := buf.decls, buf.first, buf.all
	others := st.others
	for _, tm := range mappings {
		u := tm.unit
		for i := 0; i+1 < len(tm.pairs) && !l.stop.stopped(); i += 2 {
			k, v := tm.pairs[i], tm.pairs[i+1]
			if k.Kind != yaml.ScalarNode {
				// `? [a, b]` or an alias as a key: no name to check further.
				l.report(ruleName, u, k, msgNameNotString(kindName(k)), nil)
				continue
			}
			name := k.Value
			slab = append(slab, declaration{unit: u, key: k, value: v, name: name})
			d := &slab[len(slab)-1]
			if f, ok := first[name]; ok {
				if f.unit == u {
					continue // T10 already reported; the first one counts
				}
				if already := others[name]; len(already) > 0 && already[len(already)-1].unit == u {
					continue // twice in this other file: T10 as well
				}
				others[name] = append(others[name], d)
			} else {
				first[name] = d
				d.first = true
			}
			all = append(all, d)
		}
	}
	st.buffers = toolSetBuffers{decls: slab, first: first, all: all, toolDecls: buf.toolDecls}

	tools := sharedSlice[*Tool]{prev: l.memo.lastTools(), size: len(all) + len(beeuniTools), equal: sameTool}
	// Every name's first declaration is the one that counts.
	st.declared, st.all = first, all
	st.toolDecls = buf.toolDecls
	outcomes := buf.outcomes
	for _, d := range all {
		if l.stop.stopped() {
			return m, st, outcomes
		}
		if !d.first {
			continue // T9 reported; the first declaration counts
		}
		t, o := l.checkToolMemo(d)
		if o != nil {
			outcomes = append(outcomes, o)
		}
		if t != nil {
			tools.add(t)
			st.toolDecls = append(st.toolDecls, d)
		}
	}

	if !m.ToolsKey {
		for _, b := range beeuniTools {
			tools.add(&Tool{Name: b, Kind: KindBeeuni, Source: BeeuniPrefix + b})
		}
	}
	m.Tools = tools.result()
	l.memo.keepTools(m.Tools)
	if m.ToolsKey {
		for _, b := range beeuniTools {
			if _, ok := st.declared[b]; !ok {
				m.Removed = append(m.Removed, b)
			}
		}
	}
	if m.Removed == nil {
		m.Removed = []string{}
	}
	st.stop = &l.stop
	for _, c := range l.rules.set {
		c.check(st)
	}
	st.stop = nil // the memo keeps st: not the loader
	l.findings = append(l.findings, st.findings...)
	return m, st, outcomes
}

// checkTool runs the tool checks on one declaration, in order. It returns
// the tool the session gets, if it gets one, the findings, and whether a
// check that reads the files around the manifests ran.
func (l *loader) checkTool(d *declaration) (t Tool, ok bool, found []diag.Finding, readFiles bool) {
	e := &l.checking // one per load: checking a declaration allocates nothing
	*e = toolEntry{name: d.name, key: d.key, value: d.value, file: d.unit.file.Path, pos: d.unit.parsed.pos}
	v := carryOn
	for _, c := range l.rules.tools {
		if c.files != nil {
			readFiles = true
			v = c.files(e, l.files)
		} else {
			v = c.entry(e)
		}
		if v != carryOn {
			break
		}
	}
	return e.tool, v != drop && !e.badName, e.findings, readFiles
}

// lastTools returns the Tools of the last load through m (nil: none or no
// memo).
func (m *resolveMemo) lastTools() []*Tool {
	if m == nil {
		return nil
	}
	return m.modelTools
}

// keepTools keeps a load's Tools for the next load to share (sharedSlice).
func (m *resolveMemo) keepTools(ts []*Tool) {
	if m != nil {
		m.modelTools = ts
	}
}
