package analysis

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// hostileManifests are inputs built to make a naive engine explode: merges
// of merges (an alias bomb through `<<`), a billion-laughs list, deep
// nesting. Load must return with findings, not hang or overflow the stack.
// (The guard is the test's own deadline; speed is measured by benchmarks.)
func hostileManifests() map[string]string {
	var bomb strings.Builder
	bomb.WriteString("l0: &l0 {web_search: beeuni:web_search}\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&bomb, "l%d: &l%d {<<: [%s]}\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
	}
	bomb.WriteString("tools: {<<: [*l9, *l9, *l9, *l9, *l9, *l9, *l9, *l9, *l9, *l9]}\n")
	bomb.WriteString("agents:\n  a: {<<: *l9, tools: *l9}\n")

	var laughs strings.Builder
	laughs.WriteString("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 'b'; i <= 'j'; i++ {
		fmt.Fprintf(&laughs, "%c: &%c [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*%c, ", i-1), 9), ", "))
	}
	laughs.WriteString("agents:\n  x:\n    tools: *j\n  y:\n    tools: {exclude: *j}\n")

	return map[string]string{
		"merge bomb":    bomb.String(),
		"laughs":        laughs.String(),
		"deep flow":     "tools: " + strings.Repeat("[", 20000) + "\n",
		"deep block":    "tools:\n" + strings.Repeat("- ", 20000) + "x\n",
		"self merge":    "tools: &x {<<: *x, a: tools/a.ts}\n",
		"deep mappings": "agents:\n" + strings.Repeat("  ", 1) + strings.Repeat("a: {", 9000) + strings.Repeat("}", 9000) + "\n",
	}
}

func TestHostileInputs(t *testing.T) {
	for name, content := range hostileManifests() {
		t.Run(name, func(t *testing.T) {
			fsys := vfs.NewMem()
			fsys.WriteFile(filepath.Join(testRoot, ManifestName), []byte(content))
			p, err := Load(context.Background(), fsys, testRoot)
			if err != nil {
				t.Fatal(err)
			}
			if p.Model == nil {
				t.Fatal("no model")
			}
		})
	}
}
