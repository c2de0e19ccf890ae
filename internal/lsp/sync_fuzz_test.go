package lsp

import (
	"math/rand/v2"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// FuzzDidChangeSync sends random edit sequences through the running
// server's textDocument/didChange, several changes per notification (each
// range read in the text the previous one left, as the protocol says), in
// UTF-16 and UTF-8, and checks that the document the server holds equals
// the same edits applied to a plain string. Positions are computed here on
// their own (lines end at "\n", "\r\n" or a lone "\r"; columns in UTF-16
// units or bytes), not with the server's Mapper.
func FuzzDidChangeSync(f *testing.F) {
	f.Add("tools:\n  web_search: beeuni:web_search\n", uint64(1), false)
	f.Add("日本語\r\n😀x\rq\n\ttab", uint64(2), true)
	f.Add("", uint64(3), false)
	f.Add("a\r\r\n\n\r", uint64(4), true)
	f.Fuzz(func(t *testing.T, initial string, seed uint64, useUTF8 bool) {
		if !utf8.ValidString(initial) {
			return // JSON strings carry valid text only
		}
		enc := UTF16
		if useUTF8 {
			enc = UTF8
		}
		s := editorSession(t, vfs.NewMem(), enc)
		const path = "/ws/beeuni.yaml"
		uri := string(pathToURI(path))
		s.open(path, initial)
		rng := rand.New(rand.NewPCG(seed, 5))
		pieces := []string{"", "a", "\n", "\r\n", "\r", "日", "😀", "\t", "tools:\n  x: y\n", "é"}
		text := initial
		for version := 2; version < 22; version++ {
			var changes []map[string]any
			for range 1 + rng.IntN(3) {
				if rng.IntN(12) == 0 {
					text = pieces[rng.IntN(len(pieces))] + pieces[rng.IntN(len(pieces))]
					changes = append(changes, map[string]any{"text": text})
					continue
				}
				a, b := editablePoint(rng, text), editablePoint(rng, text)
				if a > b {
					a, b = b, a
				}
				insert := pieces[rng.IntN(len(pieces))]
				changes = append(changes, map[string]any{"range": map[string]any{
					"start": protocolPos(text, a, enc), "end": protocolPos(text, b, enc)}, "text": insert})
				text = text[:a] + insert + text[b:]
			}
			s.notify("textDocument/didChange", map[string]any{
				"textDocument": map[string]any{"uri": uri, "version": version}, "contentChanges": changes})
		}
		s.idle() // every notification before it has been handled
		d := s.srv.currentView().docs[path]
		if d == nil {
			t.Fatal("the document is not open")
		}
		if got := string(d.content()); got != text {
			t.Fatalf("%s: the server holds %q, the edits give %q", enc, got, text)
		}
	})
}

// editablePoint picks a byte offset of text that a protocol position can
// name: a character boundary, not between the "\r" and "\n" of a "\r\n".
func editablePoint(rng *rand.Rand, text string) int {
	for {
		o := rng.IntN(len(text) + 1)
		if o < len(text) && !utf8.RuneStart(text[o]) {
			continue
		}
		if o > 0 && o < len(text) && text[o-1] == '\r' && text[o] == '\n' {
			continue
		}
		return o
	}
}

// protocolPos converts a byte offset of text into a protocol position.
func protocolPos(text string, offset int, enc Encoding) map[string]any {
	line, start := 0, 0
	for i := 0; i < offset; i++ {
		switch {
		case text[i] == '\n':
			line, start = line+1, i+1
		case text[i] == '\r' && (i+1 >= len(text) || text[i+1] != '\n'):
			line, start = line+1, i+1
		}
	}
	col := offset - start
	if enc == UTF16 {
		col = len(utf16.Encode([]rune(text[start:offset])))
	}
	return map[string]any{"line": line, "character": col}
}
