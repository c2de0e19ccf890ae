package analysis

import (
	"context"
	"fmt"
	"math/rand"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// TestInspectModulesAfterMatchesAFullPass changes the files of a project
// one at a time (a module broken and fixed, a shared helper broken and
// fixed, a package created and removed, a module deleted and created again,
// a module's import pointed at a file that comes and goes) and requires
// InspectModulesAfter, told the changed path and reusing the last pass,
// to give what a full pass of a new inspector gives.
func TestInspectModulesAfterMatchesAFullPass(t *testing.T) {
	const root = "/repo"
	const good = "export default { description: 'Do it.', parameters: { type: 'object', properties: {} }, execute() { return 'ok' } }\n"
	fsys := vfs.NewMem()
	var manifest strings.Builder
	manifest.WriteString("tools:\n  web_search: beeuni:web_search\n")
	var modules []string
	for i := 0; i < 24; i++ {
		m := fmt.Sprintf("tools/t%02d.ts", i)
		modules = append(modules, m)
		fmt.Fprintf(&manifest, "  t%02d: %s\n", i, m)
		src := good
		switch i % 4 {
		case 1:
			src = "import { get } from './lib/http.ts'\n" + strings.Replace(good, "return 'ok'", "return get()", 1)
		case 2:
			src = "import { z } from 'zod'\n" + strings.Replace(good, "return 'ok'", "return z", 1)
		case 3:
			src = "import { extra } from './extra.ts'\n" + strings.Replace(good, "return 'ok'", "return extra", 1)
		}
		fsys.WriteFile(filepath.Join(root, m), []byte(src))
	}
	fsys.WriteFile(filepath.Join(root, ManifestName), []byte(manifest.String()))
	fsys.WriteFile(filepath.Join(root, "package.json"), []byte(`{"name": "p", "dependencies": {"zod": "^3"}}`))
	helper := filepath.Join(root, "tools/lib/http.ts")
	fsys.WriteFile(helper, []byte("export function get() { return 'x' }\n"))
	zod := filepath.Join(root, "node_modules/zod/package.json")
	extra := filepath.Join(root, "tools/extra.ts")

	ctx := context.Background()
	insp := tsinspect.New(fsys, tsinspect.Options{})
	p, err := Load(ctx, fsys, root)
	if err != nil {
		t.Fatal(err)
	}
	last := InspectModules(ctx, p, insp)
	r := rand.New(rand.NewSource(9))
	reused := 0
	for step := 0; step < 60; step++ {
		var changed string
		switch r.Intn(6) {
		case 0: // a module broken or fixed
			m := filepath.Join(root, modules[r.Intn(len(modules))])
			if c, _ := fsys.ReadFile(m); strings.HasPrefix(string(c), "export default {\n") {
				fsys.WriteFile(m, []byte(good))
			} else {
				fsys.WriteFile(m, []byte("export default {\n"))
			}
			changed = m
		case 1: // the shared helper broken or fixed
			if c, _ := fsys.ReadFile(helper); strings.Contains(string(c), "get()") {
				fsys.WriteFile(helper, []byte("export function gone() {}\n"))
			} else {
				fsys.WriteFile(helper, []byte("export function get() { return 'x' }\n"))
			}
			changed = helper
		case 2: // the package comes (the event names its folder) or goes (node_modules deleted whole)
			if _, err := fsys.Stat(zod); err == nil {
				fsys.Remove(zod)
				fsys.Remove(filepath.Join(root, "node_modules/zod/index.js"))
				changed = filepath.Join(root, "node_modules")
			} else {
				fsys.WriteFile(zod, []byte(`{"name":"zod","main":"index.js"}`))
				fsys.WriteFile(filepath.Join(root, "node_modules/zod/index.js"), []byte("export const z = {}\n"))
				changed = filepath.Join(root, "node_modules/zod")
			}
		case 3: // a module deleted or created again
			m := filepath.Join(root, modules[r.Intn(len(modules))])
			if _, err := fsys.Stat(m); err == nil {
				fsys.Remove(m)
			} else {
				fsys.WriteFile(m, []byte(good))
			}
			changed = m
		case 5: // the tool whose module imports the helper leaves the manifest or comes back (no module file changes)
			m := []byte(manifest.String())
			if c, _ := fsys.ReadFile(filepath.Join(root, ManifestName)); string(c) == string(m) {
				m = []byte(strings.Replace(string(m), "  t01: tools/t01.ts\n", "", 1))
			}
			fsys.WriteFile(filepath.Join(root, ManifestName), m)
		case 4: // an imported file comes or goes
			if _, err := fsys.Stat(extra); err == nil {
				fsys.Remove(extra)
			} else {
				fsys.WriteFile(extra, []byte("export const extra = 1\n"))
			}
			changed = extra
		}
		p, err = Load(ctx, fsys, root)
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		if changed != "" {
			paths = []string{changed}
		}
		got := InspectModulesAfter(ctx, p, insp, last.Results, paths)
		want := InspectModules(ctx, p, tsinspect.New(fsys, tsinspect.Options{}))
		if !reflect.DeepEqual(got.Findings, want.Findings) {
			t.Fatalf("step %d, %s changed: findings differ\nafter %v\nfull  %v", step, changed, got.Findings, want.Findings)
		}
		if len(got.Results) != len(want.Results) {
			t.Fatalf("step %d: %d results, want %d", step, len(got.Results), len(want.Results))
		}
		for m, w := range want.Results {
			g := got.Results[m]
			if g == nil || g.Loads != w.Loads || g.Reason != w.Reason {
				t.Fatalf("step %d, %s changed: %s: %+v, want %+v", step, changed, m, g, w)
			}
			if g == last.Results[m] {
				reused++
			}
		}
		last = got
	}
	if reused < 60*15 {
		t.Fatalf("only %d results reused over 60 changes of 24 modules", reused)
	}
}
