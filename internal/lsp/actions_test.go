package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

const actionsManifest = `# 日本語 😀
tools:
  web_search: beeuni:web_search # maintained by Beeuni, updated automatically
  memory: beeuni:memory
agents:
  r:
    tools: [web_serch]
`

func (s *session) codeActions(path, text, at string) []codeActionJSON {
	s.t.Helper()
	off := strings.Index(text, at)
	if off < 0 {
		s.t.Fatalf("%q not in the text", at)
	}
	p := refPosition([]byte(text), off, UTF16)
	var out []codeActionJSON
	s.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": string(pathToURI(path))},
		"range":        protocol.Range{Start: p, End: p},
		"context":      map[string]any{"diagnostics": []any{}},
	}, &out)
	return out
}

func findAction(actions []codeActionJSON, titlePart string) *codeActionJSON {
	for i := range actions {
		if strings.Contains(actions[i].Title, titlePart) {
			return &actions[i]
		}
	}
	return nil
}

func titles(actions []codeActionJSON) []string {
	var out []string
	for _, a := range actions {
		out = append(out, a.Title)
	}
	return out
}

func TestQuickFixAndEjectActions(t *testing.T) {
	fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+actionsManifest))
	s := editorSession(t, fsys, UTF16, "/ws")
	s.open("/ws/beeuni.yaml", actionsManifest)
	s.idle()

	fixes := s.codeActions("/ws/beeuni.yaml", actionsManifest, "web_serch]")
	fix := findAction(fixes, "web_search")
	if fix == nil || fix.Kind != "quickfix" || fix.Edit == nil {
		t.Fatalf("no quick fix for the typo; got %v", titles(fixes))
	}
	byURI, _ := textEditsOf(t, fix.Edit)
	edits := byURI[pathToURI("/ws/beeuni.yaml")]
	if len(edits) != 1 || edits[0].NewText != "web_search" {
		t.Errorf("quick fix edits %+v, want web_serch replaced by web_search", edits)
	}
	line := uint32(strings.Count(actionsManifest[:strings.Index(actionsManifest, "web_serch]")], "\n"))
	if edits[0].Range.Start.Line != line {
		t.Errorf("quick fix on line %d, want %d", edits[0].Range.Start.Line, line)
	}

	actions := s.codeActions("/ws/beeuni.yaml", actionsManifest, "web_search: beeuni")
	eject := findAction(actions, "web_search")
	if eject == nil || eject.Kind != "refactor.rewrite" || eject.Edit == nil {
		t.Fatalf("no eject action; got %v", titles(actions))
	}
	data, _ := json.Marshal(eject.Edit.DocumentChanges)
	for _, want := range []string{`"kind":"create"`, "tools/web_search.ts", "ejected from beeuni:web_search"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("eject edit lacks %s: %s", want, data)
		}
	}

	// After applying the edit, the client runs the action's command: the
	// server asks it to show the new module.
	if eject.Command == nil || eject.Command.Command != CommandShowDocument {
		t.Fatalf("eject action command %+v, want %s", eject.Command, CommandShowDocument)
	}
	var shown []json.RawMessage
	s.serverCalls["window/showDocument"] = func(p json.RawMessage) any {
		shown = append(shown, p)
		return map[string]any{"success": true}
	}
	s.call("workspace/executeCommand", map[string]any{"command": eject.Command.Command, "arguments": eject.Command.Arguments}, nil)
	if len(shown) != 1 || !strings.Contains(string(shown[0]), string(pathToURI("/ws/tools/web_search.ts"))) {
		t.Errorf("showDocument requests after the eject edit: %s", shown)
	}

	// A quick fix that creates nothing has no command.
	if fix.Command != nil {
		t.Errorf("quick fix command %+v, want none", fix.Command)
	}
}

func TestEjectWithoutResourceOperations(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "beeuni.yaml")
	if err := os.WriteFile(manifest, []byte(actionsManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startSession(t, vfs.NewDisk(), idleHook())
	var applied []json.RawMessage
	var shown []json.RawMessage
	s.serverCalls["workspace/applyEdit"] = func(p json.RawMessage) any {
		applied = append(applied, p)
		return map[string]any{"applied": true}
	}
	s.serverCalls["window/showDocument"] = func(p json.RawMessage) any {
		shown = append(shown, p)
		return map[string]any{"success": true}
	}
	caps := clientCaps(UTF16)
	caps["workspace"].(map[string]any)["workspaceEdit"] = map[string]any{"documentChanges": true}
	s.initialize(initParams(map[string]any{"capabilities": caps, "workspaceFolders": []any{map[string]any{"uri": string(pathToURI(dir)), "name": "ws"}}}))
	s.open(manifest, actionsManifest)
	s.idle()

	actions := s.codeActions(manifest, actionsManifest, "web_search: beeuni")
	eject := findAction(actions, "web_search")
	if eject == nil || eject.Command == nil || eject.Command.Command != CommandEject {
		t.Fatalf("without resource operations the eject action should be the %s command; got %+v", CommandEject, actions)
	}

	var ejectable []string
	s.call("workspace/executeCommand", map[string]any{"command": CommandEjectableTools, "arguments": []any{map[string]any{"uri": string(pathToURI(manifest))}}}, &ejectable)
	// Eject also adds a Beeuni tool the manifest does not list yet.
	if !slices.Equal(ejectable, []string{"web_search", "image_search", "scrape_webpage", "memory", "show"}) {
		t.Errorf("ejectable tools %v, want all five", ejectable)
	}

	var tools struct {
		Manifest string `json:"manifest"`
		ToolsKey bool   `json:"tools_key"`
		Tools    []struct {
			Name, Kind, Source string
		} `json:"tools"`
		Removed []string `json:"removed"`
		Table   string   `json:"table"`
		Agents  []struct {
			Name  string   `json:"name"`
			Tools []string `json:"tools"`
		} `json:"agents"`
	}
	s.call("workspace/executeCommand", map[string]any{"command": CommandSessionTools, "arguments": []any{map[string]any{"uri": string(pathToURI(manifest))}}}, &tools)
	if tools.Manifest != "beeuni.yaml" || !tools.ToolsKey || len(tools.Tools) != 2 || !strings.HasPrefix(tools.Table, "NAME") || len(tools.Agents) != 1 {
		t.Errorf("sessionTools answer: %+v", tools)
	}
	if !slices.Equal(tools.Removed, []string{"image_search", "scrape_webpage", "show"}) {
		t.Errorf("removed %v", tools.Removed)
	}

	s.call("workspace/executeCommand", map[string]any{"command": CommandEject, "arguments": eject.Command.Arguments}, nil)
	module := filepath.Join(dir, "tools", "web_search.ts")
	if data, err := os.ReadFile(module); err != nil || len(data) == 0 {
		t.Fatalf("the server did not write %s: %v", module, err)
	}
	if len(applied) != 1 || !strings.Contains(string(applied[0]), `"newText":"tools/web_search.ts"`) || !strings.Contains(string(applied[0]), "# ejected from beeuni:web_search") {
		t.Errorf("applyEdit requests: %s", applied)
	}
	if len(shown) != 1 || !strings.Contains(string(shown[0]), "web_search.ts") {
		t.Errorf("showDocument requests: %s", shown)
	}
	// A second eject is refused: the file exists now.
	if e := s.callErr("workspace/executeCommand", map[string]any{"command": CommandEject, "arguments": eject.Command.Arguments}); e == nil || !strings.Contains(e.Message, "exists") {
		t.Errorf("second eject: %+v, want a refusal that says the file exists", e)
	}
}
