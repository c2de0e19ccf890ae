package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

const agentViewModule = `export default {
  description: 'Look up an order by id.',
  parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  async execute(args: { id: string }) { return { id: args.id } },
}
`

func agentViewManifest(supportTools string) string {
	return "tools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\nagents:\n  support:\n    tools: " + supportTools + "\n  quiet:\n    tools: none\n"
}

// agentViewSession is a session on a project with two agents, its
// manifest open and every pass done.
func agentViewSession(t *testing.T, caps map[string]any) *session {
	t.Helper()
	fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+agentViewManifest("[read, web_search, lookup_order]")+"-- tools/lookup_order.ts --\n"+agentViewModule))
	s := startSession(t, fsys, idleHook())
	var res struct {
		Capabilities struct {
			CodeLensProvider       json.RawMessage `json:"codeLensProvider"`
			ExecuteCommandProvider struct {
				Commands []string `json:"commands"`
			} `json:"executeCommandProvider"`
		} `json:"capabilities"`
	}
	s.call("initialize", initParams(map[string]any{"capabilities": caps, "workspaceFolders": []any{map[string]any{"uri": "file:///ws", "name": "ws"}}}), &res)
	s.notify("initialized", map[string]any{})
	if len(res.Capabilities.CodeLensProvider) == 0 {
		t.Fatalf("no code lens provider: the agents' code lenses need one, inlay hints or not")
	}
	if cmds := strings.Join(res.Capabilities.ExecuteCommandProvider.Commands, " "); !strings.Contains(cmds, CommandAgentTools) || strings.Contains(cmds, CommandShowAgentTools) {
		t.Errorf("commands %q: want %s declared, %s left to the clients", cmds, CommandAgentTools, CommandShowAgentTools)
	}
	s.open("/ws/beeuni.yaml", agentViewManifest("[read, web_search, lookup_order]"))
	s.idle()
	return s
}

func (s *session) codeLenses(path string) []protocol.CodeLens {
	s.t.Helper()
	var lenses []protocol.CodeLens
	s.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": string(pathToURI(path))}}, &lenses)
	return lenses
}

// TestAgentCodeLenses: each agent gets a lens with its count of tools and
// token estimate, whose command opens the view of that agent; the lenses
// follow an edit of the agent's list.
func TestAgentCodeLenses(t *testing.T) {
	s := agentViewSession(t, clientCaps(UTF16))
	lenses := s.codeLenses("/ws/beeuni.yaml")
	if len(lenses) != 2 {
		t.Fatalf("lenses %+v, want one per agent (a client with inlay hints gets no hint lenses)", lenses)
	}
	want := []struct {
		line  uint32
		name  string
		title string
	}{
		{4, "support", "3 tools · ≈"},
		{6, "quiet", "0 tools · ≈0 tokens"},
	}
	for i, w := range want {
		l := lenses[i]
		if l.Range.Start != (protocol.Position{Line: w.line, Character: 2}) || l.Command == nil || l.Command.Command != CommandShowAgentTools {
			t.Fatalf("lens %d: %+v, want %s on line %d with %s", i, l, w.name, w.line, CommandShowAgentTools)
		}
		if !strings.HasPrefix(l.Command.Title, w.title) {
			t.Errorf("lens %d title %q, want it to start with %q", i, l.Command.Title, w.title)
		}
		args, _ := json.Marshal(l.Command.Arguments)
		if got, want := string(args), `[{"name":"`+w.name+`","uri":"file:///ws/beeuni.yaml"}]`; got != want {
			t.Errorf("lens %d arguments %s, want %s", i, got, want)
		}
	}
	if title := lenses[0].Command.Title; !strings.HasSuffix(title, "tokens + 1 tool not known") {
		t.Errorf("support's title %q: want the harness tool `read` counted as not known", title)
	}

	s.change("/ws/beeuni.yaml", 2, agentViewManifest("[web_search, lookup_order]"))
	s.idle()
	lenses = s.codeLenses("/ws/beeuni.yaml")
	if len(lenses) != 2 || !strings.HasPrefix(lenses[0].Command.Title, "2 tools · ≈") || strings.Contains(lenses[0].Command.Title, "not known") {
		t.Errorf("after the edit: lenses %+v, want support with 2 tools, all known", lenses)
	}
}

// TestAgentCodeLensesWithoutInlayHints: a client without inlay hints gets
// the agents' lenses and the hints as lenses.
func TestAgentCodeLensesWithoutInlayHints(t *testing.T) {
	caps := clientCaps(UTF16)
	delete(caps["textDocument"].(map[string]any), "inlayHint")
	s := agentViewSession(t, caps)
	lenses := s.codeLenses("/ws/beeuni.yaml")
	var agents, hints int
	for _, l := range lenses {
		if l.Command != nil && l.Command.Command == CommandShowAgentTools {
			agents++
		} else {
			hints++
		}
	}
	if agents != 2 || hints != 2 {
		t.Errorf("lenses %+v: want 2 on agents and 2 hints", lenses)
	}
}

// TestAgentToolsCommand: beeuni.agentTools returns the view as text and
// JSON, each tool's definition as the model receives it (the module's
// from the module pass, the Beeuni tool's from its embedded source, the
// harness tool's marked not known); an unknown agent is an error naming
// the agents there are. The lens's command, sent to the server, answers
// the same.
func TestAgentToolsCommand(t *testing.T) {
	s := agentViewSession(t, clientCaps(UTF16))
	for _, cmd := range []string{CommandAgentTools, CommandShowAgentTools} {
		var res struct {
			Text string `json:"text"`
			View struct {
				Agent string `json:"agent"`
				Tools []struct {
					Name        string          `json:"name"`
					Kind        string          `json:"kind"`
					Source      string          `json:"source"`
					Description *string         `json:"description"`
					Parameters  json.RawMessage `json:"parameters"`
					Unknown     []struct {
						Path string `json:"path"`
					} `json:"unknown"`
				} `json:"tools"`
				Bytes          int    `json:"bytes"`
				TokensEstimate int    `json:"tokens_estimate"`
				Method         string `json:"tokens_estimate_method"`
			} `json:"view"`
		}
		s.call("workspace/executeCommand", map[string]any{"command": cmd, "arguments": []any{map[string]any{"uri": "file:///ws/beeuni.yaml", "name": "support"}}}, &res)
		v := res.View
		if v.Agent != "support" || len(v.Tools) != 3 {
			t.Fatalf("%s: view %+v, want support's three tools", cmd, v)
		}
		read, web, order := v.Tools[0], v.Tools[1], v.Tools[2]
		if read.Name != "read" || read.Kind != "harness" || read.Description != nil || string(read.Parameters) != "null" || len(read.Unknown) != 2 {
			t.Errorf("%s: read %+v, want a harness tool with description and parameters not known", cmd, read)
		}
		if web.Name != "web_search" || web.Source != "beeuni:web_search" || web.Description == nil || !strings.HasPrefix(*web.Description, "Search the web.") || len(web.Unknown) != 0 {
			t.Errorf("%s: web_search %+v, want its embedded source's description", cmd, web)
		}
		if order.Name != "lookup_order" || order.Kind != "project" || order.Description == nil || *order.Description != "Look up an order by id." ||
			string(order.Parameters) != `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}` {
			t.Errorf("%s: lookup_order %+v %s, want the module's description and parameters", cmd, order, order.Parameters)
		}
		if v.Bytes == 0 || v.TokensEstimate != (v.Bytes+3)/4 || !strings.Contains(v.Method, "bytes / 4") {
			t.Errorf("%s: %d bytes, %d tokens by %q: want the estimate bytes / 4", cmd, v.Bytes, v.TokensEstimate, v.Method)
		}
		if !strings.HasPrefix(res.Text, "What agent support's model sees: 3 tools") || !strings.Contains(res.Text, "lookup_order · project · tools/lookup_order.ts") {
			t.Errorf("%s: text\n%s\nwant the view as `tools ls --agent` prints it", cmd, res.Text)
		}
	}
	// Broken YAML while typing: the view is the last parse's.
	s.change("/ws/beeuni.yaml", 2, agentViewManifest("[read, web_search, lookup_order")+"  x: [\n")
	s.idle()
	var broken struct {
		Text string `json:"text"`
	}
	s.call("workspace/executeCommand", map[string]any{"command": CommandAgentTools, "arguments": []any{map[string]any{"uri": "file:///ws/beeuni.yaml", "name": "support"}}}, &broken)
	if !strings.HasPrefix(broken.Text, "What agent support's model sees: 3 tools") {
		t.Errorf("broken YAML: text\n%s\nwant the last parse's view", broken.Text)
	}
	e := s.callErr("workspace/executeCommand", map[string]any{"command": CommandAgentTools, "arguments": []any{map[string]any{"uri": "file:///ws/beeuni.yaml", "name": "nobody"}}})
	if e == nil || e.Code != int(codeRequestFailed) || !strings.Contains(e.Message, "the agents are support, quiet") {
		t.Errorf("unknown agent: error %+v, want %d naming support, quiet", e, codeRequestFailed)
	}
}

// TestAgentHoverShowsWhatTheModelGets: the agent's hover adds the size,
// the labelled estimate and one line per tool.
func TestAgentHoverShowsWhatTheModelGets(t *testing.T) {
	s := agentViewSession(t, clientCaps(UTF16))
	var h protocol.Hover
	s.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///ws/beeuni.yaml"}, "position": protocol.Position{Line: 4, Character: 4}}, &h)
	for _, want := range []string{
		"**Agent `support`'s model sees 3 tools**",
		"**What the model gets:** 3 tools · ",
		"tokens (an estimate: bytes / 4, rounded up; no tokenizer is run)",
		"- `read` · harness · 15 bytes · _description not known_",
		"- `lookup_order` · project · ",
		" bytes · Look up an order by id.",
	} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover\n%s\ndoes not say %q", h.Contents.Value, want)
		}
	}
}
