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

// TestClosingAnUnchangedModuleCostsNothing: a module opened and closed
// without unsaved changes reads the same from the disk as from the buffer,
// so closing it runs no module pass (at 10,000 tools one re-hashes every
// module) and the diagnostics stay; a module closed with unsaved changes is
// read from the disk again.
func TestClosingAnUnchangedModuleCostsNothing(t *testing.T) {
	const manifest = "tools:\n  web_search: beeuni:web_search\n  lookup: tools/lookup.ts\n"
	const good = "export default { description: 'Look up.', parameters: { type: 'object', properties: {} }, execute() { return 'ok' } }\n"
	fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+manifest+"-- tools/lookup.ts --\n"+good))
	s := editorSession(t, fsys, UTF16, "/ws")
	s.open("/ws/beeuni.yaml", manifest)
	s.idle()
	passes := func() uint64 { return s.srv.ws.eng.ModulePasses("/ws") }
	closeDoc := func(path string) {
		s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": string(pathToURI(path))}})
	}
	s.open("/ws/tools/lookup.ts", good)
	s.idle()
	before := passes()
	closeDoc("/ws/tools/lookup.ts")
	s.idle()
	if got := passes(); got != before {
		t.Errorf("closing a module as it is on disk ran %d module passes", got-before)
	}
	if got := codes(s.lastDiagnostics(), "/ws/beeuni.yaml"); len(got) != 0 {
		t.Fatalf("after closing the unchanged module: codes %v, want none", got)
	}

	// Broken in the buffer, closed without saving: the disk's good module
	// counts again.
	s.open("/ws/tools/lookup.ts", good)
	s.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": string(pathToURI("/ws/tools/lookup.ts")), "version": 2},
		"contentChanges": []any{map[string]any{"text": "export default {\n"}},
	})
	s.idle()
	if got := codes(s.lastDiagnostics(), "/ws/beeuni.yaml"); !slices.Equal(got, []string{"T11"}) {
		t.Fatalf("module broken in the buffer: codes %v, want [T11]", got)
	}
	before = passes()
	closeDoc("/ws/tools/lookup.ts")
	s.idle()
	if passes() == before {
		t.Errorf("closing a module with unsaved changes ran no module pass")
	}
	if got := codes(s.lastDiagnostics(), "/ws/beeuni.yaml"); len(got) != 0 {
		t.Fatalf("module closed without saving its breakage: codes %v, want none", got)
	}
}
