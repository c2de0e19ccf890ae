package edit

import (
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/beeunitools"
)

// TestMergedEntriesAreNotEdited: a tool entry a `<<` merge key (or a
// `tools:` alias) brings is written in the mapping it comes from, which
// other mappings may merge too. Eject, return and rename refuse it, saying
// so; an entry written next to the merge key is edited as usual, without
// touching the merged-from mapping.
func TestMergedEntriesAreNotEdited(t *testing.T) {
	const base = "x-base: &base\n  web_search: beeuni:web_search\n  memory: tools/memory.ts\n"
	cases := []struct {
		name, manifest string
		do             func(p *analysis.Project) (*Change, error)
		refusal        string // "" when the edit is planned
	}{
		{
			name:     "eject a merged entry",
			manifest: base + "tools:\n  <<: *base\n  show: beeuni:show\n",
			do:       func(p *analysis.Project) (*Change, error) { return Eject(p, memFrom(nil), "web_search", false) },
			refusal:  "cannot eject web_search: tools.web_search in beeuni.yaml comes from a YAML merge key (`<<`) or an alias",
		},
		{
			name:     "eject through a tools alias",
			manifest: base + "tools: *base\n",
			do:       func(p *analysis.Project) (*Change, error) { return Eject(p, memFrom(nil), "web_search", false) },
			refusal:  "cannot eject web_search: tools.web_search in beeuni.yaml comes from a YAML merge key",
		},
		{
			name:     "return a merged entry",
			manifest: base + "tools:\n  <<: *base\n",
			do:       func(p *analysis.Project) (*Change, error) { return ReturnToBeeuni(p, memFrom(nil), "memory") },
			refusal:  "cannot return memory: tools.memory in beeuni.yaml comes from a YAML merge key",
		},
		{
			name:     "eject an entry written next to a merge key",
			manifest: base + "tools:\n  <<: *base\n  show: beeuni:show\n",
			do:       func(p *analysis.Project) (*Change, error) { return Eject(p, memFrom(nil), "show", false) },
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := load(t, memFrom(map[string]string{"beeuni.yaml": c.manifest, "tools/memory.ts": "export default {}\n"}))
			ch, err := c.do(p)
			if c.refusal != "" {
				if err == nil || !strings.Contains(err.Error(), c.refusal) {
					t.Fatalf("got %v, %v; want the refusal %q", ch, err, c.refusal)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			for _, e := range ch.Edits {
				if e.File == p.Files[0].Path && e.Start < len(base) {
					t.Errorf("edit %+v changes the merged-from mapping", e)
				}
			}
		})
	}
}

// TestReturnKeepsAModuleAMergedEntryNames: returning a tool to beeuni:
// keeps its module file when an entry brought by a merge key names it.
func TestReturnKeepsAModuleAMergedEntryNames(t *testing.T) {
	src, ok := beeunitools.Source("memory")
	if !ok {
		t.Fatal("no Beeuni source of memory")
	}
	for _, c := range []struct {
		base string
		keep bool
	}{
		{"  other: tools/memory.ts\n", true},
		{"  other: tools/other.ts\n", false}, // the copy eject wrote, used by nothing else: deleted
	} {
		manifest := "x-base: &base\n" + c.base + "tools:\n  <<: *base\n  memory: tools/memory.ts\n"
		fsys := memFrom(map[string]string{"beeuni.yaml": manifest, "tools/memory.ts": string(src), "tools/other.ts": "export default {}\n"})
		p := load(t, fsys)
		ch, err := ReturnToBeeuni(p, fsys, "memory")
		if err != nil {
			t.Fatal(err)
		}
		if kept := len(ch.Delete) == 0; kept != c.keep {
			t.Errorf("%q: got %q deleting %v; want kept %v", manifest, ch.Title, ch.Delete, c.keep)
		}
	}
}
