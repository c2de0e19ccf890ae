package diag

import (
	"strings"
	"testing"
)

// FuzzLines holds Lines, under each rule, to the naive reference on
// arbitrary bytes (invalid UTF-8, lone "\r", "\r\n", NEL, LS, PS, half of
// one): the same lines, every offset's position and column in every unit,
// every column's offset; and whatever position a client sends, conversions
// stay inside the content and never panic.
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
		"a\u0085b\u2028c\u2029d\xe2\x80",
		strings.Repeat("é日😀", 70) + "\nx", // past the 64-character marks
	} {
		f.Add([]byte(s), 3, 5)
	}
	f.Fuzz(func(t *testing.T, content []byte, line, col int) {
		if len(content) > 1<<11 {
			return
		}
		for _, b := range []Breaks{EditorBreaks, YAMLv3Breaks, JSBreaks} {
			l := NewLinesFor(content, b)
			checkAgainstRef(t, "fuzz", l, content, b)
			checkAgainstRef(t, "fuzz With", NewLines(content).With(b), content, b)
			// Whatever a client sends, conversions stay inside the content.
			for _, u := range []Unit{Bytes, Chars, UTF16} {
				if o := l.OffsetAt(line, col, u); o < 0 || o > len(content) {
					t.Fatalf("OffsetAt(%d, %d, %d) = %d outside [0,%d]", line, col, u, o, len(content))
				}
				if c := l.Column(Pos{Line: line, Col: col}, u); c < 0 || c > len(content) {
					t.Fatalf("Column(line %d, col %d, %d) = %d", line, col, u, c)
				}
			}
			if p := l.Pos(line); p.Offset < 0 || p.Offset > len(content) {
				t.Fatalf("Pos(%d) = %+v outside the content", line, p)
			}
			if p := l.PosNear(line, col); p != l.Pos(line) {
				t.Fatalf("PosNear(%d, %d) = %+v, Pos %+v", line, col, p, l.Pos(line))
			}
			if r := l.Range(line, col); r.Start.Offset < 0 || r.End.Offset > len(content) {
				t.Fatalf("Range(%d, %d) = %+v outside the content", line, col, r)
			}
		}
	})
}

// FuzzEdited applies an edit to an index, and then another, and holds the
// result to the index of the edited bytes made anew.
func FuzzEdited(f *testing.F) {
	f.Add([]byte("tools:\n  a: b\n"), 3, 5, "x\n", 9, 9, "é")
	f.Add([]byte("a\nb\nc"), 2, 2, "yy", 3, 4, "\r")
	f.Fuzz(func(t *testing.T, content []byte, s1, e1 int, t1 string, s2, e2 int, t2 string) {
		if len(content) > 1<<10 || len(t1) > 64 || len(t2) > 64 {
			return
		}
		want := string(content)
		l := NewLines(content)
		for _, e := range []struct {
			start, end int
			text       string
		}{{s1, e1, t1}, {s2, e2, t2}} {
			l = l.Edited(e.start, e.end, e.text)
			start, end := max(0, min(e.start, len(want))), max(0, min(e.end, len(want)))
			if end < start {
				start, end = end, start
			}
			want = want[:start] + e.text + want[end:]
			checkAgainstRef(t, "edited", l, []byte(want), EditorBreaks)
		}
	})
}
