package analysis

import (
	"math/rand"
	"reflect"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// TestResplitLines edits generated and golden manifests at random (text,
// line breaks, CR, lines that stop the chunked parse) and requires the
// line table made from the last version's (parseScratch.splitLines) to be
// the one splitLines makes, and a split that stops to leave no table to
// start from.
func TestResplitLines(t *testing.T) {
	base, _ := generatedManifest(300)
	bases := [][]byte{[]byte(base), []byte("tools:\n  a: b\n"), {}, []byte("x: 1")}
	corpus := corpusManifests(t)
	for _, name := range sortedKeys(corpus) {
		bases = append(bases, corpus[name])
	}
	inserts := []string{"x", "\n", "\n\n", "  ", "\r\n", "\r", "---", "\n---\n", "# c\n", "k: v\n", "\n%YAML\n",
		"\t", "\u0085", "\u2028", "\u2029", "\xef\xbb\xbf", "\xe2\x80", "\xa8", "\xc2", "\x85", "é"}
	rng := rand.New(rand.NewSource(14))
	kept := 0
	for bi, b := range bases {
		s := &parseScratch{}
		content := b
		for step := range 60 {
			next := content
			at := 0
			if len(content) > 0 {
				at = rng.Intn(len(content) + 1)
			}
			del := rng.Intn(4)
			if at+del > len(content) {
				del = len(content) - at
			}
			if step%7 == 6 {
				next = b // back to the start
			} else {
				next = splice(content, at, del, inserts[rng.Intn(len(inserts))])
			}
			before := s.linesOf != nil
			got, gotOK := s.splitLines(editedText(s.linesOf, next))
			want, wantOK := splitLines(diag.TextOf(next), nil)
			if gotOK != wantOK || gotOK && !reflect.DeepEqual(got, want) {
				t.Fatalf("base %d, step %d: split from the last table %v %v, want %v %v", bi, step, gotOK, got, wantOK, want)
			}
			if !gotOK && s.linesOf != nil {
				t.Fatalf("base %d, step %d: a split that stopped left a table", bi, step)
			}
			if before && gotOK {
				kept++
			}
			content = next
		}
	}
	if kept < 100 {
		t.Fatalf("only %d splits started from a table", kept)
	}
}

// TestResplitSeesBytesMadeAtTheSeams: an edit whose bytes join the
// unchanged ones around it into a tab's, NEL's, LS's or PS's bytes (or a
// byte order mark) stops the split from the last table, as a split of the
// whole content does.
func TestResplitSeesBytesMadeAtTheSeams(t *testing.T) {
	for _, c := range []struct {
		name, before, after string
	}{
		{"LS, a byte taken out of it", "a: \xe2\x80x\xa8\n", "a: \xe2\x80\xa8\n"},
		{"LS, its first byte typed", "a: b\x80\xa8\n", "a: b\xe2\x80\xa8\n"},
		{"PS, its middle byte typed", "a: \xe2\xa9\n", "a: \xe2\x80\xa9\n"},
		{"NEL, two halves met", "a: \xc2x\x85\n", "a: \xc2\x85\n"},
		{"a tab typed", "a: b\n", "a: \tb\n"},
		{"a byte order mark, its first byte typed", "\xbb\xbfa: b\n", "\xef\xbb\xbfa: b\n"},
	} {
		s := &parseScratch{}
		if _, ok := s.splitLines(editedText(s.linesOf, []byte(c.before))); !ok {
			t.Fatalf("%s: %q does not split", c.name, c.before)
		}
		if _, ok := s.splitLines(editedText(s.linesOf, []byte(c.after))); ok {
			t.Errorf("%s: %q split from the table of %q", c.name, c.after, c.before)
		}
		if _, ok := splitLines(diag.TextOf([]byte(c.after)), nil); ok {
			t.Errorf("%s: %q split whole", c.name, c.after)
		}
	}
}
