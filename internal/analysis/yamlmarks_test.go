package analysis

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The marks of yaml.v3 count NEL, LS and PS as line breaks: the offsets and
// line ends of YAMLMarks must too, or every node after one is misplaced.
func TestYAMLMarksLineBreaks(t *testing.T) {
	for _, brk := range []string{"\n", "\r\n", "\r", "\u0085", "\u2028", "\u2029"} {
		for _, bom := range []string{"", "\ufeff"} {
			content := bom + "# a" + brk + "# b\nkey: !!str &x value\n"
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(content), &doc); err != nil {
				t.Fatalf("%q: %v", content, err)
			}
			k, v := doc.Content[0].Content[0], doc.Content[0].Content[1]
			m := NewYAMLMarks([]byte(content))
			if got, want := m.Offset(k.Line, k.Column), strings.Index(content, "key"); got != want {
				t.Errorf("%q: key at %d, want %d", content, got, want)
			}
			if got, want := m.NodeStart(v), strings.Index(content, "value"); got != want {
				t.Errorf("%q: value (after its tag and anchor) at %d, want %d", content, got, want)
			}
			if got := m.LineCount(); got != 4 {
				t.Errorf("%q: %d lines, want 4", content, got)
			}
			if got, want := m.LineEnd(0), len(bom)+len("# a"); got != want {
				t.Errorf("%q: line 0 ends at %d, want %d", content, got, want)
			}
			if got, want := m.LineEnd(1), strings.Index(content, "\nkey"); got != want {
				t.Errorf("%q: line 1 ends at %d, want %d", content, got, want)
			}
			if got := m.LineEnd(3); got != len(content) {
				t.Errorf("%q: the last line ends at %d, want %d", content, got, len(content))
			}
		}
	}
}
