package analysis

// YAMLFlowClose returns the offset of the bracket that closes the YAML flow
// collection (`[...]` or `{...}`) whose opening bracket is at content[open].
// Nested collections, quoted scalars and comments are skipped; a comment
// starts at a `#` after a blank or a line break and ends at the next line
// break, "\n", "\r\n" or a lone "\r" (YAML breaks lines at all three).
// A quote starts a quoted scalar only where a node starts (after `[`, `{`,
// `,`, a `:` or `?` indicator, a tag or an anchor): inside a plain scalar
// (`w"x`) it is a character like any other.
// ok is false when content[open] is not an opening bracket or the collection
// is not closed.
func YAMLFlowClose(content []byte, open int) (closeAt int, ok bool) {
	c := content
	if open < 0 || open >= len(c) || (c[open] != '[' && c[open] != '{') {
		return 0, false
	}
	depth := 0
	nodeStart := false // the next non-blank character starts a node
	jsonLike := false  // the last node was quoted or a collection: a `:` right after it is an indicator
	for i := open; i < len(c); i++ {
		b := c[i]
		wasJSONLike := jsonLike
		if b != ' ' && b != '\t' && b != '\n' && b != '\r' {
			jsonLike = false
		}
		switch b {
		case '[', '{':
			depth++
			nodeStart = true
		case ']', '}':
			depth--
			if depth == 0 {
				return i, true
			}
			nodeStart, jsonLike = false, true
		case ',':
			nodeStart = true
		case ' ', '\t', '\n', '\r':
		case ':', '?':
			// An indicator before a blank, a flow indicator or the end,
			// or right after a quoted key (`{"a":"b"}`); else part of a
			// plain scalar (`a:b`, `a:"b`).
			nodeStart = i+1 == len(c) || flowBreak(c[i+1]) || b == ':' && wasJSONLike
		case '"':
			if !nodeStart {
				continue
			}
			for i++; i < len(c) && c[i] != '"'; i++ {
				if c[i] == '\\' {
					i++
				}
			}
			nodeStart, jsonLike = false, true
		case '\'':
			if !nodeStart {
				continue
			}
			for i++; i < len(c); i++ {
				if c[i] == '\'' {
					if i+1 < len(c) && c[i+1] == '\'' {
						i++
						continue
					}
					break
				}
			}
			nodeStart, jsonLike = false, true
		case '#':
			// i > open: c[i-1] exists.
			if p := c[i-1]; p == ' ' || p == '\t' || p == '\n' || p == '\r' {
				for i < len(c) && c[i] != '\n' && c[i] != '\r' {
					i++
				}
				i-- // the line break is seen next
			} else {
				nodeStart = false
			}
		case '!', '&':
			// A tag or an anchor: the node starts after it.
			if nodeStart {
				for i+1 < len(c) && !flowBreak(c[i+1]) {
					i++
				}
			}
		default:
			nodeStart = false
		}
	}
	return 0, false
}

// flowBreak reports whether b ends a token in a flow collection: a blank, a
// line break or a flow indicator.
func flowBreak(b byte) bool {
	switch b {
	case ' ', '\t', '\n', '\r', ',', '[', ']', '{', '}':
		return true
	}
	return false
}
