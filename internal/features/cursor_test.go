package features

import (
	"strings"
	"testing"
)

// TestContextShapes checks the cursor context on lines the marker tests do
// not reach easily: quotes inside plain scalars, a cursor in a comment after
// one, keys with quotes, and the cursor on a dash.
func TestContextShapes(t *testing.T) {
	for _, c := range []struct {
		text string
		slot slotKind
		path string
		key  string
	}{
		{"tools:\n  it's: x # note ⁁\n", slotNone, "", ""},
		{"tools:\n  a: don't⁁\n", slotValue, "tools", "a"},
		{"tools:\n  \"quoted\": ⁁\n", slotValue, "tools", "quoted"},
		{"imports:\n  ⁁- a.yaml\n", slotNone, "", ""},
		{"agents:\n  x:\n    tools: [a, 'b, c', ⁁]\n", slotItem, "agents x tools", ""},
		{"agents:\n  x:\n    tools: [a] # [⁁\n", slotNone, "", ""},
		{"- name: a\n  tools: ⁁\n", slotValue, "-", "tools"},
		{"list:\n  - name: a\n    tools:\n      - ⁁\n", slotItem, "list - tools", ""},
	} {
		off := strings.Index(c.text, cursorMark)
		text := []byte(strings.Replace(c.text, cursorMark, "", 1))
		ctx := contextAt(text, off)
		if ctx.slot != c.slot || strings.Join(ctx.path, " ") != c.path || ctx.key != c.key {
			t.Errorf("%q: slot %d path %q key %q, want %d %q %q", c.text, ctx.slot, ctx.path, ctx.key, c.slot, c.path, c.key)
		}
	}
}
