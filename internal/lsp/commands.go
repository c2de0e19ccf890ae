package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/analysis/edit"
)

// workspace/executeCommand: the beeuni.* commands (beeuni.applyChange and
// the carrying out of a change are in applychange.go).

// Commands the server executes (a contract with the editor clients).
const (
	CommandEject          = "beeuni.eject"
	CommandSessionTools   = "beeuni.sessionTools"
	CommandEjectableTools = "beeuni.ejectableTools"
	// CommandShowDocument opens a file in the editor (window/showDocument);
	// it follows a code action whose edit creates a module.
	CommandShowDocument = "beeuni.showDocument"
)

// ejectArgs are the arguments of beeuni.eject (a contract with the
// editor clients).
type ejectArgs struct {
	URI   protocol.DocumentURI `json:"uri"`
	Name  string               `json:"name"`
	Force bool                 `json:"force"`
}

// showArgs are the arguments of beeuni.showDocument.
type showArgs struct {
	URI protocol.DocumentURI `json:"uri"`
}

func executeCommand(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p executeCommandParams
	if err := decodeParams(protocol.MethodWorkspaceExecuteCommand, params, &p); err != nil {
		return nil, err
	}
	var arg ejectArgs
	if len(p.Arguments) > 0 {
		if err := json.Unmarshal(p.Arguments[0], &arg); err != nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s: invalid argument: %v", p.Command, err))
		}
	}
	if arg.URI == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s: the argument needs a uri", p.Command))
	}
	if p.Command == CommandShowDocument {
		// The file may not be open or even saved yet: the client has just
		// applied the edit that created it.
		path, err := uriToPath(arg.URI)
		if err != nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s: %v", p.Command, err))
		}
		s.mu.Lock()
		ci := s.client
		s.mu.Unlock()
		s.show(ctx, ci, path)
		return nil, nil
	}
	a, err := s.locateUnder(ctx, v, arg.URI, nil)
	if err != nil {
		return nil, err
	}
	if a.p == nil || a.proj == nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s belongs to no Beeuni project (no beeuni.yaml above it)", arg.URI))
	}
	switch p.Command {
	case CommandSessionTools:
		return sessionTools(a.proj), nil
	case CommandEjectableTools:
		out := []string{}
		for _, name := range analysis.BeeuniTools() {
			if _, err := edit.Eject(a.proj, v.fs, name, false); err == nil {
				out = append(out, name)
			}
		}
		return out, nil
	case CommandEject:
		return nil, s.eject(ctx, v, arg)
	case CommandApplyChange:
		return nil, s.applyChange(ctx, v, p.Arguments[0])
	case CommandAgentTools, CommandShowAgentTools:
		return s.agentTools(a, arg.Name)
	}
	return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("unknown command %q", p.Command))
}

// sessionToolsResult is the answer of beeuni.sessionTools (a contract
// with the editor clients): the object `tools ls --json` prints, its
// table and each agent's tools.
type sessionToolsResult struct {
	analysis.ToolsList
	Table  string         `json:"table"`
	Agents []sessionAgent `json:"agents"`
}

type sessionAgent struct {
	Name  string   `json:"name"`
	Tools []string `json:"tools"`
}

// sessionTools is the answer of beeuni.sessionTools.
func sessionTools(proj *analysis.Project) *sessionToolsResult {
	// The module inspection's T11 is the server's other pass: the YAML
	// findings say which entries will not load (T6, T3).
	notLoaded := analysis.NotLoadedTools(proj, proj.Findings)
	list := analysis.ToolsLsJSON(proj, notLoaded)
	agents := []sessionAgent{}
	if proj.Model != nil {
		for _, ag := range proj.Model.Agents {
			agents = append(agents, sessionAgent{Name: ag.Name, Tools: ag.Sees.Names()})
		}
	}
	table := ""
	if proj.Model != nil {
		table = analysis.FormatToolsLs(proj.Model, notLoaded)
	}
	return &sessionToolsResult{ToolsList: list, Table: table, Agents: agents}
}

// eject runs beeuni.eject through carryOut: the client applies the whole
// change when it can create files; otherwise the client applies the YAML
// edit and then the server writes the new module.
func (s *Server) eject(ctx context.Context, v *view, arg ejectArgs) error {
	return s.planAndCarryOut(ctx, v, func(v *view) (*analysis.Project, *edit.Change, string, error) {
		a, err := s.locate(ctx, v, arg.URI, nil)
		if err != nil {
			return nil, nil, "", err
		}
		if a.p == nil || a.proj == nil {
			return nil, nil, "", jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s belongs to no Beeuni project (no beeuni.yaml above it)", arg.URI))
		}
		c, err := edit.Eject(a.proj, v.fs, arg.Name, arg.Force)
		if err != nil {
			return nil, nil, "", jsonrpc2.NewError(codeRequestFailed, err.Error())
		}
		return a.proj, c, ": run `beeuni-lsp tools eject " + arg.Name + "` instead", nil
	})
}

// joinRoot joins a repository-relative slash path to root.
func joinRoot(root, rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
