package diag

import (
	"bytes"
	"sort"
	"strings"
)

// Edited returns the index of the content with [start, end) replaced by
// text, under the same rule. The new content is the Text edit of l's
// (Text.Edited: the lines the edit touches are copied, the rest shared).
// When the content is all ASCII with only "\n" line breaks and so is text
// (a manifest, typically), the line starts are updated from this index: a
// keystroke then neither copies nor scans the whole document. Otherwise
// the new content is made whole and indexed at once, as NewLinesFor does.
func (l *Lines) Edited(start, end int, text string) *Lines {
	if l.compact {
		panic("diag: Edited on a compact index, which has no content to edit")
	}
	start, end = max(0, min(start, l.size)), max(0, min(end, l.size))
	if end < start {
		start, end = end, start
	}
	edited := l.text.Edited(start, end, text)
	if !l.ascii || !l.onlyLF || !IsASCII([]byte(text)) || strings.IndexByte(text, '\r') >= 0 {
		return newLinesOf(edited, edited.Bytes(), l.breaks)
	}
	next := &Lines{text: edited, size: edited.Len(), breaks: l.breaks, onlyLF: true, ascii: true}
	l.editStarts(next, start, end, text)
	return next
}

// Replaced returns the index of t, which is l's content with the bytes
// [start, end) replaced by t's [start, newEnd), or nil when l's content is
// not all ASCII with only "\n" line breaks or the new bytes are not: the
// line starts are updated from l's as Edited does (a keystroke within one
// line shares l's array), without scanning t.
func (l *Lines) Replaced(t *Text, start, end, newEnd int) *Lines {
	if l.compact || !l.ascii || !l.onlyLF || start < 0 || start > end || end > l.size ||
		newEnd < start || newEnd > t.Len() || t.Len()-newEnd != l.size-end {
		return nil
	}
	text := t.Slice(start, newEnd)
	if !IsASCII(text) || bytes.IndexByte(text, '\r') >= 0 {
		return nil
	}
	next := &Lines{text: t, size: t.Len(), breaks: l.breaks, onlyLF: true, ascii: true}
	l.editStarts(next, start, end, string(text))
	return next
}

// editStarts sets next's line starts to l's with [start, end) replaced by
// text (all ASCII, only "\n" line breaks, as l's content).
func (l *Lines) editStarts(next *Lines, start, end int, text string) {
	// Line starts up to start stay; those after a "\n" in [start, end)
	// go; text brings its own; the rest move by delta.
	delta := len(text) - (end - start)
	first := sort.Search(len(l.starts), func(i int) bool { return l.start(i) > start })
	after := sort.Search(len(l.starts), func(i int) bool { return l.start(i) > end })
	if first == after && strings.IndexByte(text, '\n') < 0 {
		// Within one line (typing): the same starts, those after the
		// line moved by delta. Edits of the same line share l's array.
		switch {
		case l.shift == 0 || l.shiftFrom == after:
			next.starts, next.shiftFrom, next.shift = l.starts, after, l.shift+delta
		default:
			next.starts = make([]int, len(l.starts))
			for i := range next.starts {
				next.starts[i] = l.start(i)
			}
			next.shiftFrom, next.shift = after, delta
		}
		return
	}
	starts := make([]int, first, first+strings.Count(text, "\n")+len(l.starts)-after)
	for i := range first {
		starts[i] = l.start(i)
	}
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, start+i)
	}
	for i := after; i < len(l.starts); i++ {
		starts = append(starts, l.start(i)+delta)
	}
	next.starts, next.shiftFrom = starts, len(starts)
}
