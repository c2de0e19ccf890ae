package analysis

import (
	"slices"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// resolveAgents reads the agents of every file's tree, checks A1-A3 and
// computes what each agent's model sees.
func (l *loader) resolveAgents(m *Model, st *toolSet) []*Agent {
	nHarness := len(certainHarnessTools) + len(opencodeHarnessTools)
	universe, set := l.agentUniverse(m, st)
	if l.stop.stoppedErr() != nil {
		return nil
	}
	setEpoch := set.number()
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
	n := 0
	for _, u := range l.units {
		n += len(u.parsed.tree.agents) // none when agents: is not a mapping: not ours to judge (SPEC section 1)
	}
	agents := sharedSlice[*Agent]{prev: l.memo.lastAgents(), size: n, equal: sameAgent}
	for _, u := range l.units {
		for _, d := range u.parsed.tree.agents {
			if l.stop.stopped() {
				return nil
			}
			a, o := l.readAgentMemo(u, d)
			if o != nil && o.dep != nil && (o.dep.setEpoch == setEpoch || set.carries(o.dep, &a)) {
				// The same agent against the same tool set, or one whose
				// names the change of tool set did not touch: the same A1,
				// A2 (findings rebased with the shape's) and, but for the
				// forms that see the universe, the same view.
				l.memo.hits++
				l.findings = append(l.findings, o.dep.findings...)
				if o.dep.setEpoch != setEpoch {
					o.dep.setEpoch = setEpoch
					if seesUniverse(a.Form) {
						o.dep.sees, o.dep.agent = sees(&a, universe, index), nil
					}
				}
				a.Sees = o.dep.sees
				agents.add(o.dep.model(&a))
				continue
			}
			before := len(l.findings)
			for _, r := range a.Refs {
				if l.stop.stopped() {
					return nil
				}
				l.checkAgentRef(u, &a, r, m, st)
			}
			a.Sees = sees(&a, universe, index)
			made, ok := agents.next()
			if !ok || !sameAgent(made, &a) {
				// An agent read again (its chunk parsed again) that is
				// equal to the last load's there is that one.
				made = new(Agent)
				*made = a
			}
			if found := l.findings[before:]; o != nil && setEpoch != 0 && keepable(found) {
				o.dep = &agentDeps{setEpoch: setEpoch, findings: slices.Clone(found), sees: a.Sees, unknown: hasCode(found, CodeUnknownTool), agent: made}
			}
			agents.add(made)
		}
	}
	if n == 0 {
		return nil
	}
	out := agents.result()
	l.memo.keepAgents(out)
	return out
}

// lastAgents returns the Agents of the last load through m (nil: none or
// no memo).
func (m *resolveMemo) lastAgents() []*Agent {
	if m == nil {
		return nil
	}
	return m.modelAgents
}

// keepAgents keeps a load's Agents for the next load to share
// (sharedSlice).
func (m *resolveMemo) keepAgents(as []*Agent) {
	if m != nil {
		m.modelAgents = as
	}
}

// sees computes the tools an agent's model sees from its form.
func sees(a *Agent, universe []string, index func(string) (int, bool)) View {
	switch a.Form {
	case FormAll:
		return listView(universe)
	case FormNone:
		return listView([]string{})
	case FormInvalid:
		return View{}
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
		return listView(out)
	}
	// exclude and legacy: the universe less the names removed, by their
	// places (the universe itself when nothing in it is removed).
	var removed []int
	for _, r := range a.Refs {
		if a.Form == FormLegacy && r.Enabled {
			continue
		}
		if r.Name == agentStar {
			return listView([]string{})
		}
		if i, ok := index(r.Name); ok {
			removed = append(removed, i)
		}
	}
	if len(removed) == 0 {
		return listView(universe)
	}
	slices.Sort(removed)
	return View{names: universe, removed: slices.Clip(slices.Compact(removed))}
}

// readAgent runs the agent checks (rule.go) on one agent d of u's tree:
// the agent they read, and their findings.
func (l *loader) readAgent(u *unit, d *AgentDecl) (Agent, []diag.Finding) {
	e := &l.agent // one per load: reading an agent allocates no entry
	*e = agentEntry{file: u.file.Path, pos: u.parsed.pos, decl: d}
	a := &l.agentRead // the checks get a pointer: kept in the loader, not on the heap per agent
	*a = Agent{Name: d.Name, File: u.file.Path, Key: spanOf(u.parsed.pos.nodeRange(d.Key)), Form: FormAll}
	for _, c := range l.rules.agents {
		c.check(e, a)
	}
	return *a, e.findings
}
