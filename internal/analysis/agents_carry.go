package analysis

import (
	"slices"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// A keystroke in a tool's key renames the tool: the tool set is another,
// and every agent's A1, A2 and view were made against the last one. Most
// agents do not read the names that changed: an agent listing other tools
// finds them declared as before, at the same places relative to each other
// (the names that changed are a run between a common first and last part
// of the old and new lists, changedNames), so it keeps its findings and its
// view, and an agent seeing the universe (all, exclude, legacy) keeps its
// findings and gets its view of the new universe. An agent with an A1 is
// checked again: its suggestion reads every name.

// agentToolSet is what A1, A2 and an agent's view read of the tool set.
type agentToolSet struct {
	toolsKey bool
	universe []string // harness tools, then the session's: shared, never written
	epoch    uint64
	// set is the tool set numbered epoch last (a kept one is the same
	// object from load to load: the same set).
	set *toolSet
	// from is the epoch this one follows, and changed the names declared
	// or in the universe in one of the two and not in the same place in
	// the other; everything is when all is set (or from is 0).
	from    uint64
	changed []string
	all     bool
}

// maxChangedNames is the most names a change of tool set may touch for the
// agents to be carried over: beyond it, every agent is checked again.
const maxChangedNames = 64

// number is the set's epoch, 0 without a memo.
func (s *agentToolSet) number() uint64 {
	if s == nil {
		return 0
	}
	return s.epoch
}

// carries reports whether an agent a, with what it gave against the tool
// set before this one (dep), gives the same findings against this one and
// the same view, up to the universe: it names none of the names that
// changed and has no A1.
func (s *agentToolSet) carries(dep *agentDeps, a *Agent) bool {
	if s == nil || s.all || s.from == 0 || dep.setEpoch != s.from || dep.unknown {
		return false
	}
	for _, r := range a.Refs {
		if slices.Contains(s.changed, r.Name) {
			return false
		}
	}
	return true
}

// seesUniverse reports whether an agent of form f sees the universe, less
// what it removes: its view changes with every tool set.
func seesUniverse(f AgentForm) bool {
	return f == FormAll || f == FormExclude || f == FormLegacy
}

// hasCode reports whether one of fs is of rule code.
func hasCode(fs []diag.Finding, code string) bool {
	for _, f := range fs {
		if f.Code == code {
			return true
		}
	}
	return false
}

// agentUniverse returns every tool an agent's model can see, in order (the
// harness tools, then the session's tools), and gives each declaration of a
// tool its index in it. With a memo, it numbers the tool set: the last
// load's number when the same names are declared in the same order and the
// same ones loaded, so that agents unchanged since keep their A1, A2 and
// view; else a new one, with the names that changed since (carries). The
// set is nil without a memo.
func (l *loader) agentUniverse(m *Model, st *toolSet) ([]string, *agentToolSet) {
	var prev *agentToolSet
	var buf []string
	nHarness := len(certainHarnessTools) + len(opencodeHarnessTools)
	if memo := l.memo; memo != nil {
		prev, buf = memo.toolSet, emptied(memo.universeBuf, nHarness+len(m.Tools))
		if prev != nil && prev.set == st {
			return prev.universe, prev // a kept set: its declarations hold their indexes
		}
	}
	buf = append(buf, certainHarnessTools[:]...)
	buf = append(buf, opencodeHarnessTools[:]...)
	for i, t := range m.Tools {
		if l.stop.stopped() {
			return nil, nil
		}
		if known, _ := HarnessTool(t.Name); !known {
			if i < len(st.toolDecls) {
				st.toolDecls[i].universe = len(buf)
			}
			buf = append(buf, t.Name)
		}
	}
	if l.memo == nil {
		return slices.Clip(buf), nil
	}
	memo := l.memo
	memo.universeBuf = buf
	if prev != nil && prev.toolsKey == m.ToolsKey && slices.Equal(prev.universe, buf) && st.declares(memo.declared) {
		prev.set = st
		return prev.universe, prev
	}
	declared := emptied(memo.declaredBuf, len(st.all))
	for _, d := range st.all {
		if d.first {
			declared = append(declared, d.name)
		}
	}
	next := &agentToolSet{toolsKey: m.ToolsKey, universe: slices.Clone(buf), set: st, all: true}
	if prev != nil && prev.toolsKey == m.ToolsKey {
		changed, ok := changedNames(nil, prev.universe, buf)
		if ok {
			changed, ok = changedNames(changed, memo.declared, declared)
		}
		next.from, next.changed, next.all = prev.epoch, changed, !ok
	}
	// The agents share the universe: no appends into it.
	next.universe = slices.Clip(next.universe)
	memo.declared, memo.declaredBuf = declared, memo.declared
	memo.setEpochs++
	next.epoch = memo.setEpochs
	memo.toolSet = next
	return next.universe, next
}

// declares reports whether st declares names (first declarations), in
// that order.
func (st *toolSet) declares(names []string) bool {
	j := 0
	for _, d := range st.all {
		if d.first {
			if j == len(names) || names[j] != d.name {
				return false
			}
			j++
		}
	}
	return j == len(names)
}

// emptied returns buf emptied, or a new buffer when it has no room for n.
func emptied(buf []string, n int) []string {
	if cap(buf) < n {
		return make([]string, 0, n)
	}
	return buf[:0]
}

// changedNames appends to out the names of a and of b between their common
// first part and their common last part: the names that are not at the
// same place, counted from the start or from the end, in both. It reports
// false, appending nothing, when that makes more than maxChangedNames in
// out.
func changedNames(out, a, b []string) ([]string, bool) {
	p, s := commonEnds(a, b)
	if len(out)+len(a)-s-p+len(b)-s-p > maxChangedNames {
		return out, false
	}
	out = append(out, a[p:len(a)-s]...)
	return append(out, b[p:len(b)-s]...), true
}

// commonEnds returns the lengths of the longest common first part of a and
// b and of the longest common last part of what follows it.
func commonEnds(a, b []string) (prefix, suffix int) {
	for prefix < len(a) && prefix < len(b) && a[prefix] == b[prefix] {
		prefix++
	}
	for suffix < len(a)-prefix && suffix < len(b)-prefix && a[len(a)-1-suffix] == b[len(b)-1-suffix] {
		suffix++
	}
	return prefix, suffix
}
