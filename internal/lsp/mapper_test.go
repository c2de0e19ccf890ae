package lsp

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

func pos(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }

func TestMapperPositions(t *testing.T) {
	// Each case marks one offset with "|" in text; the want positions are
	// that offset in UTF-16 and UTF-8.
	tests := []struct {
		name      string
		text      string
		utf16     protocol.Position
		utf8      protocol.Position
		roundTrip bool
	}{
		{"ascii", "tools:\n  a|b: x\n", pos(1, 3), pos(1, 3), true},
		{"japanese", "# 日本語\n  名前|: x\n", pos(1, 4), pos(1, 8), true},
		{"emoji surrogate pair", "a😀|b", pos(0, 3), pos(0, 5), true},
		{"emoji then japanese", "😀日|本", pos(0, 3), pos(0, 7), true},
		{"tabs", "\t\tx|y", pos(0, 3), pos(0, 3), true},
		{"crlf second line", "a\r\nb|c\r\n", pos(1, 1), pos(1, 1), true},
		{"lone cr ends a line", "a\rb|c", pos(1, 1), pos(1, 1), true},
		{"end of file", "ab\n|", pos(1, 0), pos(1, 0), true},
		{"invalid utf-8 counts one per byte", "a\xff\xfe|b", pos(0, 3), pos(0, 3), true},
		{"nul bytes", "\x00\x00|x", pos(0, 2), pos(0, 2), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			offset := strings.Index(tt.text, "|")
			content := []byte(strings.Replace(tt.text, "|", "", 1))
			for _, c := range []struct {
				enc  Encoding
				want protocol.Position
			}{{UTF16, tt.utf16}, {UTF8, tt.utf8}} {
				m := NewMapper(content, c.enc)
				if got := m.Position(offset); got != c.want {
					t.Errorf("%s: Position(%d) = %v, want %v", c.enc, offset, got, c.want)
				}
				if got := m.Offset(c.want); tt.roundTrip && got != offset {
					t.Errorf("%s: Offset(%v) = %d, want %d", c.enc, c.want, got, offset)
				}
			}
		})
	}
}

func TestMapperClamps(t *testing.T) {
	content := []byte("ab😀\r\ncd\n")
	tests := []struct {
		name string
		enc  Encoding
		in   protocol.Position
		want int
	}{
		{"past the end of a line", UTF16, pos(0, 99), 6},
		{"past the end of a line utf-8", UTF8, pos(0, 99), 6},
		{"inside a surrogate pair snaps to its start", UTF16, pos(0, 3), 2},
		{"inside a UTF-8 sequence snaps to its start", UTF8, pos(0, 4), 2},
		{"line past the last", UTF16, pos(9, 0), len(content)},
		{"last empty line", UTF16, pos(2, 5), len(content)},
		{"huge values", UTF16, pos(1<<31, 1<<31), len(content)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NewMapper(content, tt.enc).Offset(tt.in); got != tt.want {
				t.Errorf("Offset(%v) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
	m := NewMapper(content, UTF16)
	if got := m.Position(-5); got != pos(0, 0) {
		t.Errorf("Position(-5) = %v", got)
	}
	if got := m.Position(1000); got != pos(2, 0) {
		t.Errorf("Position(1000) = %v, want 2:0", got)
	}
	if got := m.Position(3); got != pos(0, 2) {
		t.Errorf("Position inside the emoji = %v, want 0:2 (its start)", got)
	}
	if got := m.Position(7); got != pos(0, 4) {
		t.Errorf("Position between \\r and \\n = %v, want the line's end 0:4", got)
	}
}

// utf16Column is the reference: the UTF-16 length of a valid UTF-8 prefix.
func utf16Column(s string) int {
	n := 0
	for _, r := range s {
		n += len(utf16.Encode([]rune{r}))
	}
	return n
}

func FuzzMapperRoundTrip(f *testing.F) {
	for _, seed := range []string{"", "a\nb", "日本\r\n😀\tx", "\xff\xfe\n\r\r\n", "tools:\n  名前: tools/x.ts # 😀\n", strings.Repeat("名😀é\xff", 100) + "\r\nx"} {
		f.Add([]byte(seed), uint16(3))
	}
	f.Fuzz(func(t *testing.T, content []byte, at uint16) {
		for _, enc := range []Encoding{UTF16, UTF8} {
			m := NewMapper(content, enc)
			offset := int(at) % (len(content) + 1)
			p := m.Position(offset)
			back := m.Offset(p)
			if back > offset || back < 0 {
				t.Fatalf("%s: Offset(Position(%d)=%v) = %d", enc, offset, p, back)
			}
			// Snapping only moves back to a character start, or from
			// inside a "\r\n" to before it.
			if back < offset {
				insideCRLF := string(content[back:offset]) == "\r" && content[offset] == '\n'
				insideRune := offset < len(content) && !utf8.RuneStart(content[offset])
				if !insideCRLF && !insideRune {
					t.Fatalf("%s: offset %d moved back to %d over %q", enc, offset, back, content[back:offset])
				}
			}
			if p2 := m.Position(back); p2 != p {
				t.Fatalf("%s: Position(%d) = %v, Position(%d) = %v", enc, offset, p, back, p2)
			}
			if enc == UTF16 && utf8.Valid(content) && !strings.ContainsRune(string(content), '\r') {
				lineStart := strings.LastIndexByte(string(content[:back]), '\n') + 1
				if want := utf16Column(string(content[lineStart:back])); int(p.Character) != want {
					t.Fatalf("utf-16 column of %d = %d, want %d", back, p.Character, want)
				}
			}
		}
	})
}

// FuzzIncrementalSync checks that edits sent as ranges give the same text
// as the same edits applied to a plain string.
func FuzzIncrementalSync(f *testing.F) {
	f.Add([]byte("tools:\n  a: b\n"), int64(1))
	f.Add([]byte("日本😀\r\nx"), int64(2))
	f.Fuzz(func(t *testing.T, initial []byte, seed int64) {
		if !utf8.Valid(initial) {
			return // clients send valid UTF-8 (JSON strings)
		}
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		pieces := []string{"", "a", "\n", "\r\n", "日", "😀", "\t", "tools:\n"}
		for _, enc := range []Encoding{UTF16, UTF8} {
			want := string(initial)
			got := initial
			for step := 0; step < 20; step++ {
				// Pick rune-aligned offsets in want.
				starts := []int{}
				for i := range want {
					starts = append(starts, i)
				}
				starts = append(starts, len(want))
				a, b := starts[rng.IntN(len(starts))], starts[rng.IntN(len(starts))]
				if a > b {
					a, b = b, a
				}
				if strings.HasSuffix(want[:a], "\r") && strings.HasPrefix(want[a:], "\n") {
					continue // the protocol cannot address the middle of "\r\n"
				}
				if strings.HasSuffix(want[:b], "\r") && strings.HasPrefix(want[b:], "\n") {
					continue
				}
				text := pieces[rng.IntN(len(pieces))]
				m := NewMapper([]byte(want), enc)
				r := protocol.Range{Start: m.Position(a), End: m.Position(b)}
				got = applyChanges(got, enc, []contentChange{{Range: &r, Text: text}})
				want = want[:a] + text + want[b:]
				if string(got) != want {
					t.Fatalf("%s step %d: got %q, want %q", enc, step, got, want)
				}
			}
		}
	})
}

// Positions on long lines of a content that is not all ASCII (converted
// from the marks of every 64th character) equal the reference walk and
// convert back, in both encodings; with invalid bytes, they convert back.
func TestMapperLongNonASCIILines(t *testing.T) {
	valid := "tools: {" + strings.Repeat("名前: beeuni:x, 😀é: 1, ", 60) + "}\r\n" +
		strings.Repeat("a", 300) + "\n" + strings.Repeat("ü😀", 200) + "\r" + strings.Repeat("ü", 257)
	invalid := strings.Repeat("\xff😀\xe6\x97", 200) + "\n" + strings.Repeat("é", 300)
	for _, text := range []string{valid, invalid} {
		for _, enc := range []Encoding{UTF16, UTF8} {
			m := NewMapper([]byte(text), enc)
			for o := 0; o <= len(text); o++ {
				p := m.Position(o)
				back := m.Offset(p)
				if m.Position(back) != p || back > o {
					t.Fatalf("%s: Offset(Position(%d) = %v) = %d", enc, o, p, back)
				}
				onChar := o == len(text) || utf8.RuneStart(text[o]) && !(o > 0 && text[o-1] == '\r' && text[o] == '\n')
				if text == valid && onChar {
					if want := refPositionLSP(text, o, enc); p != want {
						t.Fatalf("%s: Position(%d) = %v, want %v", enc, o, p, want)
					}
				}
			}
		}
	}
}

// BenchmarkMapperPositionsOneLine converts the ranges of 20,000
// diagnostics on one 640 KB line holding non-ASCII names (a flow mapping),
// as the server publishes them.
func BenchmarkMapperPositionsOneLine(b *testing.B) {
	const unit = "outil_é0000: x, "
	content := []byte("tools: {" + strings.Repeat(unit, 20000) + "}\n")
	for i := 0; i < b.N; i++ {
		m := NewMapper(content, UTF16)
		for k := 0; k < 20000; k++ {
			_ = m.Range(8+k*len(unit), 8+k*len(unit)+12)
		}
	}
}
