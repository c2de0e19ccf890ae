package analysis

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// generatedManifest returns a beeuni.yaml with the five Beeuni tools, n
// project tools (each a module under tools/) and one agent per ten tools,
// the agents cycling through the forms of SPEC section 5 (all, a list of
// five names, the spec's `exclude: [bash, write, edit]`, a legacy map, none).
func generatedManifest(n int) (manifest string, modules []string) {
	var b strings.Builder
	b.WriteString("# generated for benchmarks\ntools:\n")
	for _, t := range beeuniTools {
		fmt.Fprintf(&b, "  %s: beeuni:%s\n", t, t)
	}
	for i := 0; i < n; i++ {
		mod := fmt.Sprintf("tools/tool_%05d.ts", i)
		fmt.Fprintf(&b, "  tool_%05d: %s\n", i, mod)
		modules = append(modules, mod)
	}
	b.WriteString("agents:\n")
	for a := 0; a < n/10+1; a++ {
		fmt.Fprintf(&b, "  agent_%05d:\n", a)
		first := a * 10 % max(n, 1)
		switch a % 5 {
		case 0:
			b.WriteString("    tools: all\n")
		case 1:
			fmt.Fprintf(&b, "    tools: [read, grep, web_search, tool_%05d, tool_%05d]\n", first, (first+1)%max(n, 1))
		case 2:
			b.WriteString("    tools:\n      exclude: [bash, write, edit]\n")
		case 3:
			b.WriteString("    tools: {bash: false, task: false}\n")
		case 4:
			b.WriteString("    tools: none\n")
		}
	}
	return b.String(), modules
}

func writeWorkspace(b *testing.B, n int) string {
	b.Helper()
	root := b.TempDir()
	manifest, modules := generatedManifest(n)
	if err := os.WriteFile(filepath.Join(root, ManifestName), []byte(manifest), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "tools"), 0o755); err != nil {
		b.Fatal(err)
	}
	for _, m := range modules {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(m)), []byte("export default {}\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return root
}

// BenchmarkValidate is a full validate on the disk (read, parse, every rule,
// the model; module inspection aside) of generated manifests.
func BenchmarkValidate(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			root := writeWorkspace(b, n)
			fsys := vfs.NewDisk()
			b.ReportAllocs()
			b.ResetTimer()
			defer reportCPU(b)()
			for i := 0; i < b.N; i++ {
				p, err := Load(context.Background(), fsys, root)
				if err != nil {
					b.Fatal(err)
				}
				if len(p.Findings) != 0 {
					b.Fatalf("generated manifest has findings: %v", p.Findings[0])
				}
			}
		})
	}
}

// BenchmarkValidateCached is the language server's case: the same project
// loaded again with a warm parse cache (rules and model run again).
func BenchmarkValidateCached(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			root := writeWorkspace(b, n)
			fsys := vfs.NewDisk()
			cache := NewCache()
			if _, err := LoadCached(context.Background(), fsys, root, cache); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			defer reportCPU(b)()
			for i := 0; i < b.N; i++ {
				if _, err := LoadCached(context.Background(), fsys, root, cache); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// reportCPU starts measuring the process's CPU time; the function it returns
// reports it per operation as cpu-ms/op.
func reportCPU(b *testing.B) func() {
	start, ok := processCPUTime()
	return func() {
		end, _ := processCPUTime()
		if ok && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N)/1e6, "cpu-ms/op")
		}
	}
}

// BenchmarkParse is the YAML part of a full validate: yaml.v3 node parsing,
// positions and duplicate keys, for the same generated manifests.
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			manifest, _ := generatedManifest(n)
			content := []byte(manifest)
			b.ReportAllocs()
			b.ResetTimer()
			defer reportCPU(b)()
			for i := 0; i < b.N; i++ {
				if p := parseFile(nil, "/repo/beeuni.yaml", content); p.root == nil {
					b.Fatal("no document")
				}
			}
		})
	}
}
