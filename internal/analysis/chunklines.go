package analysis

import (
	"bytes"
	"sort"
)

// The chunked parse's line table (splitLines) is the one pass of a
// keystroke over every line of the file. Between two versions of a file
// only the lines an edit touched differ: those before it are the same
// entries, those after it the same but moved by the length the edit added.
// The parse scratch keeps the last table with the content it describes,
// and the next split compares the two contents from both ends and splits
// again only the lines between.

// splitLines is splitLines(content) in s's storage, from the table of the
// content s split last (any content: what the two share at their ends is
// kept, the rest split again). A nil s splits the whole content.
func (s *parseScratch) splitLines(content []byte) ([]lineInfo, bool) {
	if s == nil {
		return splitLines(content, nil)
	}
	var lines []lineInfo
	var ok bool
	s.edit = splitEdit{}
	if s.linesOf != nil {
		var e splitEdit
		lines, e, ok = resplitLines(content, s.linesOf, s.lines)
		if ok {
			s.edit = e
		}
	} else {
		lines, ok = splitLines(content, s.lines)
	}
	if !ok {
		s.linesOf = nil // the table is not whole
		return nil, false
	}
	s.lines, s.linesOf = lines, content
	return lines, true
}

// splitEdit is one replacement that makes the content last split out of
// from, the content split before it: from's bytes [start, end) became the
// new content's [start, newEnd).
type splitEdit struct {
	from               []byte
	start, end, newEnd int
}

// forgetEdit drops the edit once the parse that split is done with it: it
// holds the content split before, which nothing else may hold by then.
func (s *parseScratch) forgetEdit() {
	if s != nil {
		s.edit = splitEdit{}
	}
}

// editFrom returns the edit that made the content last split out of old,
// when old is the content split before it (the same bytes in the same
// storage: contents are never modified).
func (s *parseScratch) editFrom(old []byte) (splitEdit, bool) {
	if s == nil || s.edit.from == nil || len(old) != len(s.edit.from) || len(old) == 0 || &old[0] != &s.edit.from[0] {
		return splitEdit{}, false
	}
	return s.edit, true
}

// resplitLines returns content's line table from old's (table, as
// splitLines made it, refusing what it refuses), written over table's storage: the lines wholly in
// the bytes the two contents share at their start, and those wholly in the
// bytes they share at their end, line break before them included, are
// kept (the latter moved); the lines between are split again. It also
// returns the edit that made content out of old.
func resplitLines(content, old []byte, table []lineInfo) ([]lineInfo, splitEdit, bool) {
	p := commonPrefix(content, old)
	q := commonSuffix(content[p:], old[p:])
	edit := splitEdit{from: old, start: p, end: len(old) - q, newEnd: len(content) - q}
	// old holds none of unusualBytes (its split took them for a stop): a
	// run of them in content overlaps the new bytes, or meets them (3
	// bytes at most: 2 on either side).
	if hasBOM(content) || unusualBytes(content[max(0, p-2):min(len(content), edit.newEnd+2)]) {
		return nil, splitEdit{}, false
	}
	// Kept at the start: the lines ending with a line break at or before p.
	a := sort.Search(len(table), func(i int) bool { return table[i].end > p })
	for a > 0 && old[table[a-1].end-1] != '\n' {
		a--
	}
	// Kept at the end: the lines whose preceding line break is shared too.
	b := sort.Search(len(table), func(i int) bool { return table[i].start > len(old)-q })
	delta := len(content) - len(old)
	from, to := 0, len(content)
	if a > 0 {
		from = table[a-1].end
	}
	if b < len(table) {
		to = table[b].start + delta
	}
	if 2*(to-from) > len(content) {
		// Most of it changed (another file's table, or keystrokes far
		// apart analysed as one edit): split it whole in table's storage.
		lines, ok := splitLines(content, table)
		return lines, edit, ok
	}
	mid, ok := splitRange(content, from, to, nil)
	if !ok {
		return nil, splitEdit{}, false
	}
	n := a + len(mid) + len(table) - b
	out := table
	if cap(out) < n {
		out = make([]lineInfo, n, n+n/8)
		copy(out, table[:a])
	}
	out = out[:n]
	copy(out[a+len(mid):], table[b:]) // overlapping: copy moves
	copy(out[a:], mid)
	for i := a + len(mid); i < n; i++ {
		out[i].start += delta
		out[i].end += delta
	}
	return out, edit, true
}

// commonPrefix returns the length of the longest common prefix of a and
// b, comparing blocks first.
func commonPrefix(a, b []byte) int {
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

// commonSuffix returns the length of the longest common suffix of a and b.
func commonSuffix(a, b []byte) int {
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
