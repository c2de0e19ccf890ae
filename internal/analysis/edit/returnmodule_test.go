package edit

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/beeunitools"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// Return to beeuni: deletes the module only when its text is still the
// copy eject wrote (the marker on the entry is not enough: the user may
// have edited the copy) and no other module may import it and no other
// entry names it; otherwise it keeps the file, under its own title.
func TestReturnDeletesOnlyUnusedEjectedCopies(t *testing.T) {
	b, _ := beeunitools.Source("web_search")
	src := string(b)
	plain := "export default {}\n"
	marked := "tools:\n  web_search: integrations/ws.ts  # ejected from beeuni:web_search\n"
	unmarked := "tools:\n  web_search: integrations/ws.ts\n"
	for _, tc := range []struct {
		name   string
		files  map[string]string
		module string // the module the entry names, default integrations/ws.ts
		delete bool
	}{
		{"marked, as ejected, imported by nothing", map[string]string{"beeuni.yaml": marked, "integrations/ws.ts": src}, "", true},
		{"unmarked, as ejected, imported by nothing", map[string]string{"beeuni.yaml": unmarked, "integrations/ws.ts": src}, "", true},
		{"marked, as ejected with CRLF line breaks", map[string]string{"beeuni.yaml": marked, "integrations/ws.ts": strings.ReplaceAll(src, "\n", "\r\n")}, "", true},
		{"marked, edited since the eject", map[string]string{"beeuni.yaml": marked, "integrations/ws.ts": src + "// mine\n"}, "", false},
		{"marked, not the Beeuni source", map[string]string{"beeuni.yaml": marked, "integrations/ws.ts": plain}, "", false},
		{"neither marker nor the source (the issue's case)", map[string]string{
			"beeuni.yaml": unmarked + "  crm: integrations/crm.ts\n", "integrations/ws.ts": plain,
			"integrations/crm.ts": "import { search } from './ws.ts'\nexport default {}\n"}, "", false},
		{"marked, imported by a tool", map[string]string{
			"beeuni.yaml": marked + "  crm: integrations/crm.ts\n", "integrations/ws.ts": src,
			"integrations/crm.ts": "import { search } from \"./ws\"\nexport default {}\n"}, "", false},
		{"marked, imported by a helper with a .js specifier", map[string]string{
			"beeuni.yaml": marked, "integrations/ws.ts": src,
			"lib/helper.ts": "export * from '../integrations/ws.js'\n"}, "", false},
		{"marked, a dynamic import in a template string", map[string]string{
			"beeuni.yaml": marked, "integrations/ws.ts": src,
			"lib/late.mjs": "export const load = () => import(`../integrations/ws.ts`)\n"}, "", false},
		{"marked, imported through a tsconfig paths alias", map[string]string{
			"beeuni.yaml": marked, "integrations/ws.ts": src,
			"tsconfig.json": `{"compilerOptions": {"paths": {"@search/*": ["integrations/*"]}}}` + "\n",
			"lib/use.ts":    "import { search } from '@search/ws'\n"}, "", false},
		{"marked, imported through baseUrl", map[string]string{
			"beeuni.yaml": marked, "integrations/ws.ts": src,
			"tsconfig.json": `{"compilerOptions": {"baseUrl": "."}}` + "\n",
			"lib/use.ts":    "import { search } from 'integrations/ws.js'\n"}, "", false},
		{"marked, imported by a .tsx file", map[string]string{
			"beeuni.yaml": marked, "integrations/ws.ts": src,
			"ui/panel.tsx": "import { search } from '../integrations/ws'\nexport const Panel = () => <div/>\n"}, "", false},
		{"marked, imported by a .jsx file", map[string]string{
			"beeuni.yaml": marked, "integrations/ws.ts": src,
			"ui/panel.jsx": "import { search } from '../integrations/ws.ts'\n"}, "", false},
		{"marked, imported through package.json #imports", map[string]string{
			"beeuni.yaml": marked, "integrations/ws.ts": src,
			"package.json": `{"imports": {"#ws": "./integrations/ws.ts"}}` + "\n",
			"lib/use.ts":   "import { search } from '#ws'\n"}, "", false},
		{"an index file, imported by its folder's name through an alias", map[string]string{
			"beeuni.yaml":              "tools:\n  web_search: integrations/ws/index.ts  # ejected from beeuni:web_search\n",
			"integrations/ws/index.ts": src,
			"lib/use.ts":               "import { search } from '@/integrations/ws'\n"}, "integrations/ws/index.ts", false},
		{"marked, a bare specifier naming another module", map[string]string{
			"beeuni.yaml": marked, "integrations/ws.ts": src,
			"lib/use.ts": "import { search } from '@search/wsx'\nimport fs from 'node:fs'\n"}, "", true},
		{"marked, another file of the same name elsewhere", map[string]string{
			"beeuni.yaml": marked, "integrations/ws.ts": src,
			"other/a.ts": "import './ws.ts'\n", "other/ws.ts": plain}, "", true},
		{"marked, an import inside node_modules does not count", map[string]string{
			"beeuni.yaml": marked, "integrations/ws.ts": src,
			"integrations/node_modules/x/index.js": "require('../../ws.ts')\n"}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ar []byte
			for name, content := range tc.files {
				ar = append(ar, "-- "+name+" --\n"+content...)
			}
			fsys := vfs.MemFromTxtar(testRoot, ar)
			p := load(t, fsys)
			actions := ReturnActions(p, fsys, "web_search")
			rel := tc.module
			if rel == "" {
				rel = "integrations/ws.ts"
			}
			module := filepath.Join(testRoot, filepath.FromSlash(rel))
			var titles []string
			for _, c := range actions {
				titles = append(titles, c.Title)
			}
			if tc.delete {
				if len(actions) != 2 || actions[0].Title != "Return to beeuni:web_search (delete "+rel+")" || len(actions[0].Delete) != 1 || actions[0].Delete[0] != module ||
					actions[1].Title != ReturnKeepTitle("web_search") || len(actions[1].Delete) != 0 {
					t.Fatalf("actions %q, want the return deleting %s and the return keeping it", titles, module)
				}
			} else if len(actions) != 1 || actions[0].Title != ReturnKeepTitle("web_search") || len(actions[0].Delete) != 0 {
				t.Fatalf("actions %q, want only %q", titles, ReturnKeepTitle("web_search"))
			}
			for _, c := range actions {
				if len(c.Edits) == 0 {
					t.Errorf("%q sets nothing back", c.Title)
				}
			}
		})
	}
}

// failingFS fails ReadDir and ReadFile of the paths in bad.
type failingFS struct {
	vfs.FS
	bad map[string]bool
}

func (f failingFS) ReadDir(p string) ([]fs.DirEntry, error) {
	if f.bad[p] {
		return nil, errors.New("permission denied")
	}
	return f.FS.ReadDir(p)
}

func (f failingFS) ReadFile(p string) ([]byte, error) {
	if f.bad[p] {
		return nil, errors.New("permission denied")
	}
	return f.FS.ReadFile(p)
}

// A folder or a module the importer search cannot read may hold an
// importer: the return keeps the file.
func TestReturnKeepsTheModuleWhenTheSearchIsIncomplete(t *testing.T) {
	src, _ := beeunitools.Source("web_search")
	files := map[string]string{
		"beeuni.yaml":        "tools:\n  web_search: integrations/ws.ts  # ejected from beeuni:web_search\n",
		"integrations/ws.ts": string(src),
		"lib/a.ts":           "export const a = 1\n",
	}
	for _, bad := range []string{"lib", "lib/a.ts"} {
		t.Run(bad, func(t *testing.T) {
			m := memFrom(files)
			p := load(t, m)
			if cs := ReturnActions(p, m, "web_search"); len(cs) != 2 {
				t.Fatalf("with every file readable: %d actions, want the deleting return and the keeping one", len(cs))
			}
			fsys := failingFS{FS: m, bad: map[string]bool{filepath.Join(testRoot, filepath.FromSlash(bad)): true}}
			cs := ReturnActions(p, fsys, "web_search")
			if len(cs) != 1 || cs[0].Title != ReturnKeepTitle("web_search") || len(cs[0].Delete) != 0 {
				t.Fatalf("%s unreadable: %d actions (%v), want only %q", bad, len(cs), cs, ReturnKeepTitle("web_search"))
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
	src, _ := beeunitools.Source("web_search")
	files["tools/web_search.ts"] = string(src)
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
