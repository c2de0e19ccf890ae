package analysis

import (
	"slices"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// resolveAgents reads agents.<name>.tools in every file, checks A1-A3 and
// computes what each agent's model sees.
func (l *loader) resolveAgents(m *Model, st *toolState) []Agent {
	nHarness := len(certainHarnessTools) + len(opencodeHarnessTools)
	universe, setEpoch := l.agentUniverse(m, st)
	// index returns a name's position in the universe, without a map of
	// every name: the declarations carry their position.
	index := func(name string) (int, bool) {
		if i := harnessIndex(name); i >= 0 {
			return i, true
		}
		if d := st.declared[name]; d != nil {
			return d.universe, d.universe > 0
		}
		if !m.ToolsKey {
			if b := beeuniIndex(name); b >= 0 {
				return nHarness + b, true // the implicit Beeuni tools
			}
		}
		return 0, false
	}
	var agents []Agent
	memo := map[string][]string{}
	for _, u := range l.units {
		_, raw := topValue(u.parsed, "agents", l.budget)
		if v := resolveAlias(raw); v == nil || v.Kind != yaml.MappingNode {
			continue // not ours to judge (SPEC section 1)
		}
		pairs := mapPairs(raw, l.budget)
		agents = slices.Grow(agents, len(pairs))
		seen := make(map[string]bool, len(pairs))
		for _, kv := range pairs {
			if kv.k.Kind != yaml.ScalarNode || seen[kv.k.Value] {
				continue
			}
			seen[kv.k.Value] = true
			a, o := l.agentShapeMemo(u, kv)
			if o != nil && o.dep != nil && o.dep.setEpoch == setEpoch {
				// The same agent against the same tool set: the same A1,
				// A2 and view (findings rebased with the shape's).
				l.memo.hits++
				l.findings = append(l.findings, o.dep.findings...)
				a.Sees = o.dep.sees
				agents = append(agents, a)
				continue
			}
			before, budget := len(l.findings), l.budget.left
			for _, r := range a.Refs {
				l.checkAgentRef(u, &a, r, m, st)
			}
			a.Sees = sees(&a, universe, index, memo)
			if found := l.findings[before:]; o != nil && setEpoch != 0 && keepable(budget, l.budget.left, found) {
				o.dep = &agentDeps{setEpoch: setEpoch, findings: slices.Clone(found), sees: a.Sees}
			}
			agents = append(agents, a)
		}
	}
	return agents
}

// agentUniverse returns every tool an agent's model can see, in order (the
// harness tools, then the session's tools), and gives each declaration of a
// tool its index in it. With a memo, a tool set the same as the last load's
// (the same names declared in the same order, the same ones loaded) gives
// the last load's universe and set number, so that agents unchanged since
// keep their A1, A2 and view; setEpoch is 0 without a memo.
func (l *loader) agentUniverse(m *Model, st *toolState) (universe []string, setEpoch uint64) {
	nHarness := len(certainHarnessTools) + len(opencodeHarnessTools)
	var prev *agentToolSet
	if l.memo != nil {
		prev = l.memo.toolSet
	}
	same := prev != nil && prev.toolsKey == m.ToolsKey
	k := nHarness
	for i, t := range m.Tools {
		if known, _ := HarnessTool(t.Name); !known {
			if i < len(st.toolDecls) {
				st.toolDecls[i].universe = k
			}
			if same && (k >= len(prev.universe) || prev.universe[k] != t.Name) {
				same = false
			}
			k++
		}
	}
	if same && k == len(prev.universe) {
		// The declared names (valid or not) decide A1 and its suggestions.
		j := 0
		for _, d := range st.all {
			if !d.first {
				continue
			}
			if j >= len(prev.declared) || prev.declared[j] != d.name {
				same = false
				break
			}
			j++
		}
		if same && j == len(prev.declared) {
			return prev.universe, prev.epoch
		}
	}
	universe = make([]string, 0, k)
	universe = append(universe, certainHarnessTools[:]...)
	universe = append(universe, opencodeHarnessTools[:]...)
	for _, t := range m.Tools {
		if known, _ := HarnessTool(t.Name); !known {
			universe = append(universe, t.Name)
		}
	}
	universe = universe[:len(universe):len(universe)] // agents share it: no appends into it
	if l.memo == nil {
		return universe, 0
	}
	l.memo.setEpochs++
	l.memo.toolSet = &agentToolSet{
		toolsKey: m.ToolsKey, universe: universe, declared: st.order(), epoch: l.memo.setEpochs,
	}
	return universe, l.memo.setEpochs
}

// agentShape reads one entry of agents: (its name, and its tools value's
// form and names, with A3 on a wrong shape). The names are checked against
// the tool set by the caller (A1, A2).
func (l *loader) agentShape(u *unit, kv pair) Agent {
	a := Agent{Name: kv.k.Value, File: u.file.Path, Key: u.parsed.pos.nodeRange(kv.k), Form: FormAll}
	if body := resolveAlias(kv.v); body != nil && body.Kind == yaml.MappingNode {
		tools := false // the first tools: counts (T10 reports a second)
		for _, f := range mapPairs(kv.v, l.budget) {
			if f.k.Kind == yaml.ScalarNode && f.k.Value == "tools" && !tools {
				tools = true
				a.ToolsKey = u.parsed.pos.nodeRange(f.k)
				a.ToolsValue = u.parsed.pos.nodeRange(f.v)
				l.agentTools(u, &a, f.v)
			}
			if f.k.Kind == yaml.ScalarNode && f.k.Value == "secrets" && a.Secrets.Form == SecretsAbsent {
				a.Secrets = readSecrets(f.v)
			}
		}
	}
	return a
}

// agentTools reads one agent's tools value into a (A3 on a wrong shape).
func (l *loader) agentTools(u *unit, a *Agent, raw *yaml.Node) {
	v := resolveAlias(raw)
	shape := func(n *yaml.Node, msg string) {
		if n == nil {
			n = raw
		}
		l.add(u, n, diag.Error, CodeAgentShape, msg, map[string]string{"agent": a.Name})
	}
	ref := func(n *yaml.Node, enabled bool) {
		a.Refs = append(a.Refs, AgentToolRef{Name: n.Value, Range: u.parsed.pos.nodeRange(n), Enabled: enabled})
	}
	switch {
	case v == nil:
		a.Form = FormInvalid
		shape(raw, msgAgentToolsShape(a.Name, "an alias that resolves to nothing"))
		return
	case isNull(v):
		a.Form = FormAll // `tools:` with nothing: as if omitted
	case v.Kind == yaml.ScalarNode:
		switch {
		case v.Tag == "!!str" && v.Value == agentAll:
			a.Form = FormAll
		case v.Tag == "!!str" && v.Value == agentNone:
			a.Form = FormNone
		default:
			a.Form = FormInvalid
			shape(v, msgAgentToolsShape(a.Name, kindName(v)))
		}
	case v.Kind == yaml.SequenceNode:
		a.Form = FormList
		if len(v.Content) > 0 {
			a.Refs = make([]AgentToolRef, 0, len(v.Content))
		}
		for _, it := range v.Content {
			it := resolveAlias(it)
			if !isString(it) {
				if it == nil {
					continue
				}
				shape(it, msgAgentListItem(kindName(it)))
				continue
			}
			if it.Value == agentStar {
				a.Form = FormAll
			}
			ref(it, true)
		}
	case v.Kind == yaml.MappingNode:
		pairs := mapPairs(raw, l.budget)
		var exclude *pair
		for i := range pairs {
			if pairs[i].k.Kind == yaml.ScalarNode && pairs[i].k.Value == agentExclude {
				exclude = &pairs[i]
				break
			}
		}
		if exclude != nil {
			a.Form = FormExclude
			for _, p := range pairs {
				if p.k != exclude.k {
					a.Form = FormInvalid
					shape(p.k, msgAgentExcludeExtra(p.k.Value))
				}
			}
			list := resolveAlias(exclude.v)
			switch {
			case isNull(list):
				// `exclude:` with nothing: excludes nothing
			case list == nil || list.Kind != yaml.SequenceNode:
				a.Form = FormInvalid
				shape(list, msgAgentExcludeShape(kindOrAlias(list)))
			default:
				if len(list.Content) > 0 {
					a.Refs = make([]AgentToolRef, 0, len(list.Content))
				}
				for _, it := range list.Content {
					it := resolveAlias(it)
					if !isString(it) {
						if it != nil {
							shape(it, msgAgentListItem(kindName(it)))
						}
						continue
					}
					ref(it, true)
				}
			}
		} else {
			a.Form = FormLegacy
			if len(pairs) > 0 {
				a.Refs = make([]AgentToolRef, 0, len(pairs))
			}
			for _, p := range pairs {
				val := resolveAlias(p.v)
				if p.k.Kind != yaml.ScalarNode {
					a.Form = FormInvalid
					shape(p.k, msgAgentToolsShape(a.Name, "a mapping with "+kindName(p.k)+" as a key"))
					continue
				}
				if val == nil || val.Kind != yaml.ScalarNode || val.Tag != "!!bool" {
					a.Form = FormInvalid
					shape(val, msgAgentLegacyValue(p.k.Value, kindOrAlias(val)))
					continue
				}
				ref(p.k, isTrue(val.Value))
			}
		}
	default:
		a.Form = FormInvalid
		shape(v, msgAgentToolsShape(a.Name, kindName(v)))
	}
}

func kindOrAlias(n *yaml.Node) string {
	if n == nil {
		return "an alias that resolves to nothing"
	}
	return kindName(n)
}

func isTrue(s string) bool {
	switch s {
	case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "y", "Y":
		return true
	}
	return false
}

// checkAgentRef reports a name that is no tool (A1) or a Beeuni tool the
// project does not load (A2).
func (l *loader) checkAgentRef(u *unit, a *Agent, r AgentToolRef, m *Model, st *toolState) {
	name := r.Name
	if name == agentStar {
		return
	}
	if known, _ := HarnessTool(name); known {
		return
	}
	if IsBeeuniTool(name) {
		if !m.ToolsKey {
			return
		}
		if _, ok := st.declared[name]; ok {
			return
		}
		l.findings = append(l.findings, diag.Finding{
			File: u.file.Path, Range: r.Range, Severity: diag.Warning, Code: CodeNotLoaded,
			Message: msgNotLoaded(name), Data: map[string]string{DataName: name},
		})
		return
	}
	if _, ok := st.declared[name]; ok {
		return
	}
	suggest := closestTool(name, st)
	data := map[string]string{DataName: name}
	if suggest != "" {
		data[DataSuggest] = suggest
	}
	l.findings = append(l.findings, diag.Finding{
		File: u.file.Path, Range: r.Range, Severity: diag.Warning, Code: CodeUnknownTool,
		Message: msgUnknownTool(name, suggest, a.Form == FormExclude), Data: data,
	})
}

// closestTool returns the real tool name nearest to name by edit distance,
// within suggestMaxDistance, or "". Harness tools come first, then Beeuni
// tools, then project tools in declaration order; the first of equals wins.
// The names are indexed once per load, on the first suggestion.
func closestTool(name string, st *toolState) string {
	if st.suggest == nil {
		names := append(append(HarnessTools(), beeuniTools[:]...), st.order()...)
		st.suggest = newNameIndex(names)
	}
	best, _ := st.suggest.closest(name, suggestMaxDistance(name))
	return best
}

// order returns the declared names in declaration order.
func (st *toolState) order() []string {
	if st.names == nil {
		st.names = make([]string, 0, len(st.all))
		for _, d := range st.all {
			if d.first {
				st.names = append(st.names, d.name)
			}
		}
	}
	return st.names
}

// sees computes the tools an agent's model sees from its form.
func sees(a *Agent, universe []string, index func(string) (int, bool), memo map[string][]string) (out []string) {
	switch a.Form {
	case FormAll:
		return universe
	case FormNone:
		return []string{}
	case FormInvalid:
		return nil
	case FormList:
		idx := make([]int, 0, len(a.Refs))
		for _, r := range a.Refs {
			if i, ok := index(r.Name); ok {
				idx = append(idx, i)
			}
		}
		slices.Sort(idx)
		idx = slices.Compact(idx)
		out := make([]string, len(idx))
		for k, i := range idx {
			out[k] = universe[i]
		}
		return out
	}
	// exclude and legacy: the universe minus the names removed. Copy the
	// runs between removed entries (fast even for 10,000 tools); share the
	// universe itself when nothing in it is removed.
	var removed []int
	for _, r := range a.Refs {
		if a.Form == FormLegacy && r.Enabled {
			continue
		}
		if r.Name == agentStar {
			return []string{}
		}
		if i, ok := index(r.Name); ok {
			removed = append(removed, i)
		}
	}
	if len(removed) == 0 {
		return universe
	}
	slices.Sort(removed)
	removed = slices.Compact(removed)
	// Agents that remove the same tools share one slice.
	var buf [64]byte
	keyBytes := buf[:0]
	for _, i := range removed {
		keyBytes = strconv.AppendInt(append(keyBytes, ' '), int64(i), 10)
	}
	if shared, ok := memo[string(keyBytes)]; ok {
		return shared
	}
	key := string(keyBytes)
	defer func() { memo[key] = out }()
	out = make([]string, 0, len(universe)-len(removed))
	prev := 0
	for _, i := range removed {
		out = append(out, universe[prev:i]...)
		prev = i + 1
	}
	out = append(out, universe[prev:]...)
	return out
}
