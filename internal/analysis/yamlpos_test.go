package analysis

import (
	"bytes"

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
	return bytes.Equal(a.content, b.content) && a.bom == b.bom &&
		sameLines(a.lines, b.lines) && sameLines(a.yaml, b.yaml) && (a.yaml == a.lines) == (b.yaml == b.lines)
}
