package analysis

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// A3: the shape of an agent's tools value. Its check reads the agent's
// entry into the Agent (its form and the names it writes, checked against
// the tool set by A1 and A2, rule_agent_names.go), with A3 on a wrong shape.
// It reads the entry alone: the memo keeps what it gave by the agent's
// nodes.

const CodeAgentShape = "A3"

var ruleAgentShape = &Rule{Code: CodeAgentShape, Severity: diag.Error, Reads: ReadsEntry}

func msgAgentToolsShape(agent, kind string) string {
	return fmt.Sprintf("`tools` of agent `%s` must be `all`, `none`, a list of tool names, `{ exclude: [...] }` or a map of tool names to true/false, not %s", agent, kind)
}

func msgAgentListItem(kind string) string {
	return fmt.Sprintf("a tool list item must be a tool name, not %s", kind)
}

func msgAgentExcludeShape(kind string) string {
	return fmt.Sprintf("`exclude` must be a list of tool names, not %s", kind)
}

func msgAgentExcludeExtra(key string) string {
	return fmt.Sprintf("`%s` next to `exclude`: a map with `exclude` takes no other key (the legacy form maps tool names to true/false)", key)
}

func msgAgentLegacyValue(name, kind string) string {
	return fmt.Sprintf("in the legacy map form every value is true or false; `%s` is %s", name, kind)
}

// checkAgentTools reads the agent's tools value into a: its form and the
// names it writes, with A3 on a wrong shape (the names are checked against
// the tool set by A1 and A2), and its secrets value (A4 holds it against
// the secrets its tools read: rule_secrets.go). The first of each key
// counts (T10 reports a second).
func checkAgentTools(e *agentEntry, a *Agent) {
	if body := resolveAlias(e.value); body != nil && body.Kind == yaml.MappingNode {
		tools := false
		for _, f := range mapPairs(e.value, e.budget) {
			if f.k.Kind != yaml.ScalarNode {
				continue
			}
			switch {
			case f.k.Value == "tools" && !tools:
				tools = true
				a.ToolsKey = e.pos.nodeRange(f.k)
				a.ToolsValue = e.pos.nodeRange(f.v)
				agentTools(e, a, f.v)
			case f.k.Value == "secrets" && a.Secrets.Form == SecretsAbsent:
				a.Secrets = readSecrets(f.v)
			}
		}
	}
}

// agentTools reads one agent's tools value into a (A3 on a wrong shape).
func agentTools(e *agentEntry, a *Agent, raw *yaml.Node) {
	v := resolveAlias(raw)
	shape := func(n *yaml.Node, msg string) {
		if n == nil {
			n = raw
		}
		e.report(ruleAgentShape, n, msg, map[string]string{"agent": a.Name})
	}
	ref := func(n *yaml.Node, enabled bool) {
		a.Refs = append(a.Refs, AgentToolRef{Name: n.Value, Range: e.pos.nodeRange(n), Enabled: enabled})
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
		pairs := mapPairs(raw, e.budget)
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
