package tsinspect

import (
	"strings"
	"testing"
)

// TestLoadWalkFollowsABodyOnce: a function called at load many times is
// walked once (its reads are the same at every call), so the walk stays
// linear in the file.
func TestLoadWalkFollowsABodyOnce(t *testing.T) {
	src := "function g(n: number) { const m = n + 1; return m }\n" + strings.Repeat("g(1);\n", 2000) + "export default {}\n"
	tree := parseTree(t, "m.ts", []byte(src))
	w := walkLoad(tree)
	if w.follows != 1 {
		t.Errorf("%d bodies walked, want 1", w.follows)
	}
	if len(w.calls) != 2000 {
		t.Errorf("%d calls at load, want 2000", len(w.calls))
	}
}
