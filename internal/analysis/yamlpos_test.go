package analysis

import (
	"bytes"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// samePositions reports whether a and b convert every offset and mark the
// same way: the same content and BOM, the same lines under both rules, and
// the YAML index shared with the editor's in both or in neither.
func samePositions(a, b *positions) bool {
	sameLines := func(x, y *diag.Lines) bool {
		if (x == nil) != (y == nil) {
			return false
		}
		if x == nil {
			return true
		}
		if x.Count() != y.Count() || x.Breaks() != y.Breaks() {
			return false
		}
		for i := range x.Count() {
			if x.LineStart(i) != y.LineStart(i) || x.LineEnd(i) != y.LineEnd(i) {
				return false
			}
		}
		return true
	}
	return bytes.Equal(a.text, b.text) && a.bom == b.bom &&
		sameLines(a.lines, b.lines) && sameLines(a.yaml, b.yaml) && (a.yaml == a.lines) == (b.yaml == b.lines)
}

// The ranges of the loader convert yaml.v3's marks, whose lines NEL, LS
// and PS break, into offsets and the editor's lines, which they do not
// break: a node after one is still found at its text, on the editor's line.
func TestNodeRangesAfterUnicodeBreaks(t *testing.T) {
	for _, brk := range []string{"\n", "\r\n", "\r", "\u0085", "\u2028", "\u2029"} {
		for _, bom := range []string{"", "\ufeff"} {
			content := bom + "# a" + brk + "# b\ntools:\n  é_tool: tools/é.ts\n"
			p := parseFile(nil, "/repo/beeuni.yaml", []byte(content))
			if p.root == nil {
				t.Fatalf("%q: no parse", content)
			}
			tools := p.root.Content[1]
			key, value := tools.Content[0], tools.Content[1]
			editorLine := strings.Count(content[:strings.Index(content, "  é_tool")], "\n") + strings.Count(content, "\r") - strings.Count(content, "\r\n")
			for _, c := range []struct {
				n    *yaml.Node
				text string
			}{{key, "é_tool"}, {value, "tools/é.ts"}} {
				r := p.pos.nodeRange(c.n)
				if got := content[r.Start.Offset:r.End.Offset]; got != c.text || r.Start.Line != editorLine || r.End.Line != editorLine {
					t.Errorf("%q: range of %s is %q on lines %d-%d, want %q on line %d", content, c.text, got, r.Start.Line, r.End.Line, c.text, editorLine)
				}
				if want := p.lines.Pos(r.Start.Offset); r.Start != want {
					t.Errorf("%q: %s starts at %+v, want %+v", content, c.text, r.Start, want)
				}
			}
		}
	}
}
