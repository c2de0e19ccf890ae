package lsp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// TestRequestsReadTheSnapshotOfTheirView: a request answers on the
// documents as they were when it arrived (its view), from the engine's
// snapshot of that view, not from the newest analysis nor from what was
// published: a code action asked on version 1, answered after version 2
// fixed the finding, still offers version 1's quick fix.
func TestRequestsReadTheSnapshotOfTheirView(t *testing.T) {
	const manifest = "/ws/beeuni.yaml"
	fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\ntools:\n  web_search: beeuni:web_search\n"))
	s := editorSession(t, fsys, UTF16, "/ws")
	s.open(manifest, "tools:\n  lookup: tools/missing.ts\n")
	s.idle()
	asked := s.srv.currentView() // version 1: T6, the module is missing
	s.change(manifest, 2, "tools:\n  web_search: beeuni:web_search\n")
	s.idle()
	if got := codes(s.lastDiagnostics(), manifest); len(got) != 0 {
		t.Fatalf("version 2 published %v, want nothing", got)
	}
	params, err := json.Marshal(map[string]any{
		"textDocument": map[string]any{"uri": string(pathToURI(manifest))},
		"range":        map[string]any{"start": map[string]any{"line": 1, "character": 12}, "end": map[string]any{"line": 1, "character": 12}},
		"context":      map[string]any{"diagnostics": []any{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := codeAction(context.Background(), s.srv, asked, params)
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, a := range res.([]codeActionJSON) {
		titles = append(titles, a.Title)
	}
	if !strings.Contains(strings.Join(titles, "\n"), "Create tools/missing.ts") {
		t.Errorf("code action asked on version 1: %q, want version 1's T6 fix (Create tools/missing.ts)", titles)
	}
}
