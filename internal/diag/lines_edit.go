package diag

import (
	"bytes"
	"sort"
	"strings"
	"sync"
)

// Edited returns the index of the content with [start, end) replaced by
// text, under the same rule. When the content is all ASCII with only "\n"
// line breaks and so is text (a manifest, typically), the line starts are
// updated from this index and the new content is made only when asked for
// (Content): a keystroke then neither copies nor scans the whole document.
// Otherwise the new content is made and indexed at once, as NewLinesFor
// does.
func (l *Lines) Edited(start, end int, text string) *Lines {
	if l.compact {
		panic("diag: Edited on a compact index, which has no content to edit")
	}
	start, end = max(0, min(start, l.size)), max(0, min(end, l.size))
	if end < start {
		start, end = end, start
	}
	if !l.ascii || !l.onlyLF || !IsASCII([]byte(text)) || strings.IndexByte(text, '\r') >= 0 {
		old := l.Content()
		next := make([]byte, 0, len(old)-(end-start)+len(text))
		next = append(next, old[:start]...)
		next = append(next, text...)
		next = append(next, old[end:]...)
		return NewLinesFor(next, l.breaks)
	}
	next := &Lines{lazy: l.lazyEdit(splice{start, end, text}), size: l.size + len(text) - (end - start), breaks: l.breaks, onlyLF: true, ascii: true}
	l.editStarts(next, start, end, text)
	return next
}

// Replaced returns the index of content, which is l's content with the
// bytes [start, end) replaced by content[start:newEnd], or nil when l's
// content is not all ASCII with only "\n" line breaks or the new bytes are
// not: the line starts are updated from l's as Edited does (a keystroke
// within one line shares l's array), without scanning content.
func (l *Lines) Replaced(content []byte, start, end, newEnd int) *Lines {
	if l.compact || !l.ascii || !l.onlyLF || start < 0 || start > end || end > l.size ||
		newEnd < start || newEnd > len(content) || len(content)-newEnd != l.size-end {
		return nil
	}
	text := content[start:newEnd]
	if !IsASCII(text) || bytes.IndexByte(text, '\r') >= 0 {
		return nil
	}
	next := &Lines{content: content, size: len(content), breaks: l.breaks, onlyLF: true, ascii: true}
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

// maxPendingEdits bounds the edits a lazy content keeps before the
// content they apply to is made.
const maxPendingEdits = 64

// lazyEdit returns the content of l with e applied, made when first read.
func (l *Lines) lazyEdit(e splice) *lazyContent {
	if l.lazy != nil {
		return l.lazy.then(e)
	}
	return &lazyContent{root: l.content, edits: []splice{e}}
}

// splice replaces [start, end) with text.
type splice struct {
	start, end int
	text       string
}

// lazyContent is a content made when first read: root (never modified)
// with edits applied in order. It is safe for concurrent use.
type lazyContent struct {
	root  []byte
	edits []splice

	mu   sync.Mutex
	data []byte
	done bool
}

// then returns the content of c with e applied, made when first read: on
// c's content if made, else on c's root with c's edits and e (c's content
// is made first when too many edits are pending).
func (c *lazyContent) then(e splice) *lazyContent {
	c.mu.Lock()
	switch {
	case c.done:
		data := c.data
		c.mu.Unlock()
		return &lazyContent{root: data, edits: []splice{e}}
	case len(c.edits) < maxPendingEdits:
		edits := make([]splice, len(c.edits), len(c.edits)+1)
		copy(edits, c.edits)
		root := c.root
		c.mu.Unlock()
		return &lazyContent{root: root, edits: append(edits, e)}
	}
	c.mu.Unlock()
	return &lazyContent{root: c.get(), edits: []splice{e}}
}

// get makes the content once, applying every edit in one buffer.
func (c *lazyContent) get() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return c.data
	}
	size, most := len(c.root), len(c.root)
	for _, e := range c.edits {
		size += len(e.text) - (e.end - e.start)
		most = max(most, size)
	}
	buf := make([]byte, len(c.root), most)
	copy(buf, c.root)
	for _, e := range c.edits {
		n := len(buf) + len(e.text) - (e.end - e.start)
		tail := buf[e.end:]
		buf = buf[:max(n, len(buf))]
		copy(buf[e.start+len(e.text):], tail)
		copy(buf[e.start:], e.text)
		buf = buf[:n]
	}
	c.data, c.done = buf[:len(buf):len(buf)], true
	c.root, c.edits = nil, nil // no longer needed: let them go
	return c.data
}
