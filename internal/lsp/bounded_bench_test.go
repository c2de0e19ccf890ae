package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// typoManifest is issue 12's outline case: a head comment, n project
// tools with their modules, and an agent.
func typoManifest(n int) (*vfs.Mem, string) {
	fsys := vfs.NewMem()
	var b strings.Builder
	b.WriteString("# head comment\ntools:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  tool_%d: tools/tool_%d.ts\n", i, i)
		fsys.WriteFile(fmt.Sprintf("/ws/tools/tool_%d.ts", i), []byte("export default {}\n"))
	}
	b.WriteString("agents:\n  a:\n    tools: [tool_1]\n")
	fsys.WriteFile("/ws/beeuni.yaml", []byte(b.String()))
	return fsys, b.String()
}

// typoEdits are the didChange: `X` typed at 0:2 and `bad: [`
// added as the last line, a syntax error (the features then answer from
// the last load that parsed, mapped into the edited text). It returns
// the edited text.
func typoEdits(s *session, text string, version int) string {
	last := strings.Count(text, "\n")
	s.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": "file:///ws/beeuni.yaml", "version": version},
		"contentChanges": []any{
			map[string]any{"range": protocol.Range{Start: protocol.Position{Line: 0, Character: 2}, End: protocol.Position{Line: 0, Character: 2}}, "text": "X"},
			map[string]any{"range": protocol.Range{Start: protocol.Position{Line: uint32(last)}, End: protocol.Position{Line: uint32(last)}}, "text": "bad: [\n"},
		},
	})
	return text[:2] + "X" + text[2:] + "bad: [\n"
}

// benchAfterTypo times method's handler (the server's work: the document
// located, the features, each range mapped into the edited text) on the
// 10,000-tool manifest after the typo edits.
func benchAfterTypo(b *testing.B, method string, minResults int) {
	fsys, text := typoManifest(10000)
	s := editorSession(b, fsys, UTF16, "/ws")
	s.open("/ws/beeuni.yaml", text)
	s.idle()
	typoEdits(s, text, 2)
	s.idle()
	params, err := json.Marshal(map[string]any{"textDocument": map[string]any{"uri": "file:///ws/beeuni.yaml"}})
	if err != nil {
		b.Fatal(err)
	}
	h, v := s.srv.requests[method].handler, s.srv.currentView()
	var lat latencies
	b.ResetTimer()
	cpu0, cpuOK := processCPUTime()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res, err := h(context.Background(), s.srv, v, params)
		lat = append(lat, time.Since(start))
		if err != nil || reflect.ValueOf(res).Len() < minResults {
			b.Fatalf("%s: %v, %d results", method, err, reflect.ValueOf(res).Len())
		}
	}
	b.StopTimer()
	if cpu1, _ := processCPUTime(); cpuOK {
		// CPU time beside wall time: on a shared machine wall time
		// mostly measures the other processes.
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
	}
	lat.report(b)
}

// BenchmarkOutlineAfterSyntaxError: textDocument/documentSymbol on 10,000
// tools with a syntax error.
func BenchmarkOutlineAfterSyntaxError(b *testing.B) {
	benchAfterTypo(b, "textDocument/documentSymbol", 2) // tools, agents
}

// BenchmarkLinksAfterSyntaxError: textDocument/documentLink on 10,000
// tools with a syntax error.
func BenchmarkLinksAfterSyntaxError(b *testing.B) {
	benchAfterTypo(b, "textDocument/documentLink", 10000)
}
