package tsinspect_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
	"github.com/beeuni/beeuni-lsp/internal/vfs/vfstest"
)

// doubling is a module whose 31 lines double a value line by line (8 bytes
// grow to 8 GiB), then read it as the description. Bun itself cannot load
// these (it runs out of memory), so they are held here rather than in a
// golden fixture that Bun checks.
func doubling(first, step, description string) string {
	var b strings.Builder
	b.WriteString(first + "\n")
	for i := 1; i <= 30; i++ {
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(step, "{i}", fmt.Sprint(i)), "{p}", fmt.Sprint(i-1)) + "\n")
	}
	b.WriteString("export default { description: " + description + ", parameters: { type: 'object', properties: {} }, execute() {} }\n")
	return b.String()
}

// TestValuesTooLarge: a value that doubles past a generous size is not
// known ("too large to follow statically"); the inspection neither runs
// out of memory nor takes long.
func TestValuesTooLarge(t *testing.T) {
	modules := map[string]string{
		"tools/plus.ts":         doubling("const s0 = 'xxxxxxxx'", "const s{i} = s{p} + s{p}", "s30"),
		"tools/template.ts":     doubling("const s0 = 'xxxxxxxx'", "const s{i} = `${s{p}}${s{p}}`", "s30"),
		"tools/join.mjs":        doubling("const s0 = 'xxxxxxxx'", "const s{i} = [s{p}, s{p}].join('')", "s30"),
		"tools/array.mjs":       doubling("const a0 = ['x', 'y']", "const a{i} = [...a{p}, ...a{p}]", "a30.join('')"),
		"tools/object.mjs":      doubling("const o0 = { x: 'y' }", "const o{i} = { ...o{p}, ...o{p} }", "Object.values(o30).join('')"),
		"tools/object_keys.mjs": doubling("const o0 = { x: 'y' }", "const o{i} = { ...o{p}, ...o{p} }", "Object.keys(o30).join('')"),
	}
	root := vfstest.WriteRepo(t, modules)
	// "Neither takes long" is held by inspectGuarded's guard against a hang
	// and by the benchmarks, not by the product's 10 s timeout, which a
	// -race build on a busy machine may pass (reporting M12 instead).
	in := tsinspect.New(vfs.NewDisk(), tsinspect.Options{Timeout: time.Hour})
	for module := range modules {
		t.Run(module, func(t *testing.T) {
			r := inspectGuarded(t, in, root, filepath.Join(root, module))
			if !r.Loads || r.DescriptionKnown {
				t.Errorf("loads=%v description known=%v %q; want it loads, the description not known", r.Loads, r.DescriptionKnown, r.Description)
			}
			wantModuleFinding(t, r, "M11", "too large to follow statically")
		})
	}
}
