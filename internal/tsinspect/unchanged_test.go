package tsinspect

import (
	"context"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

func TestRelatedPaths(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"/repo/tools/a.ts", "/repo/tools/a.ts", true},
		{"/repo/node_modules/zod/package.json", "/repo/node_modules", true}, // a folder deleted with its contents
		{"/repo/node_modules", "/repo/node_modules/zod/index.js", true},     // a folder created with a file in it
		{"/repo/tools/a.ts", "/repo/tools/ab.ts", false},
		{"/repo/tools/a", "/repo/tools/a.ts", false},
		{"/repo/tools/a.ts", "/repo/other/a.ts", false},
		{"/", "/repo/a.ts", true},
	}
	for _, c := range cases {
		if got := related(c.a, c.b); got != c.want {
			t.Errorf("related(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := related(c.b, c.a); got != c.want {
			t.Errorf("related(%q, %q) = %v, want %v", c.b, c.a, got, c.want)
		}
	}
}

// TestUnchanged: the last inspection of a module is reused while no path it
// read changed, and not once its own file, a file it imports, or the folder
// of a package it looked for changed.
func TestUnchanged(t *testing.T) {
	fsys := vfs.MemFromTxtar("/repo", []byte(`-- package.json --
{"name": "p", "dependencies": {"zod": "^3"}}
-- tools/a.ts --
import { h } from './lib/h.ts'
import { z } from 'zod'
export default { description: 'A.', parameters: { type: 'object', properties: {} }, execute() { return [h(), z] } }
-- tools/lib/h.ts --
export function h() { return 1 }
`))
	in := New(fsys, Options{})
	r := in.Inspect(context.Background(), "/repo", "/repo/tools/a.ts")
	if _, ok := in.Unchanged("/repo", "/repo/tools/b.ts", nil); ok {
		t.Fatal("a module never inspected is unchanged")
	}
	for _, unrelated := range [][]string{nil, {"/repo/tools/b.ts"}, {"/repo/README.md", "/repo/tools/lib/h.tsx"}} {
		if got, ok := in.Unchanged("/repo", "/repo/tools/a.ts", unrelated); !ok || got != r {
			t.Errorf("changed %v: the inspection is not reused", unrelated)
		}
	}
	for _, related := range [][]string{{"/repo/tools/a.ts"}, {"/repo/tools/lib/h.ts"}, {"/repo/tools/lib"}, {"/repo/node_modules/zod"}, {"/repo/node_modules"}} {
		if _, ok := in.Unchanged("/repo", "/repo/tools/a.ts", related); ok {
			t.Errorf("changed %v: the inspection is reused", related)
		}
	}
}
