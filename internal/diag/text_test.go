package diag

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// checkText holds every reader of t to the same reads of want.
func checkText(t *testing.T, label string, got *Text, want string) {
	t.Helper()
	if got.Len() != len(want) {
		t.Fatalf("%s: Len = %d, want %d", label, got.Len(), len(want))
	}
	var joined []byte
	for p := range got.Pieces {
		if len(p) == 0 {
			t.Fatalf("%s: an empty piece", label)
		}
		if len(joined) > 0 && joined[len(joined)-1] != '\n' {
			t.Fatalf("%s: a piece starts mid-line, at %d", label, len(joined))
		}
		if cap(p) != len(p) {
			t.Fatalf("%s: a piece with room to append into (len %d, cap %d)", label, len(p), cap(p))
		}
		joined = append(joined, p...)
	}
	if string(joined) != want {
		t.Fatalf("%s: pieces hold %q, want %q", label, joined, want)
	}
	for i := range len(want) {
		if got.At(i) != want[i] {
			t.Fatalf("%s: At(%d) = %q, want %q", label, i, got.At(i), want[i])
		}
	}
	for from := -1; from <= len(want)+1; from += 1 + len(want)/17 {
		for to := from - 1; to <= len(want)+1; to += 1 + len(want)/13 {
			lo, hi := max(0, min(from, len(want))), max(0, min(to, len(want)))
			w := ""
			if lo < hi {
				w = want[lo:hi]
			}
			if s := got.Slice(from, to); string(s) != w || cap(s) != len(s) {
				t.Fatalf("%s: Slice(%d, %d) = %q (cap %d), want %q", label, from, to, s, cap(s), w)
			}
		}
	}
	if string(got.Bytes()) != want {
		t.Fatalf("%s: Bytes = %q, want %q", label, got.Bytes(), want)
	}
}

// commonEnds returns the reference common prefix and suffix (at most
// limit) of a and b.
func commonEnds(a, b string, limit int) (int, int) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	q := 0
	for q < min(len(a), len(b), limit) && a[len(a)-1-q] == b[len(b)-1-q] {
		q++
	}
	return p, q
}

// FuzzTextEdited applies chains of edits to a text and holds each version,
// and the comparisons of each with the one before, to the same edits on a
// string.
func FuzzTextEdited(f *testing.F) {
	f.Add("tools:\n  a: b\n  c: d\n", 3, 5, "x\n", 9, 9, "é", uint8(3))
	f.Add("a\nb\nc", 2, 2, "yy", 3, 4, "\n", uint8(0))
	f.Add("", 0, 0, "new\n", 0, 0, "", uint8(1))
	f.Fuzz(func(t *testing.T, content string, s1, e1 int, t1 string, s2, e2 int, t2 string, rounds uint8) {
		if len(content) > 1<<12 || len(t1) > 64 || len(t2) > 64 {
			return
		}
		text, want := TextOf([]byte(content)), content
		edits := []struct {
			start, end int
			text       string
		}{{s1, e1, t1}, {s2, e2, t2}}
		for i := range 2 + int(rounds%32) {
			e := edits[i%2]
			// Later rounds move the edit, so that it lands in new pieces.
			start, end := e.start+i*7, e.end+i*7
			prev, prevWant := text, want
			text = text.Edited(start, end, e.text)
			start, end = max(0, min(start, len(want))), max(0, min(end, len(want)))
			if end < start {
				start, end = end, start
			}
			want = want[:start] + e.text + want[end:]
			label := fmt.Sprintf("edit %d", i)
			checkText(t, label, text, want)
			checkText(t, label+" (before)", prev, prevWant)
			for _, limit := range []int{0, 3, len(want)} {
				p, q := commonEnds(want, prevWant, limit)
				if got := CommonPrefix(text, prev); got != p {
					t.Fatalf("%s: CommonPrefix = %d, want %d", label, got, p)
				}
				if got := CommonSuffix(text, prev, limit); got != q {
					t.Fatalf("%s: CommonSuffix(limit %d) = %d, want %d", label, limit, got, q)
				}
			}
			if text.Equal(prev) != (want == prevWant) {
				t.Fatalf("%s: Equal = %v, want %v", label, text.Equal(prev), want == prevWant)
			}
			if other := TextOf([]byte(want)); !text.Equal(other) || CommonSuffix(other, text, len(want)) != len(want) {
				t.Fatalf("%s: not Equal to the same bytes in one piece", label)
			}
		}
	})
}

// TestNilText: nil is the empty text for every reader.
func TestNilText(t *testing.T) {
	var n *Text
	x := TextOf([]byte("a\nb\n"))
	if n.Len() != 0 || n.Bytes() != nil || n.Slice(0, 5) != nil ||
		CommonPrefix(n, x) != 0 || CommonSuffix(n, x, 9) != 0 || CommonSuffix(x, n, 9) != 0 || !n.Equal(TextOf(nil)) || n.Equal(x) {
		t.Fatal("a nil text does not read as the empty text")
	}
	checkText(t, "edited nil", n.Edited(0, 0, "new\n"), "new\n")
}

// TestTextEditAtPieceEnds: an edit ending where a piece ends, its text
// not ending the line, joins the next piece's first line, so that pieces
// keep starting at line starts.
func TestTextEditAtPieceEnds(t *testing.T) {
	line := strings.Repeat("x", 40) + "\n"
	content := strings.Repeat(line, 60)
	text := TextOf([]byte(content)).Edited(len(line)*20+3, len(line)*20+3, "y") // three pieces
	want := content[:len(line)*20+3] + "y" + content[len(line)*20+3:]
	if len(text.pieces) < 2 {
		t.Fatalf("test setup: %d pieces, want several", len(text.pieces))
	}
	for _, k := range []int{0, 1} {
		end := text.ends[k]
		text = text.Edited(end-1, end, "z") // the line break ending piece k
		want = want[:end-1] + "z" + want[end:]
		checkText(t, fmt.Sprintf("the break ending piece %d replaced", k), text, want)
	}
}

// TestTextEditCopiesTheLine checks what an edit copies: typing in a large
// text makes a piece of the line typed on, shares the rest (the same
// memory, not made whole), and comparing the versions reads only that.
func TestTextEditCopiesTheLine(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&b, "  tool-%05d: maintained\n", i)
	}
	content := []byte(b.String())
	orig := TextOf(content)
	mid := len(content) / 2
	line := bytes.LastIndexByte(content[:mid], '\n') + 1
	text := orig
	for i := range 200 {
		text = text.Edited(mid+i, mid+i, "x")
	}
	if n := len(text.pieces); n != 3 {
		t.Fatalf("200 keystrokes on one line: %d pieces, want 3 (before, the line, after)", n)
	}
	if &text.pieces[0][0] != &content[0] || &text.pieces[2][len(text.pieces[2])-1] != &content[len(content)-1] {
		t.Fatal("the pieces around the line typed on are copies, want them shared with the original")
	}
	if got := len(text.pieces[1]); got > 2*smallPiece {
		t.Fatalf("the typed line's piece is %d bytes, want the line and its small neighbours only", got)
	}
	if text.whole != nil {
		t.Fatal("the edited text was made whole, want it made only when Bytes is called")
	}
	if p, want := CommonPrefix(text, orig), mid; p != want {
		t.Fatalf("CommonPrefix = %d, want %d", p, want)
	}
	if line > mid {
		t.Fatal("test setup: the typed line starts after the edit")
	}
	// Editing far apart: pieces stay bounded, content right.
	want := string(content)
	text = orig
	for i := range 3000 {
		at := (i * 7919) % len(want)
		text = text.Edited(at, at+1, "")
		want = want[:at] + want[min(at+1, len(want)):]
		if n := len(text.pieces); n > maxPieces(text.Len()) {
			t.Fatalf("edit %d: %d pieces, over the bound %d", i, n, maxPieces(text.Len()))
		}
	}
	if string(text.Bytes()) != want {
		t.Fatal("3,000 scattered edits: content differs from the same edits on a string")
	}
}
