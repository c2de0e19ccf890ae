package diag

import "testing"

// TestLinesBreaks checks that lines break where YAML, the LSP and editors
// break them: "\n", "\r\n" and a lone "\r" (a file saved with old Mac line
// ends must not put every finding on line 1).
func TestLinesBreaks(t *testing.T) {
	tests := []struct {
		content string
		offset  int
		line    int
		col     int
		lineEnd int
	}{
		{"a\nb", 2, 1, 0, 3},
		{"a\r\nb", 3, 1, 0, 4},
		{"a\r\nb", 1, 0, 1, 1}, // the "\r" of "\r\n" belongs to the line it ends
		{"tools:\r  Bad: x\r", 9, 1, 2, 15},
		{"a\r\rb", 2, 1, 0, 2}, // two lone CRs: an empty line between
		{"a\r\rb", 3, 2, 0, 4},
		{"a\r\r\nb", 2, 1, 0, 2},
		{"a\r\r\nb", 4, 2, 0, 5},
	}
	for _, tc := range tests {
		l := NewLines([]byte(tc.content))
		p := l.Pos(tc.offset)
		if p.Line != tc.line || p.Col != tc.col {
			t.Errorf("%q: Pos(%d) = line %d col %d, want line %d col %d", tc.content, tc.offset, p.Line, p.Col, tc.line, tc.col)
		}
		if got := l.LineEnd(p.Line); got != tc.lineEnd {
			t.Errorf("%q: LineEnd(%d) = %d, want %d", tc.content, p.Line, got, tc.lineEnd)
		}
	}
}
