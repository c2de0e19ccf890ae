package diag

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// refLines is the naive reference of Lines: the lines found by trying each
// line break of rule b at every byte, and columns by walking characters.
type refLines struct {
	content     []byte
	starts, end []int // each line's start and its end before its break
}

func newRefLines(content []byte, b Breaks) *refLines {
	r := &refLines{content: content, starts: []int{0}}
	breaks := []string{"\r\n", "\n", "\r"}
	switch b {
	case YAMLv3Breaks:
		breaks = append(breaks, "\u0085", "\u2028", "\u2029")
	case JSBreaks:
		breaks = append(breaks, "\u2028", "\u2029")
	}
	for i := 0; i < len(content); {
		n := 0
		for _, brk := range breaks {
			if bytes.HasPrefix(content[i:], []byte(brk)) {
				n = len(brk)
				break
			}
		}
		if n == 0 {
			i++
			continue
		}
		r.end = append(r.end, i)
		i += n
		r.starts = append(r.starts, i)
	}
	r.end = append(r.end, len(content))
	return r
}

// units walks the characters of line from its start up to byte offset to
// (clamped to the line's end), counting those wholly before it in u.
func (r *refLines) units(line, to int, u Unit) int {
	i, n := r.starts[line], 0
	to = min(to, r.end[line])
	for i < to {
		c, size := utf8.DecodeRune(r.content[i:r.end[line]])
		if i+size > to {
			break
		}
		switch u {
		case Bytes:
			n += size
		case Chars:
			n++
		case UTF16:
			n++
			if c >= 0x10000 {
				n++ // two units past U+FFFF
			}
		}
		i += size
	}
	return n
}

// offsetAt walks col units into line and stops before a character the
// column is inside.
func (r *refLines) offsetAt(line, col int, u Unit) int {
	if line >= len(r.starts) {
		return len(r.content)
	}
	i, n := r.starts[line], 0
	for i < r.end[line] {
		c, size := utf8.DecodeRune(r.content[i:r.end[line]])
		w := map[Unit]int{Bytes: size, Chars: 1, UTF16: 1}[u]
		if u == UTF16 && c >= 0x10000 {
			w = 2
		}
		if n+w > col {
			break
		}
		n += w
		i += size
	}
	return i
}

// checkAgainstRef holds l to the reference at every offset, line and
// column (columns past each line's end included), in every unit.
func checkAgainstRef(t *testing.T, label string, l *Lines, content []byte, b Breaks) {
	t.Helper()
	r := newRefLines(content, b)
	if l.Count() != len(r.starts) || l.Len() != len(content) || !bytes.Equal(l.Content(), content) {
		t.Fatalf("%s %q: %d lines of %d bytes, want %d lines of %d", label, content, l.Count(), l.Len(), len(r.starts), len(content))
	}
	for i := range r.starts {
		if l.LineStart(i) != r.starts[i] || l.LineEnd(i) != r.end[i] {
			t.Fatalf("%s %q: line %d is [%d,%d), want [%d,%d)", label, content, i, l.LineStart(i), l.LineEnd(i), r.starts[i], r.end[i])
		}
	}
	line := 0
	for o := 0; o <= len(content); o++ {
		for line+1 < len(r.starts) && r.starts[line+1] <= o {
			line++
		}
		p := l.Pos(o)
		if want := (Pos{Offset: o, Line: line, Col: o - r.starts[line]}); p != want {
			t.Fatalf("%s %q: Pos(%d) = %+v, want %+v", label, content, o, p, want)
		}
		for _, hint := range []int{line - 1, line, line + 1} {
			if got := l.PosNear(o, hint); got != p {
				t.Fatalf("%s %q: PosNear(%d, %d) = %+v, want %+v", label, content, o, hint, got, p)
			}
		}
		for _, u := range []Unit{Bytes, Chars, UTF16} {
			if got, want := l.Column(p, u), r.units(line, o, u); got != want {
				t.Fatalf("%s %q: Column(%+v, %d) = %d, want %d", label, content, p, u, got, want)
			}
		}
	}
	for line := range len(r.starts) + 1 {
		longest := 0
		if line < len(r.starts) {
			longest = r.end[line] - r.starts[line]
		}
		for col := 0; col <= longest+2; col++ {
			for _, u := range []Unit{Bytes, Chars, UTF16} {
				if got, want := l.OffsetAt(line, col, u), r.offsetAt(line, col, u); got != want {
					t.Fatalf("%s %q: OffsetAt(%d, %d, %d) = %d, want %d", label, content, line, col, u, got, want)
				}
			}
		}
	}
}

// TestLinesBreaks checks every line break under every rule: "\n",
// "\r\n" and a lone "\r" end a line for all (a file saved with old Mac line
// ends must not put every finding on line 1); NEL only for yaml.v3; LS and
// PS for yaml.v3 and JavaScript. Each case lists the line starts of its
// content under EditorBreaks, YAMLv3Breaks and JSBreaks.
func TestLinesBreaks(t *testing.T) {
	tests := []struct {
		name              string
		content           string
		editor, yaml, js  []int
		editorEnd0, yaml0 int // line 0's end under EditorBreaks and YAMLv3Breaks
	}{
		{"LF", "a\nb", []int{0, 2}, []int{0, 2}, []int{0, 2}, 1, 1},
		{"CRLF is one break", "a\r\nb", []int{0, 3}, []int{0, 3}, []int{0, 3}, 1, 1},
		{"lone CR", "tools:\r  Bad: x\r", []int{0, 7, 16}, []int{0, 7, 16}, []int{0, 7, 16}, 6, 6},
		{"two lone CRs: an empty line between", "a\r\rb", []int{0, 2, 3}, []int{0, 2, 3}, []int{0, 2, 3}, 1, 1},
		{"lone CR then CRLF", "a\r\r\nb", []int{0, 2, 4}, []int{0, 2, 4}, []int{0, 2, 4}, 1, 1},
		{"LF CR is two breaks", "a\n\rb", []int{0, 2, 3}, []int{0, 2, 3}, []int{0, 2, 3}, 1, 1},
		{"NEL", "a\u0085b", []int{0}, []int{0, 3}, []int{0}, 4, 1},
		{"LS", "a\u2028b", []int{0}, []int{0, 4}, []int{0, 4}, 5, 1},
		{"PS", "é\u2029b\n", []int{0, 7}, []int{0, 5, 7}, []int{0, 5, 7}, 6, 2},
		{"NEL after CR", "a\r\u0085b", []int{0, 2}, []int{0, 2, 4}, []int{0, 2}, 1, 1},
		{"truncated separators break nothing", "a\xe2\x80\n\xc2", []int{0, 4}, []int{0, 4}, []int{0, 4}, 3, 3},
		{"empty", "", []int{0}, []int{0}, []int{0}, 0, 0},
		{"final break: an empty last line", "a\n", []int{0, 2}, []int{0, 2}, []int{0, 2}, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			content := []byte(tc.content)
			for _, c := range []struct {
				b    Breaks
				want []int
			}{{EditorBreaks, tc.editor}, {YAMLv3Breaks, tc.yaml}, {JSBreaks, tc.js}} {
				l := NewLinesFor(content, c.b)
				var got []int
				for i := range l.Count() {
					got = append(got, l.LineStart(i))
				}
				if fmt.Sprint(got) != fmt.Sprint(c.want) || l.Breaks() != c.b {
					t.Errorf("rule %d: line starts %v, want %v", c.b, got, c.want)
				}
				checkAgainstRef(t, fmt.Sprintf("rule %d", c.b), l, content, c.b)
				// With gives the same index as indexing anew.
				checkAgainstRef(t, fmt.Sprintf("With(%d)", c.b), NewLines(content).With(c.b), content, c.b)
			}
			if got := NewLines(content).LineEnd(0); got != tc.editorEnd0 {
				t.Errorf("EditorBreaks: line 0 ends at %d, want %d", got, tc.editorEnd0)
			}
			if got := NewLinesFor(content, YAMLv3Breaks).LineEnd(0); got != tc.yaml0 {
				t.Errorf("YAMLv3Breaks: line 0 ends at %d, want %d", got, tc.yaml0)
			}
		})
	}
}

// With shares the index when the rules agree on the content.
func TestWithShares(t *testing.T) {
	for _, c := range []string{"a\nb", "é\r\nü", "日本\n"} {
		l := NewLines([]byte(c))
		if l.With(YAMLv3Breaks) != l || l.With(JSBreaks) != l {
			t.Errorf("%q: With made a second index of the same lines", c)
		}
	}
	l := NewLines([]byte("a\u2028b"))
	if y := l.With(YAMLv3Breaks); y == l || y.Count() != 2 || y.With(EditorBreaks).Count() != 1 {
		t.Errorf("With(YAMLv3Breaks) on an LS: %d lines", y.Count())
	}
}

// Columns on long lines (from the marks of every 64th character) equal
// the reference walk, in every unit, at every offset and column.
func TestColumnsOnLongLines(t *testing.T) {
	for _, content := range []string{
		strings.Repeat("é", 300) + "\n" + strings.Repeat("a", 200) + "\r\n" + strings.Repeat("日本😀x", 100),
		strings.Repeat("\xff\xe6\x97", 90) + "\r" + strings.Repeat("ü", 64),
		"tools: {" + strings.Repeat("é: beeuni:x, ", 200) + "}",
		strings.Repeat("😀", 257) + "\u2028" + strings.Repeat("a\u0085", 150) + "\n",
	} {
		for _, b := range []Breaks{EditorBreaks, YAMLv3Breaks, JSBreaks} {
			l := NewLinesFor([]byte(content), b)
			checkAgainstRef(t, fmt.Sprintf("rule %d", b), l, []byte(content), b)
			// A long line holding non-ASCII bytes is converted from its
			// marks, not walked from its start.
			if marks, wide := l.wide(0); !wide || len(marks) < (l.LineEnd(0)-l.LineStart(0))/(colStride*utf8.UTFMax) {
				t.Errorf("rule %d: %d marks on a line of %d bytes", b, len(marks), l.LineEnd(0))
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

// TestEditedChains applies long chains of edits (typing within a line,
// new lines, non-ASCII text and "\r"), and holds each index to the
// reference of the same edits on a string and to NewLines of it (its flags
// included), and every earlier version to its own content (copy on write).
func TestEditedChains(t *testing.T) {
	pieces := []string{"", "a", "bc", "\n", "x\ny\n", "\n\n", "tools:\n  x: y\n", "é", "\r\n", "\r", "😀"}
	seed := uint32(9)
	rnd := func(n int) int { seed = seed*1664525 + 1013904223; return int(seed>>8) % n }
	for round := range 200 {
		text := []string{"", "a", "tools:\n  a: b\n", "x\ny\nz", "\n\n\n"}[rnd(5)]
		l := NewLines([]byte(text))
		asciiOnly := rnd(4) > 0
		at := 0
		for step := range 150 {
			start, end := rnd(len(text)+1), rnd(len(text)+1)
			if start > end {
				start, end = end, start
			}
			if rnd(3) > 0 && step > 0 {
				start, end = min(at, len(text)), min(at, len(text)) // typing
			}
			insert := pieces[rnd(len(pieces))]
			if asciiOnly {
				insert = pieces[rnd(7)]
			}
			prev, prevText := l, text
			l = l.Edited(start, end, insert)
			text = text[:start] + insert + text[end:]
			at = start + len(insert)
			if string(prev.Content()) != prevText {
				t.Fatalf("round %d step %d: the edit changed the content of the version before it", round, step)
			}
			if rnd(10) == 0 || step == 149 {
				label := fmt.Sprintf("round %d step %d", round, step)
				ref := NewLines([]byte(text))
				if l.ascii != ref.ascii || l.onlyLF != ref.onlyLF {
					t.Fatalf("%s: ascii=%v onlyLF=%v, want %v %v", label, l.ascii, l.onlyLF, ref.ascii, ref.onlyLF)
				}
				checkAgainstRef(t, label, l, []byte(text), EditorBreaks)
			}
		}
	}
}

func TestCompact(t *testing.T) {
	ascii := []byte("one\ntwo three\n\nfour")
	l := NewLines(ascii)
	c := l.Compact()
	if c.Content() != nil {
		t.Fatalf("Content of a compact ASCII index = %q, want nil", c.Content())
	}
	for off := 0; off <= len(ascii)+1; off++ {
		p := l.Pos(off)
		if got := c.Pos(off); got != p {
			t.Fatalf("Pos(%d) = %+v, want %+v", off, got, p)
		}
		for _, u := range []Unit{Bytes, Chars, UTF16} {
			if got, want := c.Column(p, u), l.Column(p, u); got != want {
				t.Fatalf("Column(%+v, %d) = %d, want %d", p, u, got, want)
			}
		}
	}
	if c.Count() != l.Count() || c.Len() != l.Len() || c.LineEnd(1) != l.LineEnd(1) {
		t.Fatalf("compact index: %d lines, %d bytes, line 1 ends at %d; want %d, %d, %d",
			c.Count(), c.Len(), c.LineEnd(1), l.Count(), l.Len(), l.LineEnd(1))
	}
	// An edit's index compacts too.
	e := l.Edited(4, 4, "x")
	if got, want := e.Compact().Pos(10), e.Pos(10); got != want {
		t.Fatalf("compact edited index: Pos(10) = %+v, want %+v", got, want)
	}
	// A column of non-ASCII text, a line ending in "\r\n", read the
	// content: those indexes stay whole.
	for _, content := range []string{"h\u00e9llo\nw\u00f6rld", "one\r\ntwo"} {
		l := NewLines([]byte(content))
		if c := l.Compact(); string(c.Content()) != content {
			t.Fatalf("Compact of %q: content %q, want it kept", content, c.Content())
		}
	}
}
