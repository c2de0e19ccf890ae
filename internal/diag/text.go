package diag

import (
	"bytes"
	"sort"
	"sync"
)

// Text is an immutable sequence of bytes kept in pieces, so that an edited
// version shares every piece the edit did not touch: a keystroke in an
// 870 KB manifest copies the line it changed and the list of pieces, not
// the file. Each piece holds whole lines (it starts at a line start, so
// that reading within a line never crosses pieces); the content as one
// slice is made only when Bytes is called (at once for a text of one
// piece, read from disk or sent whole by an editor). Readers that look at
// a few bytes (Slice, At) and comparisons of two versions (CommonPrefix,
// CommonSuffix, Equal) never make it. A Text is safe for concurrent use;
// nil is the empty text.
type Text struct {
	pieces [][]byte // none empty
	ends   []int    // ends[i] is the offset after pieces[i]

	once  sync.Once
	whole []byte // the content as one slice, once made
}

// TextOf returns the text of b, which it keeps: do not modify b afterwards.
func TextOf(b []byte) *Text {
	t := &Text{whole: b}
	if len(b) > 0 {
		t.pieces, t.ends = [][]byte{b}, []int{len(b)}
	}
	t.once.Do(func() {})
	return t
}

// Len returns the number of bytes.
func (t *Text) Len() int {
	if t == nil || len(t.ends) == 0 {
		return 0
	}
	return t.ends[len(t.ends)-1]
}

// Bytes returns the content as one slice, made on the first call for a
// text of more than one piece. Callers must not modify it.
func (t *Text) Bytes() []byte {
	if t == nil {
		return nil
	}
	t.once.Do(func() {
		buf := make([]byte, 0, t.Len())
		for _, p := range t.pieces {
			buf = append(buf, p...)
		}
		t.whole = buf
	})
	return t.whole
}

// made returns the content as one slice if it is made already, else nil.
func (t *Text) made() []byte {
	if t != nil && len(t.pieces) == 1 {
		return t.pieces[0]
	}
	return nil
}

// piece returns the index of the piece holding offset off (in [0, Len)).
func (t *Text) piece(off int) int {
	return sort.Search(len(t.ends), func(i int) bool { return t.ends[i] > off })
}

// pieceStart returns the offset of piece i's first byte.
func (t *Text) pieceStart(i int) int {
	if i == 0 {
		return 0
	}
	return t.ends[i-1]
}

// Slice returns the bytes [from, to), clamped to the text: shared with the
// text when they lie in one piece, copied otherwise. Callers must not
// modify them.
func (t *Text) Slice(from, to int) []byte {
	n := t.Len()
	from, to = max(0, min(from, n)), max(0, min(to, n))
	if to <= from {
		return nil
	}
	if w := t.made(); w != nil {
		return w[from:to:to]
	}
	i := t.piece(from)
	if to <= t.ends[i] {
		s := t.pieceStart(i)
		return t.pieces[i][from-s : to-s : to-s]
	}
	buf := make([]byte, 0, to-from)
	for off := from; off < to; i++ {
		s := t.pieceStart(i)
		p := t.pieces[i][off-s : min(len(t.pieces[i]), to-s)]
		buf = append(buf, p...)
		off += len(p)
	}
	return buf
}

// At returns the byte at offset i (in [0, Len)).
func (t *Text) At(i int) byte {
	if w := t.made(); w != nil {
		return w[i]
	}
	if i < 0 || i >= t.Len() {
		panic("diag: Text.At out of range")
	}
	k := t.piece(i)
	return t.pieces[k][i-t.pieceStart(k)]
}

// Pieces calls yield with the text's bytes in order, piece by piece, until
// it returns false (for a loop over the whole text: `for p := range
// t.Pieces`). The pieces are shared: do not modify them.
func (t *Text) Pieces(yield func([]byte) bool) {
	if t == nil {
		return
	}
	for _, p := range t.pieces {
		if !yield(p[:len(p):len(p)]) {
			return
		}
	}
}

// maxPieces bounds the pieces of a text of n bytes: past it, an edit makes
// the text whole again (one copy every few hundred edits at most), so that
// the list an edit copies stays short.
func maxPieces(n int) int { return 64 + n/1024 }

// smallPiece is the length under which a piece next to an edit's new piece
// is copied into it, so that typing on lines near each other does not cut
// the text into ever more pieces.
const smallPiece = 512

// Edited returns the text with the bytes [start, end) (clamped) replaced by
// text. The pieces before start's line and after end's line are shared;
// the lines the edit touches are copied into one new piece.
func (t *Text) Edited(start, end int, text string) *Text {
	n := t.Len()
	start, end = max(0, min(start, n)), max(0, min(end, n))
	if end < start {
		start, end = end, start
	}
	if n == 0 {
		return TextOf([]byte(text))
	}
	i := min(t.piece(start), len(t.pieces)-1)
	j := max(i, sort.Search(len(t.ends), func(k int) bool { return t.ends[k] >= end }))
	if end == t.ends[j] && j+1 < len(t.pieces) {
		// The edit ends where a piece does: the line it ends in goes on
		// in the next piece (when text does not end it), which then joins
		// the new one up to its first line break, so that every piece
		// still starts at a line start.
		j++
	}
	head := t.pieces[i][:start-t.pieceStart(i)]
	cut := bytes.LastIndexByte(head, '\n') + 1
	head, lineHead := head[:cut], head[cut:]
	tail := t.pieces[j][end-t.pieceStart(j):]
	lineTail := tail
	if k := bytes.IndexByte(tail, '\n'); k >= 0 {
		lineTail, tail = tail[:k+1], tail[k+1:]
	} else {
		tail = nil
	}
	before, after := t.pieces[:i], t.pieces[j+1:]
	// Small neighbours join the new piece.
	if len(head) == 0 && len(before) > 0 && len(before[len(before)-1]) < smallPiece {
		head, before = before[len(before)-1], before[:len(before)-1]
	}
	if len(head) < smallPiece {
		lineHead, head = append(append([]byte(nil), head...), lineHead...), nil
	}
	if len(tail) == 0 && len(after) > 0 && len(after[0]) < smallPiece {
		tail, after = after[0], after[1:]
	}
	if len(tail) < smallPiece {
		lineTail, tail = append(append([]byte(nil), lineTail...), tail...), nil
	}
	mid := make([]byte, 0, len(lineHead)+len(text)+len(lineTail))
	mid = append(append(append(mid, lineHead...), text...), lineTail...)

	size := n + len(text) - (end - start)
	count := len(before) + len(after) + 3
	if count > maxPieces(size) {
		buf := make([]byte, 0, size)
		for _, p := range before {
			buf = append(buf, p...)
		}
		buf = append(append(append(buf, head...), mid...), tail...)
		for _, p := range after {
			buf = append(buf, p...)
		}
		return TextOf(buf)
	}
	next := &Text{pieces: make([][]byte, 0, count), ends: make([]int, 0, count)}
	off := 0
	add := func(p []byte) {
		if len(p) > 0 {
			off += len(p)
			next.pieces = append(next.pieces, p)
			next.ends = append(next.ends, off)
		}
	}
	for _, p := range before {
		add(p)
	}
	add(head)
	add(mid)
	add(tail)
	for _, p := range after {
		add(p)
	}
	if len(next.pieces) <= 1 {
		next.once.Do(func() { next.whole = next.made() })
	}
	return next
}

// Equal reports whether t and u hold the same bytes.
func (t *Text) Equal(u *Text) bool {
	return t.Len() == u.Len() && CommonPrefix(t, u) == t.Len()
}

// CommonPrefix returns the length of the longest common prefix of a and b.
// Bytes the two share in memory (pieces an edit did not touch) are not
// compared.
func CommonPrefix(a, b *Text) int {
	pos, n := 0, min(a.Len(), b.Len())
	ai, bi := 0, 0
	for pos < n {
		ra := a.pieces[ai][pos-a.pieceStart(ai):]
		rb := b.pieces[bi][pos-b.pieceStart(bi):]
		m := min(len(ra), len(rb), n-pos)
		if &ra[0] != &rb[0] {
			if d := commonPrefixBytes(ra[:m], rb[:m]); d < m {
				return pos + d
			}
		}
		pos += m
		if pos == a.ends[ai] {
			ai++
		}
		if pos == b.ends[bi] {
			bi++
		}
	}
	return pos
}

// CommonSuffix returns the length of the longest common suffix of a and b,
// at most limit. Bytes the two share in memory are not compared.
func CommonSuffix(a, b *Text, limit int) int {
	la, lb := a.Len(), b.Len()
	n := max(0, min(la, lb, limit))
	if n == 0 {
		return 0
	}
	ai, bi := len(a.pieces)-1, len(b.pieces)-1
	got := 0
	for got < n {
		ea, eb := la-got, lb-got // ends of the bytes left to compare
		for a.pieceStart(ai) >= ea {
			ai--
		}
		for b.pieceStart(bi) >= eb {
			bi--
		}
		ra := a.pieces[ai][:ea-a.pieceStart(ai)]
		rb := b.pieces[bi][:eb-b.pieceStart(bi)]
		m := min(len(ra), len(rb), n-got)
		ra, rb = ra[len(ra)-m:], rb[len(rb)-m:]
		if &ra[0] != &rb[0] {
			if d := commonSuffixBytes(ra, rb); d < m {
				return got + d
			}
		}
		got += m
	}
	return got
}

// commonPrefixBytes returns the length of the longest common prefix of a
// and b, comparing blocks first.
func commonPrefixBytes(a, b []byte) int {
	const block = 1 << 10
	n := min(len(a), len(b))
	i := 0
	for i+block <= n && bytes.Equal(a[i:i+block], b[i:i+block]) {
		i += block
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffixBytes returns the length of the longest common suffix of a
// and b.
func commonSuffixBytes(a, b []byte) int {
	const block = 1 << 10
	n := min(len(a), len(b))
	i := 0
	for i+block <= n && bytes.Equal(a[len(a)-i-block:len(a)-i], b[len(b)-i-block:len(b)-i]) {
		i += block
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}
