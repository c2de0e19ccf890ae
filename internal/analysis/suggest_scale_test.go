package analysis_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// 40,000 tools and 10,000 agent names, each a typo of a tool (a letter
// doubled): every name gets its A1 with a suggestion, within the hang guard
// (comparing each name with every tool is 400 million distances: minutes).
func TestHostileManyUnknownNames(t *testing.T) {
	analysis.OneGoroutine(t)
	const tools, unknowns = 40000, 10000
	var b strings.Builder
	b.WriteString("tools:\n")
	for i := 0; i < tools; i++ {
		fmt.Fprintf(&b, "  tool_%05d: beeuni:web_search\n", i)
	}
	b.WriteString("agents:\n  a:\n    tools:\n")
	for i := 0; i < unknowns; i++ {
		name := fmt.Sprintf("tool_%05d", i*37%tools)
		fmt.Fprintf(&b, "      - %s%s\n", name[:2], name[1:]) // "toool_…"
	}
	const root = "/repo"
	fsys := vfs.NewMem()
	fsys.WriteFile(filepath.Join(root, analysis.ManifestName), []byte(b.String()))
	p := loadGuarded(t, fsys, root)
	a1 := 0
	for _, f := range p.Findings {
		if f.Code != analysis.CodeUnknownTool {
			continue
		}
		a1++
		if f.Data[analysis.DataSuggest] == "" {
			t.Fatalf("A1 on %q without a suggestion", f.Data[analysis.DataName])
		}
	}
	if a1 != unknowns {
		t.Fatalf("%d A1 findings, want %d", a1, unknowns)
	}
}
