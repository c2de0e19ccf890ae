package edit

import (
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

const benchManifest = `tools:
  web_search: beeuni:image_search
  image_search: beeuni:image_search
  scrape_webpage: beeuni:scrape_webpage
  memory: beeuni:memory
  LookupOrder: tools/lookup_order.ts
agents:
  support:
    tools: [read, baash, show, LookupOrder]
`

// BenchmarkEject plans (and checks) an eject on a small manifest.
func BenchmarkEject(b *testing.B) {
	m := memFrom(map[string]string{"beeuni.yaml": benchManifest, "tools/lookup_order.ts": "export default {}\n"})
	p, _ := analysis.Load(b.Context(), m, testRoot)
	for b.Loop() {
		if _, err := Eject(p, m, "memory", false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQuickFixes plans and verifies the fixes of every finding of a
// small manifest (T1, T3, A1, A2): what a code action request costs.
func BenchmarkQuickFixes(b *testing.B) {
	m := memFrom(map[string]string{"beeuni.yaml": benchManifest, "tools/lookup_order.ts": "export default {}\n"})
	p, _ := analysis.Load(b.Context(), m, testRoot)
	n := 0
	for b.Loop() {
		n = 0
		for _, f := range p.Findings {
			fixes, err := QuickFixes(b.Context(), p, m, f)
			if err != nil {
				b.Fatal(err)
			}
			n += len(fixes)
		}
	}
	if n < 4 {
		b.Fatalf("%d fixes, want at least one per finding", n)
	}
}
