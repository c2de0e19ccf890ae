package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// rangesOf reads the text of many protocol ranges (UTF-16 columns) of
// one text: the line index is built once (a test reading 20,000 ranges of
// a 10,000-line text spent 80 s under -race indexing it again for each).
func rangesOf(text string) func(protocol.Range) string {
	m := NewMapper([]byte(text), UTF16)
	return func(r protocol.Range) string {
		start, end := m.Offsets(r)
		return text[start:end]
	}
}

// With a syntax error, the outline and the links come from the last load
// that parsed, mapped into the edited text: on 10,000 tools with edits at
// the top and the bottom, every tool's symbol and link still covers its
// own key and path (the old mapping gave up beyond 2,048 lines by 2,048
// and sent every range to the start of the file, after tens of seconds).
func TestOutlineAndLinksAfterSyntaxErrorStayOnTheirText(t *testing.T) {
	const n = 10000
	fsys, text := typoManifest(n)
	s := editorSession(t, fsys, UTF16, "/ws")
	s.open("/ws/beeuni.yaml", text)
	s.idle()
	edited := typoEdits(s, text, 2)
	s.idle()
	doc := map[string]any{"textDocument": map[string]any{"uri": "file:///ws/beeuni.yaml"}}
	inEdited := rangesOf(edited)

	var syms []protocol.DocumentSymbol
	s.call("textDocument/documentSymbol", doc, &syms)
	var tools []protocol.DocumentSymbol
	for _, sym := range syms {
		if sym.Name == "tools" {
			tools = sym.Children
		}
	}
	if len(tools) != n {
		t.Fatalf("the outline's tools section has %d symbols, want %d", len(tools), n)
	}
	for i, sym := range tools {
		want := fmt.Sprintf("tool_%d", i)
		if got := inEdited(sym.SelectionRange); sym.Name != want || got != want {
			t.Fatalf("symbol %d: %q selecting %q in the edited text, want %q", i, sym.Name, got, want)
		}
		if got := inEdited(sym.Range); !strings.HasPrefix(got, want+":") {
			t.Fatalf("symbol %s: range covers %q", want, got)
		}
	}

	var links []protocol.DocumentLink
	s.call("textDocument/documentLink", doc, &links)
	if len(links) != n {
		t.Fatalf("%d links, want %d", len(links), n)
	}
	for i, l := range links {
		want := fmt.Sprintf("tools/tool_%d.ts", i)
		if got := inEdited(l.Range); got != want || !strings.HasSuffix(string(l.Target), "/"+want) {
			t.Fatalf("link %d: covers %q, targets %s; want %s", i, got, l.Target, want)
		}
	}
}

// A request whose context ends stops converting its results and answers
// with the context's error (the server then answers RequestCancelled),
// rather than finishing the work first.
func TestFeatureRequestsStopWhenCancelled(t *testing.T) {
	fsys, text := typoManifest(50)
	s := editorSession(t, fsys, UTF16, "/ws")
	s.open("/ws/beeuni.yaml", text)
	s.idle()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// workspace/symbol reads the latest analysis, which must parse.
	if res, err := s.srv.requests["workspace/symbol"].handler(ctx, s.srv, s.srv.currentView(), json.RawMessage(`{"query":"tool"}`)); err == nil {
		t.Errorf("workspace/symbol with its context cancelled: answered %d symbols, want the context's error", len(res.([]protocol.SymbolInformation)))
	}
	typoEdits(s, text, 2)
	s.idle()
	at := strings.Index(text, "tool_1:")
	for _, method := range []string{"textDocument/documentSymbol", "textDocument/documentLink", "textDocument/references", "textDocument/documentHighlight", "textDocument/rename"} {
		params, err := json.Marshal(map[string]any{
			"textDocument": map[string]any{"uri": "file:///ws/beeuni.yaml"},
			"position":     refPosition([]byte(text), at, UTF16),
			"context":      map[string]any{"includeDeclaration": true},
			"newName":      "renamed_tool",
		})
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.srv.requests[method].handler(ctx, s.srv, s.srv.currentView(), params)
		if err == nil {
			t.Errorf("%s with its context cancelled: answered %v, want the context's error", method, res)
		}
	}
}
