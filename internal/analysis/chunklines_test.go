package analysis

import (
	"math/rand"
	"reflect"
	"testing"
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
	inserts := []string{"x", "\n", "\n\n", "  ", "\r\n", "\r", "---", "\n---\n", "# c\n", "k: v\n", "\n%YAML\n"}
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
			got, gotOK := s.splitLines(next)
			want, wantOK := splitLines(next, nil)
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
