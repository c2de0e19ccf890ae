package analysis

// YAMLFlowClose returns the offset of the bracket that closes the YAML flow
// collection (`[...]` or `{...}`) whose opening bracket is at content[open].
// Nested collections, quoted scalars and comments are skipped; a comment
// starts at a `#` after a blank or a line break and ends at the next line
// break, "\n", "\r\n" or a lone "\r" (YAML breaks lines at all three).
// ok is false when content[open] is not an opening bracket or the collection
// is not closed.
func YAMLFlowClose(content []byte, open int) (closeAt int, ok bool) {
	c := content
	if open < 0 || open >= len(c) || (c[open] != '[' && c[open] != '{') {
		return 0, false
	}
	depth := 0
	for i := open; i < len(c); i++ {
		switch c[i] {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return i, true
			}
		case '"':
			for i++; i < len(c) && c[i] != '"'; i++ {
				if c[i] == '\\' {
					i++
				}
			}
		case '\'':
			for i++; i < len(c); i++ {
				if c[i] == '\'' {
					if i+1 < len(c) && c[i+1] == '\'' {
						i++
						continue
					}
					break
				}
			}
		case '#':
			// i > open: c[i-1] exists.
			if b := c[i-1]; b == ' ' || b == '\t' || b == '\n' || b == '\r' {
				for i < len(c) && c[i] != '\n' && c[i] != '\r' {
					i++
				}
			}
		}
	}
	return 0, false
}
