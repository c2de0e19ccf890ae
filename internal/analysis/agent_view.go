package analysis

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
)

// AgentView is what an agent's model gets: every tool it sees (harness,
// Beeuni and project tools, after its `tools:` list), each with the
// description and parameters the model receives, as far as they are known
// statically. A value not known is marked (Unknown), never guessed. It is
// the JSON of `tools ls --agent NAME --json`.
type AgentView struct {
	Agent string          `json:"agent"`
	Tools []AgentViewTool `json:"tools"`
	// NotLoaded are the tools the agent's list lets it see that the
	// session will not get (T6, T11, T3): the model does not get them.
	// Empty, never null.
	NotLoaded []NotLoaded `json:"not_loaded"`
	// Bytes is the sum of the tools' Bytes: the known part of what the
	// model gets when Complete is false.
	Bytes int `json:"bytes"`
	// Complete is true when every description and parameter is known.
	Complete bool `json:"complete"`
	// TokensEstimate is an estimate of Bytes in tokens, by
	// TokensEstimateMethod; no tokenizer is run.
	TokensEstimate       int    `json:"tokens_estimate"`
	TokensEstimateMethod string `json:"tokens_estimate_method"`
}

// AgentViewTool is one tool as the model receives it.
type AgentViewTool struct {
	Name string `json:"name"`
	// Kind is `tools ls`'s KIND ("beeuni", "beeuni (overridden)",
	// "project"), or "harness".
	Kind string `json:"kind"`
	// Source is `tools ls`'s SOURCE, or for a harness tool "harness" (a
	// tool every harness implements) or "standard harness (opencode)".
	Source string `json:"source"`
	// Description is null when not known statically.
	Description *string `json:"description"`
	// Parameters is the JSON Schema as far as it is known (the parts not
	// known are left out and listed in Unknown); null when not known.
	Parameters json.RawMessage `json:"parameters"`
	// Unknown lists the values not known statically: "description",
	// "parameters", or a part of the parameters
	// ("parameters.properties.year.description"). Empty, never null.
	Unknown []UnknownPart `json:"unknown"`
	// Bytes is the size of the tool's definition as compact JSON,
	// {"name":…,"description":…,"parameters":…}, with the known values
	// only.
	Bytes int `json:"bytes"`
}

// UnknownPart is a value of a tool's definition not known statically.
type UnknownPart struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

// ToolDefs are the tool definitions an AgentView reads.
type ToolDefs struct {
	// Modules are the module inspections by absolute module path
	// (Inspection.Results); nil when inspection is off or has not ended.
	Modules map[string]*tsinspect.Result
	// Beeuni are the Beeuni tools' inspections by name
	// (InspectBeeuniTools); nil when not read.
	Beeuni map[string]*tsinspect.Result
}

// TokensEstimateMethod says how AgentView.TokensEstimate is computed.
const TokensEstimateMethod = "bytes / 4, rounded up; no tokenizer is run"

// estimateTokens is TokensEstimateMethod.
func estimateTokens(bytes int) int { return (bytes + 3) / 4 }

// Why a value is not known statically.
const (
	whyHarness        = "the harness supplies it; beeuni-lsp does not know its text"
	whyNoInspection   = "module inspection is off or has not finished"
	whyNotInspected   = "the module has not been inspected yet"
	whyIncomplete     = "the inspection of the module did not finish"
	whyNotStatic      = "not statically known: running the module decides it (see the module's findings)"
	whyBeeuniNotRead  = "the Beeuni tools' sources were not read"
	whyNoModulePathed = "the tool has no module file"
)

// UnknownAgentError is AgentViewer.View's error for a name no agent has.
type UnknownAgentError struct {
	Name   string
	Agents []string // the agents there are, in declaration order
}

func (e *UnknownAgentError) Error() string {
	if len(e.Agents) == 0 {
		return fmt.Sprintf("no agent %q: the project declares no agents", e.Name)
	}
	return fmt.Sprintf("no agent %q: the agents are %s", e.Name, strings.Join(e.Agents, ", "))
}

// ErrNoView is AgentViewer.View's error for an agent whose `tools` value has
// no form (A3): what its model sees is not known.
var ErrNoView = errors.New("its tools value is of no form (A3): fix it first (see beeuni-lsp validate)")

// FindAgent returns the first agent of that name in p's model.
func FindAgent(p *Project, name string) (*Agent, bool) {
	if p == nil || p.Model == nil {
		return nil, false
	}
	for _, a := range p.Model.Agents {
		if a.Name == name {
			return a, true
		}
	}
	return nil, false
}

// AgentViewer makes the AgentViews of one project: each tool's definition
// is read and sized once, however many agents see it (a code lens on
// every agent of a 10,000-tool project sizes 10,000 tools, not 10,000 per
// agent). Not safe for concurrent use.
type AgentViewer struct {
	p     *Project
	defs  ToolDefs
	fails map[string]NotLoaded
	made  map[string]viewedTool
	// tools indexes the model's tools by name, made on first use (the
	// first declaration of a name counts, as Model.Tool).
	tools map[string]*Tool
	// totals are the summary counts of the lists of names seen, by
	// storage (totalsOf).
	totals map[namesKey]viewTotals
	// scratch holds each definition while it is sized.
	scratch bytes.Buffer
}

// viewedTool is a tool as the model receives it, or why it does not.
type viewedTool struct {
	tool AgentViewTool
	skip *NotLoaded
}

// NewAgentViewer returns a viewer of p's agents. notLoaded is
// NotLoadedTools' list (those tools are left out: the model does not get
// them); a module the inspection says will not load is left out too.
func NewAgentViewer(p *Project, defs ToolDefs, notLoaded []NotLoaded) *AgentViewer {
	fails := make(map[string]NotLoaded, len(notLoaded))
	for _, n := range notLoaded {
		fails[n.Name] = n
	}
	return &AgentViewer{p: p, defs: defs, fails: fails, made: map[string]viewedTool{}}
}

// View returns what the model of agent name gets: an *UnknownAgentError
// when p has no such agent, ErrNoView when its tools value has no form.
func (vw *AgentViewer) View(name string) (*AgentView, error) {
	a, err := vw.agent(name)
	if err != nil {
		return nil, err
	}
	v := &AgentView{Agent: name, Tools: make([]AgentViewTool, 0, a.Sees.Len()), NotLoaded: []NotLoaded{}, Complete: true, TokensEstimateMethod: TokensEstimateMethod}
	for n := range a.Sees.All() {
		vt := vw.tool(n)
		if vt.skip != nil {
			v.NotLoaded = append(v.NotLoaded, *vt.skip)
			continue
		}
		v.Bytes += vt.tool.Bytes
		v.Complete = v.Complete && len(vt.tool.Unknown) == 0
		v.Tools = append(v.Tools, vt.tool)
	}
	v.TokensEstimate = estimateTokens(v.Bytes)
	return v, nil
}

// Summary returns AgentViewSummary of agent name's view, without making
// the view's list (a code lens on every agent of a 10,000-tool project).
func (vw *AgentViewer) Summary(name string) (string, error) {
	a, err := vw.agent(name)
	if err != nil {
		return "", err
	}
	// The agents that see the universe less a few names share its
	// totals: each costs its removed names, not the universe.
	t := vw.totalsOf(a.Sees.names)
	for _, i := range a.Sees.removed {
		t.add(vw.tool(a.Sees.names[i]), -1)
	}
	return summaryLine(t.tools, t.unknown, estimateTokens(t.bytes)), nil
}

// viewTotals are the counts of a summary.
type viewTotals struct {
	tools, unknown, bytes int
}

// add adds (sign 1) or removes (sign -1) a tool of the view.
func (t *viewTotals) add(vt viewedTool, sign int) {
	if vt.skip != nil {
		return
	}
	t.tools += sign
	t.bytes += sign * vt.tool.Bytes
	if len(vt.tool.Unknown) > 0 {
		t.unknown += sign
	}
}

// namesKey is a list of names by its storage: views share their
// universe's.
type namesKey struct {
	first *string
	n     int
}

// totalsOf returns the totals of names, summed once per storage.
func (vw *AgentViewer) totalsOf(names []string) viewTotals {
	if len(names) == 0 {
		return viewTotals{}
	}
	k := namesKey{&names[0], len(names)}
	if t, ok := vw.totals[k]; ok {
		return t
	}
	var t viewTotals
	for _, n := range names {
		t.add(vw.tool(n), 1)
	}
	if vw.totals == nil {
		vw.totals = map[namesKey]viewTotals{}
	}
	vw.totals[k] = t
	return t
}

// agent returns the agent of that name with a view, or View's errors.
func (vw *AgentViewer) agent(name string) (*Agent, error) {
	p := vw.p
	a, ok := FindAgent(p, name)
	if !ok {
		e := &UnknownAgentError{Name: name, Agents: []string{}}
		if p != nil && p.Model != nil {
			seen := map[string]bool{}
			for _, a := range p.Model.Agents {
				if !seen[a.Name] {
					seen[a.Name] = true
					e.Agents = append(e.Agents, a.Name)
				}
			}
		}
		return nil, e
	}
	if !a.Sees.Valid() {
		return nil, fmt.Errorf("agent %q: %w", name, ErrNoView)
	}
	return a, nil
}

// tool returns the tool name as the model receives it, made once.
func (vw *AgentViewer) tool(name string) viewedTool {
	if vt, ok := vw.made[name]; ok {
		return vt
	}
	var vt viewedTool
	if f, ok := vw.fails[name]; ok {
		vt.skip = &f
	} else {
		if vw.tools == nil {
			vw.tools = make(map[string]*Tool, len(vw.p.Model.Tools))
			for _, t := range vw.p.Model.Tools {
				if _, dup := vw.tools[t.Name]; !dup {
					vw.tools[t.Name] = t
				}
			}
		}
		vt.tool, vt.skip = viewTool(vw.tools[name], name, vw.defs)
		vt.tool.Bytes = definitionSize(&vw.scratch, vt.tool)
	}
	vw.made[name] = vt
	return vt
}

// viewTool returns the tool name (the model's tool, nil for a harness
// tool) as the model receives it, or, for a module the inspection says
// will not load, why the model does not get it.
func viewTool(model *Tool, name string, defs ToolDefs) (AgentViewTool, *NotLoaded) {
	t := AgentViewTool{Name: name, Unknown: []UnknownPart{}}
	if known, certain := HarnessTool(name); known {
		t.Kind, t.Source = "harness", "harness"
		if !certain {
			t.Source = "standard harness (opencode)"
		}
		t.Unknown = append(t.Unknown, UnknownPart{"description", whyHarness}, UnknownPart{"parameters", whyHarness})
		return t, nil
	}
	tool := Tool{Name: name, Kind: KindBeeuni, Source: "beeuni:" + name}
	if model != nil {
		// Always: a name an agent sees that is no harness tool is one of
		// the model's tools (the implicit Beeuni tools of a project
		// without tools: too).
		tool = *model
	}
	t.Kind, t.Source = tool.Kind.String(), tool.Source
	var r *tsinspect.Result
	why := ""
	switch {
	case tool.Kind == KindBeeuni:
		r = defs.Beeuni[name]
		if r == nil {
			why = whyBeeuniNotRead
		}
	case tool.Module == "":
		why = whyNoModulePathed
	case defs.Modules == nil:
		why = whyNoInspection
	default:
		r = defs.Modules[tool.Module]
		switch {
		case r == nil:
			why = whyNotInspected
		case r.Incomplete:
			r, why = nil, whyIncomplete
		case !r.Loads:
			return t, &NotLoaded{Name: name, Source: tool.Source, Code: CodeModuleLoad, Message: r.Reason}
		}
	}
	if r == nil {
		t.Unknown = append(t.Unknown, UnknownPart{"description", why}, UnknownPart{"parameters", why})
		return t, nil
	}
	if r.DescriptionKnown {
		d := r.Description
		t.Description = &d
	} else {
		t.Unknown = append(t.Unknown, UnknownPart{"description", whyNotStatic})
	}
	if r.Parameters != nil {
		t.Parameters = r.Parameters
	} else {
		t.Unknown = append(t.Unknown, UnknownPart{"parameters", whyNotStatic})
	}
	for _, u := range r.ParametersUnknown {
		path := "parameters"
		if u.Path != "" {
			path += "." + u.Path
		}
		if r.Parameters == nil && path == "parameters" {
			continue // listed above
		}
		t.Unknown = append(t.Unknown, UnknownPart{path, u.Why})
	}
	return t, nil
}

// definitionSize is the size of t's definition as compact JSON, with its
// known values only, written in b (emptied first).
func definitionSize(b *bytes.Buffer, t AgentViewTool) int {
	b.Reset()
	b.WriteString(`{"name":`)
	writeJSONString(b, t.Name)
	if t.Description != nil {
		b.WriteString(`,"description":`)
		writeJSONString(b, *t.Description)
	}
	if t.Parameters != nil {
		b.WriteString(`,"parameters":`)
		if err := json.Compact(b, t.Parameters); err != nil {
			b.Write(t.Parameters) // the reader's JSON is valid; count it as is
		}
	}
	b.WriteByte('}')
	return b.Len()
}

// writeJSONString writes s as a JSON string, without escaping <, > and &
// (as a model's API receives it).
func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	b.Truncate(b.Len() - 1) // Encode's newline
}
