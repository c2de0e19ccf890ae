package features

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// bigWorkspace is a project of n project tools (each with its module), the
// five Beeuni tools, and an agent listing every tool.
func bigWorkspace(b *testing.B, n int) (*analysis.Project, *RepoFiles, []byte) {
	b.Helper()
	var y strings.Builder
	y.WriteString("tools:\n")
	for _, t := range analysis.BeeuniTools() {
		fmt.Fprintf(&y, "  %s: beeuni:%s\n", t, t)
	}
	fs := vfs.NewMem()
	for i := 0; i < n; i++ {
		fmt.Fprintf(&y, "  tool_%04d: tools/tool_%04d.ts\n", i, i)
		fs.WriteFile(fmt.Sprintf("/big/tools/tool_%04d.ts", i), []byte("export default {}\n"))
	}
	// Modules nobody declares yet, for key completion.
	for i := 0; i < 50; i++ {
		fs.WriteFile(fmt.Sprintf("/big/extra/extra_%02d.ts", i), []byte("export default {}\n"))
	}
	y.WriteString("agents:\n  everyone:\n    tools:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&y, "      - tool_%04d\n", i)
	}
	y.WriteString("      - \n")
	text := []byte(y.String())
	fs.WriteFile("/big/beeuni.yaml", text)
	ctx := context.Background()
	p, err := analysis.Load(ctx, fs, "/big")
	if err != nil {
		b.Fatal(err)
	}
	if len(p.Model.Tools) != n+5 {
		b.Fatalf("model has %d tools, want %d", len(p.Model.Tools), n+5)
	}
	repo, err := ScanRepo(ctx, fs, "/big")
	if err != nil {
		b.Fatal(err)
	}
	return p, repo, text
}

func offsetOf(b *testing.B, text []byte, s string, delta int) int {
	i := strings.Index(string(text), s)
	if i < 0 {
		b.Fatalf("%q not found", s)
	}
	return i + delta
}

// BenchmarkCompletionToolsKey: a new key at the end of tools: in a
// 1,000-tool manifest (Beeuni tools and undeclared modules offered).
func BenchmarkCompletionToolsKey(b *testing.B) {
	p, repo, text := bigWorkspace(b, 1000)
	// Type "ex" as a new key after the last tool.
	at := offsetOf(b, text, "agents:", 0)
	typed := append(append(append([]byte{}, text[:at]...), "  ex\n"...), text[at:]...)
	off := at + 4
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if items := Completion(p, repo, "/big/beeuni.yaml", typed, off); len(items) == 0 {
			b.Fatal("no items")
		}
	}
}

// BenchmarkCompletionAgentList: an item of an agent list that already names
// 1,000 tools.
func BenchmarkCompletionAgentList(b *testing.B) {
	p, repo, text := bigWorkspace(b, 1000)
	off := len(text) - 1 // after the last "- "
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if items := Completion(p, repo, "/big/beeuni.yaml", text, off); len(items) == 0 {
			b.Fatal("no items")
		}
	}
}

// BenchmarkHoverTool: a hover on the last tools: key of the manifest.
func BenchmarkHoverTool(b *testing.B) {
	p, _, text := bigWorkspace(b, 1000)
	off := offsetOf(b, text, "tool_0999:", 2)
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if _, ok := Hover(p, Modules{}, "/big/beeuni.yaml", off); !ok {
			b.Fatal("no hover")
		}
	}
}

// BenchmarkHoverAgentRef: a hover on the last name of the agent's list.
func BenchmarkHoverAgentRef(b *testing.B) {
	p, _, text := bigWorkspace(b, 1000)
	off := strings.LastIndex(string(text), "tool_0999") + 2
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if _, ok := Hover(p, Modules{}, "/big/beeuni.yaml", off); !ok {
			b.Fatal("no hover")
		}
	}
}

// reportCPU starts measuring process CPU time; the returned func reports it
// per operation as "cpu-ns/op".
func reportCPU(b *testing.B) func() {
	start, ok := processCPU()
	return func() {
		end, ok2 := processCPU()
		if ok && ok2 && b.N > 0 {
			b.ReportMetric(float64((end-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

// BenchmarkDocumentSymbols: the outline of the 1,000-tool manifest.
func BenchmarkDocumentSymbols(b *testing.B) {
	p, _, _ := bigWorkspace(b, 1000)
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if s := DocumentSymbols(p, "/big/beeuni.yaml"); len(s) != 2 || len(s[0].Children) != 1005 {
			b.Fatalf("outline: %d sections", len(s))
		}
	}
}

// BenchmarkInlayHints: one hint per entry of the 1,000-tool manifest.
func BenchmarkInlayHints(b *testing.B) {
	p, _, _ := bigWorkspace(b, 1000)
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if h := InlayHints(p, Modules{}, "/big/beeuni.yaml"); len(h) != 1005 {
			b.Fatalf("%d hints", len(h))
		}
	}
}

// BenchmarkReferences: every mention of the last tool (its key and the
// agent list) in the 1,000-tool manifest.
func BenchmarkReferences(b *testing.B) {
	p, _, text := bigWorkspace(b, 1000)
	off := offsetOf(b, text, "tool_0999:", 2)
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if refs := References(p, "/big/beeuni.yaml", off, true); len(refs) != 2 {
			b.Fatalf("%d references", len(refs))
		}
	}
}
