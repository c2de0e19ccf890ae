package loadtime

import (
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// loadTree transforms and parses a file as parseFile does.
func loadTree(t *testing.T, name string, src []byte) *jsfront.Tree {
	t.Helper()
	loader, tsconfig := jsfront.BuildOptions(name, jsfront.JSXOptions{})
	r := jsfront.Transform(name, src, loader, tsconfig)
	if len(r.Errors) > 0 {
		t.Fatalf("%s: %s", name, r.Errors[0].Text)
	}
	tree, err := jsfront.NewTree(name, src, r)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return tree
}

// TestLoadWalkFollowsABodyOnce: a function called at load many times is
// walked once (its reads are the same at every call), so the walk stays
// linear in the file.
func TestLoadWalkFollowsABodyOnce(t *testing.T) {
	src := "function g(n: number) { const m = n + 1; return m }\n" + strings.Repeat("g(1);\n", 2000) + "export default {}\n"
	tree := loadTree(t, "m.ts", []byte(src))
	w := Walk(tree)
	if w.follows != 1 {
		t.Errorf("%d bodies walked, want 1", w.follows)
	}
	if len(w.calls) != 2000 {
		t.Errorf("%d calls at load, want 2000", len(w.calls))
	}
}

// TestThrownMessagePastASCII: esbuild writes characters past ASCII in a
// string as `\xE9` or `\u{1F600}`; a thrown message is read with
// JavaScript's escapes (Go's would make \xE9 a lone byte and refuse
// \u{...}).
func TestThrownMessagePastASCII(t *testing.T) {
	src := "throw new Error('déjà 🙂')\nexport default {}\n"
	if w := Walk(loadTree(t, "m.ts", []byte(src))); w.stop == nil || w.stop.msg != "déjà 🙂" {
		t.Errorf("stop %+v, want the message déjà 🙂", w.stop)
	}
}
