package lsp

import (
	"encoding/json"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// A YAML file under a project root that is neither the manifest nor one of
// its imports (a CI workflow, a note) gets complete empty answers: no
// completion list marked incomplete, which the client would ask for again
// on every keystroke, and no hover, symbols, folding or links from the
// manifest's rules. The files the project holds keep their answers, also
// under a languageId of their own ("beeuni", as the clients send for
// beeuni.yaml).
func TestFilesTheProjectDoesNotHoldGetCompleteEmptyAnswers(t *testing.T) {
	const manifest = "imports:\n  - shared.yaml\ntools:\n  web_search: beeuni:web_search\n"
	const shared = "tools:\n  \n"
	const workflow = "name: ci\non: [push]\njobs:\n  b\nt\n"
	fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+manifest+"-- shared.yaml --\n"+shared+
		"-- .github/workflows/ci.yml --\n"+workflow+"-- notes.yaml --\n"+workflow))
	s := editorSession(t, fsys, UTF8, "/ws")
	s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": string(pathToURI("/ws/beeuni.yaml")), "languageId": "beeuni", "version": 1, "text": manifest,
	}})
	s.open("/ws/shared.yaml", shared)
	s.open("/ws/.github/workflows/ci.yml", workflow)
	s.open("/ws/notes.yaml", workflow)
	s.idle()

	pos := func(path string, line, char int) map[string]any {
		return map[string]any{"textDocument": map[string]any{"uri": string(pathToURI(path))}, "position": map[string]any{"line": line, "character": char}}
	}
	doc := func(path string) map[string]any {
		return map[string]any{"textDocument": map[string]any{"uri": string(pathToURI(path))}}
	}
	type list struct {
		IsIncomplete bool              `json:"isIncomplete"`
		Items        []json.RawMessage `json:"items"`
	}
	for _, path := range []string{"/ws/.github/workflows/ci.yml", "/ws/notes.yaml"} {
		var got list
		s.call("textDocument/completion", pos(path, 3, 3), &got)
		var got2 list
		s.call("textDocument/completion", pos(path, 4, 1), &got2)
		if got2.IsIncomplete || len(got2.Items) != 0 {
			t.Errorf("%s: top-level completion isIncomplete=%v with %d items, want a complete empty list", path, got2.IsIncomplete, len(got2.Items))
		}
		if got.IsIncomplete || len(got.Items) != 0 {
			t.Errorf("%s: completion isIncomplete=%v with %d items, want a complete empty list", path, got.IsIncomplete, len(got.Items))
		}
		for _, req := range []struct {
			method string
			params any
		}{
			{"textDocument/hover", pos(path, 2, 1)},
			{"textDocument/documentSymbol", doc(path)},
			{"textDocument/foldingRange", doc(path)},
			{"textDocument/documentLink", doc(path)},
		} {
			var raw json.RawMessage
			s.call(req.method, req.params, &raw)
			if s := string(raw); s != "null" && s != "[]" && s != "" {
				t.Errorf("%s: %s answered %s, want nothing", path, req.method, s)
			}
		}
	}
	// The manifest and its import still get their answers.
	for _, c := range []struct {
		path       string
		line, char int
	}{{"/ws/shared.yaml", 1, 2}, {"/ws/beeuni.yaml", 3, 2}} {
		var got list
		s.call("textDocument/completion", pos(c.path, c.line, c.char), &got)
		if len(got.Items) == 0 {
			t.Errorf("%s: no completion, want tool names", c.path)
		}
	}
	var symbols []json.RawMessage
	s.call("textDocument/documentSymbol", doc("/ws/beeuni.yaml"), &symbols)
	if len(symbols) == 0 {
		t.Errorf("beeuni.yaml (languageId beeuni): no document symbols")
	}
}
