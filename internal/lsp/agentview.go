package lsp

import (
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
)

// What an agent's model gets (analysis.AgentView), for the editors: the
// code lens on each agent, the part of its hover, and the commands.

const (
	// CommandAgentTools returns what an agent's model gets: arguments
	// [{ "uri", "name" }] (any file of the project, the agent's name),
	// answer agentToolsResult.
	CommandAgentTools = "beeuni.agentTools"
	// CommandShowAgentTools is the command of the code lens on an agent,
	// with CommandAgentTools' arguments: the editor clients implement it
	// (they open the view); a client that sends it to the server gets
	// CommandAgentTools' answer. The server does not declare it, so that
	// a client may register it under that name.
	CommandShowAgentTools = "beeuni.showAgentTools"
)

// agentToolsResult is the answer of beeuni.agentTools (a contract with
// the editor clients): the view as `tools ls --agent NAME` prints it, and
// as its JSON.
type agentToolsResult struct {
	Text string              `json:"text"`
	View *analysis.AgentView `json:"view"`
}

// beeuniDefs holds the Beeuni tools' definitions, read from their
// embedded sources on first use (analysis.InspectBeeuniTools).
type beeuniDefs struct {
	once sync.Once
	defs map[string]*tsinspect.Result
}

// beeuniToolDefs returns the Beeuni tools' definitions, read once per
// server.
func (s *Server) beeuniToolDefs() map[string]*tsinspect.Result {
	s.beeuni.once.Do(func() { s.beeuni.defs = analysis.InspectBeeuniTools(s.bg) })
	return s.beeuni.defs
}

// agentViewer returns the viewer of proj's agents, from snap's module
// results: a tool whose module the last pass has not inspected is marked
// not known, never described from an older module.
func (s *Server) agentViewer(snap *analysis.Snapshot, proj *analysis.Project) *analysis.AgentViewer {
	findings := proj.Findings
	if snap.Inspection != nil && snap.Project == proj {
		findings = diag.Merge(findings, snap.Inspection.Findings)
	}
	defs := analysis.ToolDefs{Modules: snap.Modules(), Beeuni: s.beeuniToolDefs()}
	return analysis.NewAgentViewer(proj, defs, analysis.NotLoadedTools(proj, findings))
}

// agentTools is the answer of beeuni.agentTools for agent name of a's
// project: from the last load in which a's file parsed, so that a view
// that follows edits keeps its agent while the YAML is broken.
func (s *Server) agentTools(a *at, name string) (*agentToolsResult, error) {
	if name == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, CommandAgentTools+": the argument needs a name (the agent's)")
	}
	v, err := s.agentViewer(a.snap, a.fallback).View(name)
	if err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	return &agentToolsResult{Text: analysis.FormatAgentView(v), View: v}, nil
}

// agentHover is the part of an agent's hover about what its model gets
// ("" when it has no view).
func (s *Server) agentHover(a *at, proj *analysis.Project, name string) string {
	v, err := s.agentViewer(a.snap, proj).View(name)
	if err != nil {
		return ""
	}
	return "\n\n" + analysis.AgentViewMarkdown(v)
}

// agentLenses returns a code lens on each agent declared in a's file:
// "12 tools · ≈3.1k tokens", whose command opens the view.
func (s *Server) agentLenses(v *view, a *at) []protocol.CodeLens {
	out := []protocol.CodeLens{}
	f := a.proj.File(a.path)
	if f == nil || a.proj.Model == nil {
		return out
	}
	vw := s.agentViewer(a.snap, a.proj)
	var m *Mapper
	uri := pathToURI(a.path)
	for _, ag := range a.proj.Model.Agents {
		if ag.File != f.Path {
			continue
		}
		title, err := vw.Summary(ag.Name)
		if err != nil {
			continue // no view (A3 says why)
		}
		if m == nil {
			m = s.mapperIn(v, a.proj, a.path)
		}
		r := f.Range(ag.Key)
		out = append(out, protocol.CodeLens{
			Range: protocol.Range{Start: m.Position(r.Start.Offset), End: m.Position(r.End.Offset)},
			Command: &protocol.Command{
				Title:     title,
				Command:   CommandShowAgentTools,
				Arguments: []any{map[string]string{"uri": string(uri), "name": ag.Name}},
			},
		})
	}
	return out
}
