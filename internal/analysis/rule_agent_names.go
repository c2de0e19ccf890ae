package analysis

import (
	"fmt"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// A1 and A2: the names an agent writes are tools of the session. They read
// the agent's names and the whole tool set; the memo keeps an agent's
// findings only while the tool set is the same as the load they were made
// in (agentUniverse numbers the tool sets).

const (
	CodeUnknownTool = "A1" // a name that is no tool
	CodeNotLoaded   = "A2" // a Beeuni tool the project does not load
)

var (
	ruleUnknownTool = &Rule{Code: CodeUnknownTool, Severity: diag.Warning, Reads: ReadsManifest, Fixes: []FixKind{FixReplaceName}}
	ruleNotLoaded   = &Rule{Code: CodeNotLoaded, Severity: diag.Warning, Reads: ReadsManifest, Fixes: []FixKind{FixAddToTools, FixRemoveFromAgent}}
)

func msgUnknownTool(name, suggest string, exclude bool) string {
	m := fmt.Sprintf("`%s` is neither a harness tool, a Beeuni tool nor a project tool of this project", name)
	if suggest != "" {
		m += fmt.Sprintf("; did you mean `%s`?", suggest)
		if exclude {
			m += fmt.Sprintf(" As written, `%s` stays enabled.", suggest)
		}
	} else if exclude {
		m += "; this exclusion hides nothing"
	}
	return m
}

// msgNotLoaded is A2 (exact: the product page's text).
func msgNotLoaded(name string) string {
	return fmt.Sprintf("%q is a Beeuni tool this project does not load: add `%s: beeuni:%s` under the top-level `tools`, or remove it here.", name, name, name)
}

// suggestMaxDistance is how far (edit distance) an A1 suggestion may be.
func suggestMaxDistance(name string) int {
	d := (len(name) + 2) / 4
	if d < 1 {
		d = 1
	}
	if d > 3 {
		d = 3
	}
	return d
}

// checkAgentRef reports a name that is no tool (A1) or a Beeuni tool the
// project does not load (A2).
func (l *loader) checkAgentRef(u *unit, a *Agent, r AgentToolRef, m *Model, st *toolSet) {
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
		l.findings = append(l.findings, ruleNotLoaded.finding(u.file.Path, u.file.Range(r.Span), msgNotLoaded(name), map[string]string{DataName: name}, nil))
		return
	}
	if _, ok := st.declared[name]; ok {
		return
	}
	suggest := l.closestTool(name, st)
	data := map[string]string{DataName: name}
	if suggest != "" {
		data[DataSuggest] = suggest
	}
	l.findings = append(l.findings, ruleUnknownTool.finding(u.file.Path, u.file.Range(r.Span), msgUnknownTool(name, suggest, a.Form == FormExclude), data, nil))
}

// closestTool returns the real tool name nearest to name by edit distance,
// within suggestMaxDistance, or "". Harness tools come first, then Beeuni
// tools, then project tools in declaration order; the first of equals wins.
// The names are indexed on the first suggestion of a tool set: with a
// memo, by updating the last set's index (suggest_keep.go).
func (l *loader) closestTool(name string, st *toolSet) string {
	if st.suggest == nil {
		st.suggest = l.memo.suggestIndex(&l.stop, st)
	}
	best, _ := st.suggest.closest(name, suggestMaxDistance(name))
	return best
}
