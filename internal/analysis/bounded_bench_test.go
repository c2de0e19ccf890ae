package analysis

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// The benchmarks of issue 12's bounded-time items: validate (Load with
// every rule, no module inspection) on YAML nodes all on one line, and the
// "did you mean" suggestions at scale. They use only Load, so that the
// same file measures an older engine side by side.

// benchLoad loads manifest (with the module files of modules) b.N times.
func benchLoad(b *testing.B, manifest string, modules []string) {
	b.Helper()
	const root = "/repo"
	fsys := vfs.NewMem()
	fsys.WriteFile(filepath.Join(root, ManifestName), []byte(manifest))
	for _, m := range modules {
		fsys.WriteFile(filepath.Join(root, filepath.FromSlash(m)), []byte("export default {}\n"))
	}
	b.SetBytes(int64(len(manifest)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Load(context.Background(), fsys, root); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateFlowMapping: `tools: {tool_0: tools/tool_0.ts, ...}`,
// 20,000 entries on one line.
func BenchmarkValidateFlowMapping(b *testing.B) {
	var sb strings.Builder
	var modules []string
	sb.WriteString("tools: {")
	for i := 0; i < 20000; i++ {
		m := fmt.Sprintf("tools/tool_%d.ts", i)
		fmt.Fprintf(&sb, "tool_%d: %s, ", i, m)
		modules = append(modules, m)
	}
	sb.WriteString("}\nagents:\n  a:\n    tools: [tool_1]\n")
	benchLoad(b, sb.String(), modules)
}

// BenchmarkValidateFlowAgentList: an agent list of 20,000 names on one
// line, each a declared tool.
func BenchmarkValidateFlowAgentList(b *testing.B) {
	var sb strings.Builder
	var modules []string
	sb.WriteString("tools:\n")
	for i := 0; i < 20000; i++ {
		m := fmt.Sprintf("tools/tool_%d.ts", i)
		fmt.Fprintf(&sb, "  tool_%d: %s\n", i, m)
		modules = append(modules, m)
	}
	sb.WriteString("agents:\n  a:\n    tools: [")
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&sb, "tool_%d, ", i)
	}
	sb.WriteString("]\n")
	benchLoad(b, sb.String(), modules)
}

// BenchmarkValidateFlowLine10MB: a flow mapping of Beeuni tool entries
// 10 MB long on one line (each entry a T4 finding).
func BenchmarkValidateFlowLine10MB(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("tools: {")
	for i := 0; sb.Len() < 10<<20; i++ {
		fmt.Fprintf(&sb, "tool_%d: beeuni:web_search, ", i)
	}
	sb.WriteString("}\n")
	benchLoad(b, sb.String(), nil)
}

// BenchmarkSuggestions: 5,000 project tools and agents naming 1,143
// unknown tools, each an A1 finding with its "did you mean" suggestion.
func BenchmarkSuggestions(b *testing.B) {
	var sb strings.Builder
	var modules []string
	sb.WriteString("tools:\n")
	for _, t := range suggestionTools(5000) {
		m := "tools/" + t + ".ts"
		fmt.Fprintf(&sb, "  %s: %s\n", t, m)
		modules = append(modules, m)
	}
	sb.WriteString("agents:\n")
	for i, u := range suggestionUnknowns(1143) {
		if i%100 == 0 {
			fmt.Fprintf(&sb, "  agent_%d:\n    tools:\n", i/100)
		}
		fmt.Fprintf(&sb, "      - %s\n", u)
	}
	benchLoad(b, sb.String(), modules)
}

// suggestionTools and suggestionUnknowns make the suggestion benchmark's
// names: n project tools, and unknown agent names that are typos of them
// (a letter dropped, doubled, swapped or changed), of harness tools, or
// far from everything.
func suggestionTools(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("tool_%05d", i)
	}
	return out
}

func suggestionUnknowns(n int) []string {
	out := make([]string, n)
	for i := range out {
		base := fmt.Sprintf("tool_%05d", (i*37)%5000)
		switch i % 6 {
		case 0:
			out[i] = base[:3] + base[4:] // dropped
		case 1:
			out[i] = base[:6] + base[5:] // doubled
		case 2:
			out[i] = base[:7] + base[8:9] + base[7:8] + base[9:] // swapped
		case 3:
			out[i] = strings.Replace(base, "tool", "tuol", 1) // changed
		case 4:
			out[i] = []string{"gerp", "bsah", "web_serch", "wirte", "todowrite_"}[i%5]
		case 5:
			out[i] = fmt.Sprintf("unrelated_name_%d", i)
		}
	}
	return out
}
