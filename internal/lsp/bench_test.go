package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// bigWorkspace is a project of n project tools, each with its module, and
// agents that name some of them.
func bigWorkspace(n int) (*vfs.Mem, string) {
	fsys := vfs.NewMem()
	var b strings.Builder
	b.WriteString("# 日本語 😀\ntools:\n  web_search: beeuni:web_search\n  memory: beeuni:memory\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  tool_%04d: tools/tool_%04d.ts\n", i, i)
		fsys.WriteFile(fmt.Sprintf("/ws/tools/tool_%04d.ts", i), []byte(fmt.Sprintf(
			"export default {\n  description: 'Tool %d.',\n  parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },\n  async execute(args) { return args.id },\n}\n", i)))
	}
	b.WriteString("agents:\n")
	for a := 0; a < 20; a++ {
		fmt.Fprintf(&b, "  agent_%d:\n    tools: [read, bash, tool_%04d, tool_%04d, web_search]\n", a, a, n-1-a)
	}
	b.WriteString("  typo:\n    tools: [tool_00001]\n") // one YAML finding (A1)
	fsys.WriteFile("/ws/beeuni.yaml", []byte(b.String()))
	return fsys, b.String()
}

// latencies records durations and reports their percentiles.
type latencies []time.Duration

func (l latencies) report(b *testing.B) {
	if len(l) == 0 {
		return
	}
	slices.Sort(l)
	b.ReportMetric(float64(l[len(l)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(l[len(l)*95/100].Microseconds())/1000, "p95-ms")
}

// waitVersion waits for diagnostics of path at version, from notification
// index from on; it returns the next index.
func (s *session) waitVersion(path string, version uint32, from int) int {
	uri := pathToURI(path)
	_, next := s.waitNote(from, func(m *wireMsg) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		var p protocol.PublishDiagnosticsParams
		_ = json.Unmarshal(m.Params, &p)
		return p.URI == uri && p.Version == version
	})
	return next
}

// BenchmarkKeystrokeToDiagnostics measures, on 1,000 tools and modules,
// the time from a didChange to the publication of that version's YAML
// diagnostics.
func BenchmarkKeystrokeToDiagnostics(b *testing.B) {
	fsys, text := bigWorkspace(1000)
	s := editorSession(b, fsys, UTF16, "/ws")
	s.open("/ws/beeuni.yaml", text)
	s.idle()
	from := len(s.notesSnapshot())
	var lat latencies
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		version := 2 + i
		start := time.Now()
		s.notify("textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": "file:///ws/beeuni.yaml", "version": version},
			"contentChanges": []any{map[string]any{
				"range": protocol.Range{Start: protocol.Position{Line: 0, Character: 1}, End: protocol.Position{Line: 0, Character: 1}},
				"text":  "x",
			}},
		})
		from = s.waitVersion("/ws/beeuni.yaml", uint32(version), from)
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	lat.report(b)
}

func benchRequest(b *testing.B, method string, at string) {
	fsys, text := bigWorkspace(1000)
	s := editorSession(b, fsys, UTF16, "/ws")
	s.open("/ws/beeuni.yaml", text)
	s.idle()
	off := strings.Index(text, at)
	params := map[string]any{
		"textDocument": map[string]any{"uri": "file:///ws/beeuni.yaml"},
		"position":     refPosition([]byte(text), off, UTF16),
	}
	var lat latencies
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		var res json.RawMessage
		s.call(method, params, &res)
		lat = append(lat, time.Since(start))
		if len(res) < 10 {
			b.Fatalf("%s: empty answer %s", method, res)
		}
	}
	b.StopTimer()
	lat.report(b)
}

// BenchmarkCompletion completes an agent's tool list on 1,000 tools.
func BenchmarkCompletion(b *testing.B) {
	benchRequest(b, "textDocument/completion", "tool_0000, tool_0999")
}

// BenchmarkHover hovers a project tool's key on 1,000 tools.
func BenchmarkHover(b *testing.B) { benchRequest(b, "textDocument/hover", "tool_0500:") }

// BenchmarkStartupToFirstDiagnostics measures initialize to the first
// publication of the manifest's diagnostics, and to the module findings.
func BenchmarkStartupToFirstDiagnostics(b *testing.B) {
	var first, modules latencies
	for i := 0; i < b.N; i++ {
		fsys, _ := bigWorkspace(1000)
		fsys.WriteFile("/ws/tools/tool_0003.ts", []byte("export default {\n")) // one module finding
		start := time.Now()
		s := editorSession(b, fsys, UTF16, "/ws")
		s.waitNote(0, func(m *wireMsg) bool {
			return m.Method == "textDocument/publishDiagnostics" && strings.Contains(string(m.Params), "beeuni.yaml")
		})
		first = append(first, time.Since(start))
		s.waitNote(0, func(m *wireMsg) bool {
			return m.Method == "textDocument/publishDiagnostics" && strings.Contains(string(m.Params), "T11")
		})
		modules = append(modules, time.Since(start))
	}
	b.StopTimer()
	first.report(b)
	if len(modules) > 0 {
		slices.Sort(modules)
		b.ReportMetric(float64(modules[len(modules)/2].Milliseconds()), "modules-p50-ms")
	}
}

// benchHandler measures server time alone: the request's handler called
// with the server's current view, without the transport and JSON.
func benchHandler(b *testing.B, method string, at string) {
	fsys, text := bigWorkspace(1000)
	s := editorSession(b, fsys, UTF16, "/ws")
	s.open("/ws/beeuni.yaml", text)
	s.idle()
	off := strings.Index(text, at)
	params, err := json.Marshal(map[string]any{
		"textDocument": map[string]any{"uri": "file:///ws/beeuni.yaml"},
		"position":     refPosition([]byte(text), off, UTF16),
	})
	if err != nil {
		b.Fatal(err)
	}
	h := s.srv.requests[method].handler
	v := s.srv.currentView()
	ctx := context.Background()
	var lat latencies
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res, err := h(ctx, s.srv, v, params)
		lat = append(lat, time.Since(start))
		if err != nil || res == nil {
			b.Fatalf("%s: %v %v", method, res, err)
		}
	}
	b.StopTimer()
	lat.report(b)
}

// BenchmarkCompletionServerTime is BenchmarkCompletion's handler alone.
func BenchmarkCompletionServerTime(b *testing.B) {
	benchHandler(b, "textDocument/completion", "tool_0000, tool_0999")
}

// BenchmarkHoverServerTime is BenchmarkHover's handler alone.
func BenchmarkHoverServerTime(b *testing.B) { benchHandler(b, "textDocument/hover", "tool_0500:") }
