package lsp

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// TestTypingAfterFilesChange: the engine keeps the outcome of each manifest
// entry between keystrokes (analysis.Cache's memo), including whether its
// module exists (T6). A module created or deleted on disk, or opened in the
// editor before it exists on disk, must show through the keystrokes that
// follow, in a manifest large enough to be parsed by chunks.
func TestTypingAfterFilesChange(t *testing.T) {
	var b strings.Builder
	b.WriteString("# tools\ntools:\n  web_search: beeuni:web_search\n")
	for i := 0; i < 600; i++ {
		fmt.Fprintf(&b, "  tool_%03d: tools/tool_%03d.ts\n", i, i)
	}
	manifest := b.String()
	fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+manifest))
	for i := 0; i < 600; i++ {
		if i != 7 {
			fsys.WriteFile(fmt.Sprintf("/ws/tools/tool_%03d.ts", i), []byte("export default { description: 'Do.', parameters: { type: 'object', properties: {} }, execute() { return 'ok' } }\n"))
		}
	}
	s := editorSession(t, fsys, UTF16, "/ws")
	s.open("/ws/beeuni.yaml", manifest)
	s.idle()
	version := 1
	typeInComment := func() {
		t.Helper()
		version++
		manifest = strings.Replace(manifest, "# tools", "# tools.", 1)
		s.change("/ws/beeuni.yaml", version, manifest)
		s.idle()
	}
	want := func(step string, codesWant ...string) {
		t.Helper()
		if got := codes(s.lastDiagnostics(), "/ws/beeuni.yaml"); !slices.Equal(got, codesWant) {
			t.Fatalf("%s: codes %v, want %v", step, got, codesWant)
		}
	}
	want("tool_007's module missing", "T6")
	typeInComment()
	want("a keystroke later", "T6")

	fsys.WriteFile("/ws/tools/tool_007.ts", []byte("export default { description: 'Do.', parameters: { type: 'object', properties: {} }, execute() { return 'ok' } }\n"))
	s.watched(fileEvent("/ws/tools/tool_007.ts", 1))
	s.idle()
	want("module created")
	typeInComment()
	want("module created, then a keystroke")

	fsys.Remove("/ws/tools/tool_300.ts")
	s.watched(fileEvent("/ws/tools/tool_300.ts", 3))
	s.idle()
	want("another module deleted", "T6")
	typeInComment()
	want("module deleted, then a keystroke", "T6")

	// A module opened in the editor before it is saved exists for the
	// session's view; closed unsaved, it is missing again.
	s.open("/ws/tools/tool_300.ts", "export default { description: 'Do.', parameters: { type: 'object', properties: {} }, execute() { return 'ok' } }\n")
	s.idle()
	typeInComment()
	want("module open in the editor, then a keystroke")
	s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": string(pathToURI("/ws/tools/tool_300.ts"))}})
	s.idle()
	typeInComment()
	want("module closed unsaved, then a keystroke", "T6")
}
