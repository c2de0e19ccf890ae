package analysis

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// walkOffset is the reference: the byte offset of a yaml.v3 mark found by
// walking col-1 characters from the YAML line's start, stopping at "\r",
// "\n" or the end (a NEL, LS or PS is walked over, as a character).
func walkOffset(starts []int, content []byte, line, col int) int {
	if line < 1 {
		line = 1
	}
	if line > len(starts) {
		return len(content)
	}
	off := starts[line-1]
	for c := 1; c < col && off < len(content); c++ {
		if b := content[off]; b == '\n' || b == '\r' {
			break
		}
		_, size := utf8.DecodeRune(content[off:])
		off += size
	}
	return off
}

// refYAMLStarts is the reference of yaml.v3's lines: each starts after
// "\r\n", "\n", "\r", NEL, LS or PS, the first after a BOM.
func refYAMLStarts(content []byte) []int {
	starts := []int{0}
	if bytes.HasPrefix(content, []byte("\ufeff")) {
		starts[0] = 3
	}
	for i := starts[0]; i < len(content); {
		n := 0
		for _, brk := range []string{"\r\n", "\n", "\r", "\u0085", "\u2028", "\u2029"} {
			if bytes.HasPrefix(content[i:], []byte(brk)) {
				n = len(brk)
				break
			}
		}
		if n == 0 {
			i++
			continue
		}
		i += n
		starts = append(starts, i)
	}
	return starts
}

// checkOffsets compares every mark of content, columns past each line's
// end included, with the reference walk.
func checkOffsets(t *testing.T, content []byte) {
	t.Helper()
	m := NewYAMLMarks(content)
	starts := refYAMLStarts(content)
	if m.LineCount() != len(starts) {
		t.Fatalf("%q: %d lines, want %d", content, m.LineCount(), len(starts))
	}
	for i, s := range starts {
		if m.LineStart(i) != s {
			t.Fatalf("%q: line %d starts at %d, want %d", content, i, m.LineStart(i), s)
		}
	}
	for line := 0; line <= len(starts)+1; line++ {
		longest := 0
		if line >= 1 && line <= len(starts) {
			longest = utf8.RuneCount(content[starts[line-1]:])
		}
		for col := 0; col <= longest+2; col++ {
			if got, want := m.Offset(line, col), walkOffset(starts, content, line, col); got != want {
				t.Fatalf("%q: Offset(%d, %d) = %d, want %d", content, line, col, got, want)
			}
		}
	}
}

func TestYAMLMarksOffsetOnLongLines(t *testing.T) {
	long := func(unit string, n int) string { return strings.Repeat(unit, n) }
	for _, content := range []string{
		"",
		"a: 1\n",
		"tools: {" + long("é: 1, ", 300) + "}\n",
		"\ufeff" + long("日本😀x", 200) + "\r\n" + long("a", 500),
		long("é", 63) + "\u0085" + long("ü", 130) + "\u2028" + long("x", 70) + "\n" + long("y", 3),
		"\xff\xfe" + long("\xe2\x80", 100) + "\r" + long("é", 64) + "\n",
		long("\u2029", 200),
		long("a\u0085", 150) + "\n",
	} {
		checkOffsets(t, []byte(content))
	}
}

// FuzzYAMLMarksOffset: on any bytes, every mark converts to the offset
// the character walk from its line's start gives.
func FuzzYAMLMarksOffset(f *testing.F) {
	f.Add([]byte("tools: {a: 1, é: 2}\n"))
	f.Add([]byte("\ufeff日本\u0085x\u2028y\r\nz"))
	f.Add([]byte(strings.Repeat("é", 200) + "\n"))
	f.Fuzz(func(t *testing.T, content []byte) {
		if len(content) > 1<<12 {
			return
		}
		checkOffsets(t, content)
	})
}
