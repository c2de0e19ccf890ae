package lsp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

const wireManifest = `tools:
  web_search: beeuni:web_search
  notes: tools/notes.ts
agents:
  r:
    tools: [notes]
`

// TestServerMessagesKeepTheirWireForm pins the JSON of every message the
// server builds from typed structs (protocol317.go and go.lsp.dev/protocol)
// to testdata/wire/server_messages.txtar: the requests it sends the client
// (file watchers, configuration, progress, applyEdit, showDocument), its
// progress notifications, and the answers of initialize (its
// capabilities), prepareRename and beeuni.sessionTools. Values are compared, not bytes (the order of keys
// is free in JSON); the folder's URI is written $WS.
func TestServerMessagesKeepTheirWireForm(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "beeuni.yaml")
	if err := os.WriteFile(manifest, []byte(wireManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startSession(t, vfs.NewDisk(), idleHook())
	s.serverCalls["workspace/configuration"] = func(json.RawMessage) any { return []any{map[string]any{"inspectModules": false}} }
	s.serverCalls["workspace/applyEdit"] = func(json.RawMessage) any { return map[string]any{"applied": true} }
	s.serverCalls["window/showDocument"] = func(json.RawMessage) any { return map[string]any{"success": true} }
	caps := clientCaps(UTF16)
	caps["workspace"].(map[string]any)["workspaceEdit"] = map[string]any{"documentChanges": true}
	var init struct {
		Capabilities json.RawMessage `json:"capabilities"`
	}
	s.call(protocol.MethodInitialize, initParams(map[string]any{"capabilities": caps, "workspaceFolders": []any{map[string]any{"uri": string(pathToURI(dir)), "name": "ws"}}}), &init)
	s.notify(protocol.MethodInitialized, map[string]any{})
	s.waitNote(0, func(m *wireMsg) bool {
		return m.Method == protocol.MethodProgress && strings.Contains(string(m.Params), `"end"`)
	})
	s.open(manifest, wireManifest)
	s.idle()

	got := map[string]json.RawMessage{"initialize capabilities": init.Capabilities}
	var rename json.RawMessage
	at := strings.Index(wireManifest, "[notes]") + 1
	s.call(protocol.MethodTextDocumentPrepareRename, map[string]any{
		"textDocument": map[string]any{"uri": string(pathToURI(manifest))},
		"position":     refPosition([]byte(wireManifest), at, UTF16),
	}, &rename)
	got[protocol.MethodTextDocumentPrepareRename] = rename
	var tools json.RawMessage
	s.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": CommandSessionTools, "arguments": []any{map[string]any{"uri": string(pathToURI(manifest))}}}, &tools)
	got[CommandSessionTools] = tools
	eject := findAction(s.codeActions(manifest, wireManifest, "web_search: beeuni"), "web_search")
	if eject == nil || eject.Command == nil || eject.Command.Command != CommandEject {
		t.Fatalf("eject action: %+v, want the %s command", eject, CommandEject)
	}
	s.call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": CommandEject, "arguments": eject.Command.Arguments}, nil)

	for _, r := range s.requests() {
		got[r.Method] = r.Params
	}
	var progress []json.RawMessage
	for _, n := range s.notesSnapshot() {
		if n.Method == protocol.MethodProgress {
			progress = append(progress, n.Params)
		}
	}
	got[protocol.MethodProgress], _ = json.Marshal(progress)

	data, err := os.ReadFile("testdata/wire/server_messages.txtar")
	if err != nil {
		t.Fatal(err)
	}
	ws := string(pathToURI(dir))
	for _, f := range txtar.Parse(data).Files {
		raw, ok := got[f.Name]
		if !ok {
			t.Errorf("%s: the server sent no such message", f.Name)
			continue
		}
		raw = bytes.ReplaceAll(raw, []byte(ws), []byte("$WS"))
		var have, want any
		if err := json.Unmarshal(raw, &have); err != nil {
			t.Fatalf("%s: %v: %s", f.Name, err, raw)
		}
		if err := json.Unmarshal(f.Data, &want); err != nil {
			t.Fatalf("%s: the golden JSON: %v", f.Name, err)
		}
		if !reflect.DeepEqual(have, want) {
			pretty, _ := json.MarshalIndent(have, "", "  ")
			t.Errorf("%s: got\n%s", f.Name, pretty)
		}
	}
}
