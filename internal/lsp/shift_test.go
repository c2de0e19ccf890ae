package lsp

import (
	"strings"
	"testing"
)

func TestShiftOffset(t *testing.T) {
	tests := []struct {
		name     string
		from, to string // "|" marks the offset in from and the expected one in to
	}{
		{"same text", "a\nb|c\n", "a\nb|c\n"},
		{"line inserted above", "tools:\n  we|b: x\n", "# new\ntools:\n  we|b: x\n"},
		{"two edits around", "# 日本\ntools:\n  lo|okup: x\n  ima\n", "# 日本 一行\n# 二行目\ntools:\n  lo|okup: x\n"},
		{"on a changed line", "a\nbroken|line\nc\n", "a\n|fixed\nc\n"},
		{"column past the new line's end", "abc\nxyz|w\n", "abc\nxyz|w\n"},
		{"line deleted above", "x\ny\nt|ools:\n", "y\nt|ools:\n"},
		{"lone CRs end lines", "tools:\r  we|b: x\r", "# new\rtools:\r  we|b: x\r"},
		{"CRLF", "tools:\r\n  we|b: x\r\n", "# new\r\ntools:\r\n  we|b: x\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			off := strings.Index(tt.from, "|")
			want := strings.Index(tt.to, "|")
			from := strings.Replace(tt.from, "|", "", 1)
			to := strings.Replace(tt.to, "|", "", 1)
			if got := newLineShift([]byte(from), []byte(to)).offset(off); got != want {
				t.Errorf("offset = %d, want %d", got, want)
			}
		})
	}
}

func FuzzShiftOffsetInRange(f *testing.F) {
	f.Add([]byte("a\nb\n"), []byte("b\nc\n"), 3)
	f.Fuzz(func(t *testing.T, from, to []byte, off int) {
		if len(from) > 1<<12 || len(to) > 1<<12 {
			return
		}
		if got := newLineShift(from, to).offset(off); got < 0 || got > len(to) {
			t.Fatalf("offset = %d outside [0, %d]", got, len(to))
		}
	})
}
