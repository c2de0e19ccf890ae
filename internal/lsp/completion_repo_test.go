package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// TestCompletionScansTheRepositoryOnlyToOfferFiles: the first completion
// of a fresh server in an agent's list leaves the repository unscanned (a
// 10,000-module scan made it slow); one under tools: scans it, once.
func TestCompletionScansTheRepositoryOnlyToOfferFiles(t *testing.T) {
	const text = "tools:\n  lookup: tools/lookup.ts\n  \nagents:\n  a:\n    tools: [look]\n"
	fsys := vfs.NewMem()
	fsys.WriteFile("/ws/beeuni.yaml", []byte(text))
	fsys.WriteFile("/ws/tools/lookup.ts", []byte("export default {}\n"))
	fsys.WriteFile("/ws/tools/other.ts", []byte("export default {}\n"))
	s := editorSession(t, fsys, UTF16, "/ws")
	s.open("/ws/beeuni.yaml", text)
	s.idle()
	scanned := func() bool {
		p := s.srv.ws.project("/ws")
		if p == nil {
			t.Fatal("no project /ws")
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.repo != nil
	}
	complete := func(off int) []string {
		var list protocol.CompletionList
		s.call("textDocument/completion", map[string]any{
			"textDocument": map[string]any{"uri": string(pathToURI("/ws/beeuni.yaml"))},
			"position":     refPosition([]byte(text), off, UTF16),
		}, &list)
		return itemLabels(list.Items)
	}
	if got := complete(strings.Index(text, "[look") + len("[look")); len(got) == 0 || got[0] != "lookup" {
		t.Fatalf("completion in the agent's list: %v", got)
	}
	if scanned() {
		t.Error("a completion in an agent's list scanned the repository")
	}
	got := complete(strings.Index(text, "  \nagents") + 2)
	if !scanned() {
		t.Error("a completion under tools: did not scan the repository")
	}
	if !strings.Contains(strings.Join(got, " "), "other") {
		t.Errorf("completion under tools: lacks the module tools/other.ts: %v", got)
	}
}
