package analysis

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The text forms of an AgentView: `tools ls --agent NAME`, the code lens
// on an agent and the list its hover shows.

// AgentViewSummary is the one line a code lens on the agent shows:
// "12 tools · ≈3.1k tokens", then, when some values are not known, how
// many tools have one ("+ 9 tools not known": the estimate leaves them
// out).
func AgentViewSummary(v *AgentView) string {
	return summaryLine(len(v.Tools), v.unknownTools(), v.TokensEstimate)
}

// summaryLine is AgentViewSummary of a view of tools tools, unknown of
// them with a value not known, of tokens tokens.
func summaryLine(tools, unknown, tokens int) string {
	s := fmt.Sprintf("%s · %s tokens", countOf(tools, "tool"), approxTokens(tokens))
	if unknown > 0 {
		s += fmt.Sprintf(" + %s not known", countOf(unknown, "tool"))
	}
	return s
}

// unknownTools counts the tools with a value not known.
func (v *AgentView) unknownTools() int {
	n := 0
	for _, t := range v.Tools {
		if len(t.Unknown) > 0 {
			n++
		}
	}
	return n
}

// approxTokens writes a token estimate as "≈850" or "≈3.1k".
func approxTokens(n int) string {
	if n < 1000 {
		return fmt.Sprintf("≈%d", n)
	}
	return fmt.Sprintf("≈%.1fk", float64(n)/1000)
}

func countOf(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// sizeLine is the view's size, its token estimate and what the estimate
// leaves out.
func (v *AgentView) sizeLine() string {
	s := fmt.Sprintf("%s · %d bytes · %s tokens (an estimate: %s)", countOf(len(v.Tools), "tool"), v.Bytes, approxTokens(v.TokensEstimate), v.TokensEstimateMethod)
	if n := v.unknownTools(); n > 0 {
		s += fmt.Sprintf("\nNot known statically in %s (marked below): the size counts the known part only.", countOf(n, "tool"))
	}
	return s
}

// FormatAgentView returns the text of `tools ls --agent NAME`: the size
// line, then each tool with its description and parameters (indented
// JSON) or what is not known of them, then the tools the session will not
// get.
func FormatAgentView(v *AgentView) string {
	var b strings.Builder
	fmt.Fprintf(&b, "What agent %s's model sees: %s\n", v.Agent, v.sizeLine())
	for _, t := range v.Tools {
		fmt.Fprintf(&b, "\n%s · %s · %s · %d bytes\n", t.Name, t.Kind, t.Source, t.Bytes)
		unknown := map[string]string{}
		for _, u := range t.Unknown {
			unknown[u.Path] = u.Why
		}
		if t.Description != nil {
			b.WriteString("  description:\n")
			writeIndented(&b, *t.Description, "    ")
		} else {
			fmt.Fprintf(&b, "  description: not known (%s)\n", unknown["description"])
		}
		if t.Parameters != nil {
			b.WriteString("  parameters:\n")
			writeIndented(&b, indentJSON(t.Parameters), "    ")
		} else {
			fmt.Fprintf(&b, "  parameters: not known (%s)\n", unknown["parameters"])
		}
		for _, u := range t.Unknown {
			if u.Path != "description" && u.Path != "parameters" {
				fmt.Fprintf(&b, "  not known: %s (%s)\n", u.Path, u.Why)
			}
		}
	}
	if len(v.NotLoaded) > 0 {
		b.WriteString("\nWill not load (the model does not get them):\n")
		for _, n := range v.NotLoaded {
			fmt.Fprintf(&b, "  %s · %s [%s] %s\n", n.Name, n.Source, n.Code, n.Message)
		}
	}
	return b.String()
}

// agentViewHoverMost is how many tools an agent's hover lists.
const agentViewHoverMost = 50

// AgentViewMarkdown is the part of an agent's hover about what its model
// gets: the size line and one line per tool (the first
// agentViewHoverMost), with its size and the first line of its
// description.
func AgentViewMarkdown(v *AgentView) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**What the model gets:** %s", strings.ReplaceAll(v.sizeLine(), "\n", "\n\n"))
	b.WriteString("\n")
	for i, t := range v.Tools {
		if i == agentViewHoverMost {
			fmt.Fprintf(&b, "\n- and %d more", len(v.Tools)-i)
			break
		}
		desc := "_description not known_"
		if t.Description != nil {
			desc, _, _ = strings.Cut(*t.Description, "\n")
			desc = strings.TrimSpace(desc)
		}
		fmt.Fprintf(&b, "\n- `%s` · %s · %d bytes · %s", t.Name, t.Kind, t.Bytes, desc)
	}
	if len(v.NotLoaded) > 0 {
		names := make([]string, len(v.NotLoaded))
		for i, n := range v.NotLoaded {
			names[i] = "`" + n.Name + "`"
		}
		fmt.Fprintf(&b, "\n\nWill not load (the model does not get them): %s", strings.Join(names, ", "))
	}
	return b.String()
}

// indentJSON returns raw indented by two spaces, or as it is when it does
// not parse.
func indentJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}

// writeIndented writes each line of s after prefix.
func writeIndented(b *strings.Builder, s, prefix string) {
	for line := range strings.SplitSeq(s, "\n") {
		if line != "" {
			b.WriteString(prefix)
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
}
