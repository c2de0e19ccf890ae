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
// the secrets its tools read: rule_secrets.go). It reads the agent from its
// file's tree, where the first of each key counts (T10 reports a second).
func checkAgentTools(e *agentEntry, a *Agent) {
	d := e.decl
	if d.ToolsKey != nil {
		a.ToolsKey = spanOf(e.pos.nodeRange(d.ToolsKey))
		a.ToolsValue = spanOf(e.pos.nodeRange(d.Tools))
		agentTools(e, a)
	}
	if d.SecretsKey != nil {
		a.Secrets = readSecrets(d.Secrets)
	}
}

// agentTools reads one agent's tools value into a (A3 on a wrong shape).
func agentTools(e *agentEntry, a *Agent) {
	d := e.decl
	raw := d.Tools
	v := resolveAlias(raw)
	shape := func(n *yaml.Node, msg string) {
		if n == nil {
			n = raw
		}
		e.report(ruleAgentShape, n, msg, map[string]string{"agent": a.Name})
	}
	ref := func(n *yaml.Node, enabled bool) {
		a.Refs = append(a.Refs, AgentToolRef{Name: n.Value, Span: spanOf(e.pos.nodeRange(n)), Enabled: enabled})
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
		pairs := d.toolsPairs // merge keys expanded by the tree
		if d.ExcludeKey != nil {
			a.Form = FormExclude
			for i := 0; i+1 < len(pairs); i += 2 {
				if k := pairs[i]; k != d.ExcludeKey {
					a.Form = FormInvalid
					shape(k, msgAgentExcludeExtra(k.Value))
				}
			}
			list := resolveAlias(d.exclude)
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
				a.Refs = make([]AgentToolRef, 0, len(pairs)/2)
			}
			for i := 0; i+1 < len(pairs); i += 2 {
				k, val := pairs[i], resolveAlias(pairs[i+1])
				if k.Kind != yaml.ScalarNode {
					a.Form = FormInvalid
					shape(k, msgAgentToolsShape(a.Name, "a mapping with "+kindName(k)+" as a key"))
					continue
				}
				if val == nil || val.Kind != yaml.ScalarNode || val.Tag != "!!bool" {
					a.Form = FormInvalid
					shape(val, msgAgentLegacyValue(k.Value, kindOrAlias(val)))
					continue
				}
				ref(k, isTrue(val.Value))
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
