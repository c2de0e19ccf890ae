package analysis

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// BenchmarkAgentViewLenses is a code lens request's work on the generated
// manifests (n tools, n/10+1 agents, three in five of which see about
// every tool): every agent's title, each module's definition known.
func BenchmarkAgentViewLenses(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) { benchmarkAgentViewLenses(b, n) })
	}
}

func benchmarkAgentViewLenses(b *testing.B, n int) {
	manifest, modules := generatedManifest(n)
	mem := vfs.NewMem()
	mem.WriteFile("/repo/beeuni.yaml", []byte(manifest))
	defs := ToolDefs{Modules: map[string]*tsinspect.Result{}, Beeuni: InspectBeeuniTools(context.Background())}
	for _, m := range modules {
		abs := filepath.Join("/repo", m)
		mem.WriteFile(abs, []byte("export default {}\n"))
		defs.Modules[abs] = &tsinspect.Result{Loads: true, Description: "Look up an order by id. Returns its status and carrier.", DescriptionKnown: true,
			Parameters: json.RawMessage(`{"type": "object", "properties": {"id": {"type": "string", "description": "The order id"}}, "required": ["id"]}`)}
	}
	p, err := Load(context.Background(), mem, "/repo")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		vw := NewAgentViewer(p, defs, nil)
		for _, a := range p.Model.Agents {
			if _, err := vw.Summary(a.Name); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkInspectBeeuniTools is the server's one-time read of the Beeuni
// tools' embedded sources.
func BenchmarkInspectBeeuniTools(b *testing.B) {
	defer reportCPU(b)()
	for b.Loop() {
		if len(InspectBeeuniTools(context.Background())) != len(beeuniTools) {
			b.Fatal("not every Beeuni tool read")
		}
	}
}
