package edit

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

// TestEditsUnderYAML12Directive: a manifest that starts with `%YAML 1.2`
// (which yaml.v3 refuses as such) loads, and its quick fixes and eject are
// planned and checked like any other's.
func TestEditsUnderYAML12Directive(t *testing.T) {
	const manifest = "%YAML 1.2\n---\ntools:\n  web_search: beeuni:web_search\n  Lookup: tools/lookup.ts\n"
	m := memFrom(map[string]string{"beeuni.yaml": manifest, "tools/lookup.ts": "export default {}\n"})
	p, err := analysis.Load(t.Context(), m, testRoot)
	if err != nil {
		t.Fatal(err)
	}
	var fixed bool
	for _, f := range p.Findings {
		if f.Code == analysis.CodeSyntax {
			t.Fatalf("the directive is a syntax error: %s", f.Message)
		}
		if f.Code != analysis.CodeName {
			continue
		}
		fixes, err := QuickFixes(t.Context(), p, m, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range fixes {
			if c.Disabled != "" {
				t.Fatalf("%s: disabled: %s", c.Title, c.Disabled)
			}
			out, err := ApplyText([]byte(manifest), c.Edits)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(out), "%YAML 1.2\n---\n") || !strings.Contains(string(out), "  lookup: tools/lookup.ts") {
				t.Errorf("%s gives:\n%s", c.Title, out)
			}
			fixed = true
		}
	}
	if !fixed {
		t.Fatal("no quick fix for the T1 finding")
	}
	c, err := Eject(p, m, "web_search", false)
	if err != nil {
		t.Fatalf("eject web_search: %v", err)
	}
	if len(c.Create) != 1 || c.Create[0].Path != filepath.Join(testRoot, "tools", "web_search.ts") {
		t.Errorf("eject creates %v", c.Create)
	}
}
