package diag

import (
	"strings"
	"testing"
	"unicode/utf8"
)

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

// CharColumn on long lines (the index of every 64th character) equals the
// rune count from the line's start, at every offset.
func TestCharColumnOnLongLines(t *testing.T) {
	for _, content := range []string{
		strings.Repeat("é", 300) + "\n" + strings.Repeat("a", 200) + "\r\n" + strings.Repeat("日本😀x", 100),
		strings.Repeat("\xff\xe6\x97", 90) + "\r" + strings.Repeat("ü", 64),
		"tools: {" + strings.Repeat("é: beeuni:x, ", 200) + "}",
	} {
		l := NewLines([]byte(content))
		for o := 0; o <= len(content); o++ {
			p := l.Pos(o)
			if got, want := l.CharColumn(p), utf8.RuneCount([]byte(content[l.LineStart(p.Line):o])); got != want {
				t.Fatalf("CharColumn(%+v) = %d, want %d", p, got, want)
			}
		}
	}
}

// BenchmarkCharColumnOneLine: the columns of 20,000 findings on one 640 KB
// line (a flow mapping), as `validate` prints them.
func BenchmarkCharColumnOneLine(b *testing.B) {
	for _, c := range []struct{ name, unit string }{{"ascii", "tool_00000: x, "}, {"non-ascii", "outil_é0000: x, "}} {
		unit := c.unit
		b.Run(c.name, func(b *testing.B) {
			content := []byte("tools: {" + strings.Repeat(unit, 20000) + "}\n")
			for i := 0; i < b.N; i++ {
				l := NewLines(content)
				for k := 0; k < 20000; k++ {
					_ = l.CharColumn(l.Pos(8 + k*len(unit)))
				}
			}
		})
	}
}
