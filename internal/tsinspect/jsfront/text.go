package jsfront

import "unicode/utf8"

// text.go tells text from binary content: a module or an imported text
// file that is not UTF-8, or holds a NUL byte, is not inspected.

// TextLike reports whether content is UTF-8 text without NUL bytes.
func TextLike(content []byte) bool {
	return BinaryAt(content) < 0
}

// BinaryAt returns the offset of the first NUL byte or invalid UTF-8
// sequence, or -1.
func BinaryAt(content []byte) int {
	for i := 0; i < len(content); {
		c := content[i]
		if c == 0 {
			return i
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(content[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}
