package analysis

import (
	"sort"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// The chunked parse's line table (splitLines) is the one pass of a
// keystroke over every line of the file. Between two versions of a file
// only the lines an edit touched differ: those before it are the same
// entries, those after it the same but moved by the length the edit added.
// The parse scratch keeps the last table with the content it describes,
// and the next split compares the two contents from both ends (skipping
// the pieces the two share: diag.CommonPrefix) and splits again only the
// lines between.

// splitLines is splitLines(content) in s's storage, from the table of the
// content s split last (any content: what the two share at their ends is
// kept, the rest split again). A nil s splits the whole content.
func (s *parseScratch) splitLines(content *diag.Text) ([]lineInfo, bool) {
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
	from               *diag.Text
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
// when old is the content split before it (the same Text: texts are never
// modified).
func (s *parseScratch) editFrom(old *diag.Text) (splitEdit, bool) {
	if s == nil || s.edit.from == nil || old != s.edit.from {
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
func resplitLines(content, old *diag.Text, table []lineInfo) ([]lineInfo, splitEdit, bool) {
	n, oldN := content.Len(), old.Len()
	p := diag.CommonPrefix(content, old)
	q := diag.CommonSuffix(content, old, min(n, oldN)-p)
	edit := splitEdit{from: old, start: p, end: oldN - q, newEnd: n - q}
	// old holds none of unusualBytes (its split took them for a stop): a
	// run of them in content overlaps the new bytes, or meets them (3
	// bytes at most: 2 on either side).
	if hasBOM(content.Slice(0, 3)) || unusualBytes(content.Slice(max(0, p-2), min(n, edit.newEnd+2))) {
		return nil, splitEdit{}, false
	}
	// Kept at the start: the lines ending with a line break at or before p.
	a := sort.Search(len(table), func(i int) bool { return table[i].end > p })
	for a > 0 && old.At(table[a-1].end-1) != '\n' {
		a--
	}
	// Kept at the end: the lines whose preceding line break is shared too.
	b := sort.Search(len(table), func(i int) bool { return table[i].start > oldN-q })
	delta := n - oldN
	from, to := 0, n
	if a > 0 {
		from = table[a-1].end
	}
	if b < len(table) {
		to = table[b].start + delta
	}
	if 2*(to-from) > n {
		// Most of it changed (another file's table, or keystrokes far
		// apart analysed as one edit): split it whole in table's storage.
		lines, ok := splitLines(content, table)
		return lines, edit, ok
	}
	mid, ok := splitRange(content.Slice(from, to), from, to == n, nil)
	if !ok {
		return nil, splitEdit{}, false
	}
	count := a + len(mid) + len(table) - b
	out := table
	if cap(out) < count {
		out = make([]lineInfo, count, count+count/8)
		copy(out, table[:a])
	}
	out = out[:count]
	copy(out[a+len(mid):], table[b:]) // overlapping: copy moves
	copy(out[a:], mid)
	for i := a + len(mid); i < count; i++ {
		out[i].start += delta
		out[i].end += delta
	}
	return out, edit, true
}
