package lsp

import (
	"encoding/json"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// TestWillRenameFilesFollowsTheMove: moving a folder of modules gets the
// edits of every manifest that names a module in it, the open one naming
// its document version (after the user typed), the closed one null; a
// move no path names gets null.
func TestWillRenameFilesFollowsTheMove(t *testing.T) {
	fsys := vfs.NewMem()
	fsys.WriteFile("/ws/beeuni.yaml", []byte("# 日本語 😀\nimports: [shared.yaml]\ntools:\n  lookup: tools/lookup.ts\n"))
	fsys.WriteFile("/ws/shared.yaml", []byte("tools:\n  crm: 'tools/crm.ts'\n"))
	fsys.WriteFile("/ws/tools/lookup.ts", []byte("export default {}\n"))
	fsys.WriteFile("/ws/tools/crm.ts", []byte("export default {}\n"))
	for _, enc := range []Encoding{UTF16, UTF8} {
		t.Run(string(enc), func(t *testing.T) {
			s := editorSession(t, fsys, enc, "/ws")
			s.open("/ws/beeuni.yaml", "# 日本語 😀\nimports: [shared.yaml]\ntools:\n  lookup: tools/lookup.ts\n")
			s.notify("textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": string(pathToURI("/ws/beeuni.yaml")), "version": 7},
				"contentChanges": []any{map[string]any{"text": "# 日本語 😀 🎉\nimports: [shared.yaml]\ntools:\n  lookup: tools/lookup.ts\n"}},
			})
			s.idle()
			var we json.RawMessage
			s.call(protocol.MethodWillRenameFiles, map[string]any{"files": []any{map[string]any{
				"oldUri": string(pathToURI("/ws/tools")), "newUri": string(pathToURI("/ws/src/tools")),
			}}}, &we)
			edits, versions := textEditsOf(t, we)
			root, shared := pathToURI("/ws/beeuni.yaml"), pathToURI("/ws/shared.yaml")
			want := map[protocol.DocumentURI][]protocol.TextEdit{
				root:   {{Range: protocol.Range{Start: protocol.Position{Line: 3, Character: 10}, End: protocol.Position{Line: 3, Character: 25}}, NewText: "src/tools/lookup.ts"}},
				shared: {{Range: protocol.Range{Start: protocol.Position{Line: 1, Character: 8}, End: protocol.Position{Line: 1, Character: 20}}, NewText: "src/tools/crm.ts"}},
			}
			if len(edits) != len(want) {
				t.Fatalf("edits %v, want %v", edits, want)
			}
			for uri, es := range want {
				if len(edits[uri]) != 1 || edits[uri][0] != es[0] {
					t.Errorf("%s: edits %v, want %v", uri, edits[uri], es)
				}
			}
			if v := versions[root]; v == nil || *v != 7 {
				t.Errorf("the open manifest's edit names version %v, want 7", v)
			}
			if v, ok := versions[shared]; !ok || v != nil {
				t.Errorf("the closed file's edit names version %v, want null", v)
			}

			var none json.RawMessage
			s.call(protocol.MethodWillRenameFiles, map[string]any{"files": []any{map[string]any{
				"oldUri": string(pathToURI("/ws/notes.md")), "newUri": string(pathToURI("/ws/docs/notes.md")),
			}}}, &none)
			if string(none) != "null" {
				t.Errorf("a move no path names: %s, want null", none)
			}
		})
	}
}
