package edit

import (
	"strings"
)

// commentAfter finds a comment on the rest of the line after offset, in a
// part of the line that holds no quoted text that would hide a `#`. ok is
// false when the rest of the line cannot be read safely.
func (f *yfile) commentAfter(offset int) (start, end int, found, ok bool) {
	c := f.content
	line := f.lineOf(offset)
	lineEnd := f.lineEnd(line)
	for i := offset; i < lineEnd; i++ {
		switch q := c[i]; q {
		case '"', '\'':
			// Skip a quoted scalar that closes on this line.
			closed := false
			for i++; i < lineEnd; i++ {
				if q == '"' && c[i] == '\\' {
					i++
					continue
				}
				if c[i] == q {
					if q == '\'' && i+1 < lineEnd && c[i+1] == '\'' {
						i++
						continue
					}
					closed = true
					break
				}
			}
			if !closed {
				return 0, 0, false, false
			}
		case '#':
			if i == f.lineStart(line) || isBlank(c[i-1]) {
				return i, lineEnd, true, true
			}
		}
	}
	return lineEnd, lineEnd, false, true
}

// TemplateComment is the comment the project template puts on a Beeuni
// tool's entry; an eject makes it false, so the eject's marker replaces it.
const TemplateComment = "# maintained by Beeuni, updated automatically"

// setLineComment ends the line holding offset with comment (e.g.
// "# ejected from beeuni:web_search"). A comment that stood there is kept,
// with comment after it (`# used by the researcher # ejected from
// beeuni:web_search`), unless it is TemplateComment, which comment
// replaces; a line that already ends with comment is left as it is (no
// edit). Everything else on the line (a `,` or `}` of a flow mapping)
// stays before the comment, so a flow mapping stays valid. ok is false
// when the line cannot take a comment safely.
func (f *yfile) setLineComment(offset int, comment string) (edits []TextEdit, ok bool) {
	start, end, found, ok := f.commentAfter(offset)
	if !ok {
		return nil, false
	}
	c := f.content
	if found {
		old := strings.TrimRight(string(c[start:end]), " \t")
		switch {
		case old == comment || strings.HasSuffix(old, " "+comment):
			return nil, true
		case old != TemplateComment:
			at := start + len(old)
			return []TextEdit{{File: f.path, Start: at, End: at, NewText: " " + comment}}, true
		}
		// The template's comment: replace it, keeping the blanks before it
		// only if there are two or more.
		s := start
		for s > offset && isBlank(c[s-1]) {
			s--
		}
		return []TextEdit{{File: f.path, Start: s, End: end, NewText: "  " + comment}}, true
	}
	s := end
	for s > offset && isBlank(c[s-1]) {
		s--
	}
	return []TextEdit{{File: f.path, Start: s, End: end, NewText: "  " + comment}}, true
}
