package diag

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzLines checks the offset ⇄ (line, column) conversion on arbitrary
// bytes, including invalid UTF-8, lone "\r" and "\r\n": every offset maps to
// a position inside the content and back, and no input makes a conversion
// panic, whatever position a client sends.
func FuzzLines(f *testing.F) {
	for _, s := range []string{
		"",
		"\n",
		"tools:\n  web_search: beeuni:web_search\n",
		"a\r\nb\r\n",
		"a\rb\n\r",
		"日本語: 😀\n\tx: y",
		"\xff\xfe\x00\n\xc3",
		"no newline at end",
		strings.Repeat("é日😀", 70) + "\nx", // past the 64-character marks
	} {
		f.Add([]byte(s), 3, 5)
	}
	f.Fuzz(func(t *testing.T, content []byte, line, col int) {
		l := NewLines(content)
		// Line breaks: "\n", "\r\n" and a lone "\r".
		breaks := bytes.Count(content, []byte("\n")) + bytes.Count(content, []byte("\r")) - bytes.Count(content, []byte("\r\n"))
		if l.Count() != breaks+1 {
			t.Fatalf("Count = %d for %d line breaks", l.Count(), breaks)
		}
		for o := 0; o <= len(content); o++ {
			p := l.Pos(o)
			if p.Offset != o || p.Line < 0 || p.Line >= l.Count() || p.Col < 0 {
				t.Fatalf("Pos(%d) = %+v", o, p)
			}
			if l.LineStart(p.Line)+p.Col != o {
				t.Fatalf("Pos(%d) = %+v but line %d starts at %d", o, p, p.Line, l.LineStart(p.Line))
			}
			end := l.LineEnd(p.Line)
			want := min(o, end)
			if got := l.Offset(p.Line, p.Col); got != want {
				t.Fatalf("Offset(Pos(%d)) = %d, want %d (line end %d)", o, got, want, end)
			}
			if cc := l.CharColumn(p); cc != utf8.RuneCount(content[l.LineStart(p.Line):o]) {
				t.Fatalf("CharColumn(%+v) = %d", p, cc)
			}
		}
		for i := 0; i < l.Count(); i++ {
			s, e := l.LineStart(i), l.LineEnd(i)
			if s > e || e > len(content) || bytes.ContainsRune(content[s:e], '\n') {
				t.Fatalf("line %d = [%d,%d) in %d bytes", i, s, e, len(content))
			}
		}
		// Whatever a client sends, conversions stay inside the content.
		o := l.Offset(line, col)
		if o < 0 || o > len(content) {
			t.Fatalf("Offset(%d, %d) = %d outside [0,%d]", line, col, o, len(content))
		}
		p := l.Pos(line)
		if p.Offset < 0 || p.Offset > len(content) {
			t.Fatalf("Pos(%d) = %+v outside the content", line, p)
		}
		r := l.Range(line, col)
		if r.Start.Offset < 0 || r.End.Offset > len(content) {
			t.Fatalf("Range(%d, %d) = %+v outside the content", line, col, r)
		}
		if cc := l.CharColumn(Pos{Line: line, Col: col}); cc < 0 || cc > len(content) {
			t.Fatalf("CharColumn(line %d, col %d) = %d", line, col, cc)
		}
	})
}
