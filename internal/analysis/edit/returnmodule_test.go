package edit

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/beeunitools"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// Return to beeuni: deletes the module only when it is an ejected copy
// (the eject's marker on the entry, or the Beeuni header in the file) that
// no other module imports and no other entry names; otherwise it keeps
// the file, under its own title.
func TestReturnDeletesOnlyUnusedEjectedCopies(t *testing.T) {
	src, _ := beeunitools.Source("web_search")
	plain := "export default {}\n"
	marked := "tools:\n  web_search: integrations/ws.ts  # ejected from beeuni:web_search\n"
	unmarked := "tools:\n  web_search: integrations/ws.ts\n"
	for _, tc := range []struct {
		name   string
		files  map[string]string
		delete bool
	}{
		{"marked, imported by nothing", map[string]string{"beeuni.yaml": marked, "integrations/ws.ts": plain}, true},
		{"the Beeuni header, imported by nothing", map[string]string{"beeuni.yaml": unmarked, "integrations/ws.ts": string(src)}, true},
		{"neither marker nor header (the issue's case)", map[string]string{
			"beeuni.yaml": unmarked + "  crm: integrations/crm.ts\n", "integrations/ws.ts": plain,
			"integrations/crm.ts": "import { search } from './ws.ts'\nexport default {}\n"}, false},
		{"no marker nor header, imported by nothing", map[string]string{"beeuni.yaml": unmarked, "integrations/ws.ts": plain}, false},
		{"marked, imported by a tool", map[string]string{
			"beeuni.yaml": marked + "  crm: integrations/crm.ts\n", "integrations/ws.ts": plain,
			"integrations/crm.ts": "import { search } from \"./ws\"\nexport default {}\n"}, false},
		{"marked, imported by a helper with a .js specifier", map[string]string{
			"beeuni.yaml": marked, "integrations/ws.ts": plain,
			"lib/helper.ts": "export * from '../integrations/ws.js'\n"}, false},
		{"marked, a dynamic import in a template string", map[string]string{
			"beeuni.yaml": marked, "integrations/ws.ts": plain,
			"lib/late.mjs": "export const load = () => import(`../integrations/ws.ts`)\n"}, false},
		{"marked, another file of the same name elsewhere", map[string]string{
			"beeuni.yaml": marked, "integrations/ws.ts": plain,
			"other/a.ts": "import './ws.ts'\n", "other/ws.ts": plain}, true},
		{"marked, an import inside node_modules does not count", map[string]string{
			"beeuni.yaml": marked, "integrations/ws.ts": plain,
			"integrations/node_modules/x/index.js": "require('../../ws.ts')\n"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ar []byte
			for name, content := range tc.files {
				ar = append(ar, "-- "+name+" --\n"+content...)
			}
			fsys := vfs.MemFromTxtar(testRoot, ar)
			p := load(t, fsys)
			actions := ReturnActions(p, fsys, "web_search")
			module := filepath.Join(testRoot, "integrations", "ws.ts")
			var titles []string
			for _, c := range actions {
				titles = append(titles, c.Title)
			}
			if tc.delete {
				if len(actions) != 2 || actions[0].Title != ReturnTitle("web_search") || len(actions[0].Delete) != 1 || actions[0].Delete[0] != module ||
					actions[1].Title != ReturnKeepTitle("web_search") || len(actions[1].Delete) != 0 {
					t.Fatalf("actions %q, want the return deleting %s and the return keeping it", titles, module)
				}
			} else if len(actions) != 1 || actions[0].Title != ReturnKeepTitle("web_search") || len(actions[0].Delete) != 0 {
				t.Fatalf("actions %q (delete %v), want only %q", titles, actions[0].Delete, ReturnKeepTitle("web_search"))
			}
			for _, c := range actions {
				if len(c.Edits) == 0 {
					t.Errorf("%q sets nothing back", c.Title)
				}
			}
		})
	}
}

// BenchmarkReturnActions plans the return of an ejected tool in a project
// of 1,000 tools whose modules import a helper each (the import search
// reads every module): the cost of a code action request on that entry.
func BenchmarkReturnActions(b *testing.B) {
	files := map[string]string{}
	manifest := "tools:\n  web_search: tools/web_search.ts  # ejected from beeuni:web_search\n"
	for i := range 1000 {
		manifest += fmt.Sprintf("  tool_%d: tools/tool_%d.ts\n", i, i)
		files[fmt.Sprintf("tools/tool_%d.ts", i)] = fmt.Sprintf("import { h } from '../lib/helper_%d.ts'\nexport default { description: 'd', parameters: { type: 'object', properties: {} }, execute() { return h() } }\n", i)
		files[fmt.Sprintf("lib/helper_%d.ts", i)] = "export const h = () => 1\n"
	}
	files["beeuni.yaml"] = manifest
	files["tools/web_search.ts"] = "export default {}\n"
	m := memFrom(files)
	p, err := analysis.Load(b.Context(), m, testRoot)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if cs := ReturnActions(p, m, "web_search"); len(cs) != 2 {
			b.Fatalf("%d actions, want the deleting return and the keeping one", len(cs))
		}
	}
}
