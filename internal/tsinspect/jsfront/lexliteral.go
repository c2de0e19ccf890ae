package jsfront

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// string lexes a quoted string and returns its decoded value.
func (lx *lexer) string(q byte) (string, error) {
	start := lx.pos
	lx.pos++
	var b strings.Builder
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		switch {
		case c == q:
			lx.pos++
			return b.String(), nil
		case c == '\n':
			return "", &LexError{Offset: start, Msg: "unterminated string"}
		case c == '\\':
			if err := lx.escape(&b); err != nil {
				return "", err
			}
		default:
			b.WriteByte(c)
			lx.pos++
		}
	}
	return "", &LexError{Offset: start, Msg: "unterminated string"}
}

// escape decodes one backslash escape at lx.pos into b.
func (lx *lexer) escape(b *strings.Builder) error {
	start := lx.pos
	lx.pos++
	if lx.pos >= len(lx.src) {
		return &LexError{Offset: start, Msg: "unterminated escape"}
	}
	c := lx.src[lx.pos]
	lx.pos++
	switch c {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'v':
		b.WriteByte('\v')
	case '0':
		b.WriteByte(0)
	case '\r':
		if lx.pos < len(lx.src) && lx.src[lx.pos] == '\n' {
			lx.pos++
		}
	case '\n':
	case 'x':
		if lx.pos+2 > len(lx.src) {
			return &LexError{Offset: start, Msg: "bad escape"}
		}
		v, err := strconv.ParseUint(string(lx.src[lx.pos:lx.pos+2]), 16, 8)
		if err != nil {
			return &LexError{Offset: start, Msg: "bad escape"}
		}
		b.WriteRune(rune(v))
		lx.pos += 2
	case 'u':
		var hex string
		if lx.pos < len(lx.src) && lx.src[lx.pos] == '{' {
			end := strings.IndexByte(string(lx.src[lx.pos:]), '}')
			if end < 0 {
				return &LexError{Offset: start, Msg: "bad escape"}
			}
			hex = string(lx.src[lx.pos+1 : lx.pos+end])
			lx.pos += end + 1
		} else {
			if lx.pos+4 > len(lx.src) {
				return &LexError{Offset: start, Msg: "bad escape"}
			}
			hex = string(lx.src[lx.pos : lx.pos+4])
			lx.pos += 4
		}
		v, err := strconv.ParseUint(hex, 16, 32)
		if err != nil {
			return &LexError{Offset: start, Msg: "bad escape"}
		}
		b.WriteRune(rune(v))
	default:
		// any other character stands for itself (including multi-byte ones)
		lx.pos--
		r, size := utf8.DecodeRune(lx.src[lx.pos:])
		if r == '\u2028' || r == '\u2029' {
			lx.pos += size
			break
		}
		b.Write(lx.src[lx.pos : lx.pos+size])
		lx.pos += size
	}
	return nil
}

// template lexes a template literal. Its value is known only without
// substitutions.
func (lx *lexer) template() (string, bool, error) {
	start := lx.pos
	lx.pos++
	var b strings.Builder
	subst := false
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		switch {
		case c == '`':
			lx.pos++
			return b.String(), subst, nil
		case c == '\\':
			if err := lx.escape(&b); err != nil {
				return "", false, err
			}
		case c == '$' && lx.pos+1 < len(lx.src) && lx.src[lx.pos+1] == '{':
			subst = true
			lx.pos += 2
			lx.depth++
			if lx.depth > maxNesting {
				return "", false, lx.tooDeep(lx.pos)
			}
			// Tokens inside a substitution are lexed (to find its end) and
			// then dropped: a template with substitutions is computed.
			n := len(lx.toks)
			lx.pushLevel()
			if err := lx.run(true); err != nil {
				return "", false, err
			}
			lx.popLevel()
			lx.depth--
			lx.toks = lx.toks[:n]
		default:
			if c == '\r' { // template values normalise line ends
				lx.pos++
				if lx.pos < len(lx.src) && lx.src[lx.pos] == '\n' {
					lx.pos++
				}
				b.WriteByte('\n')
				continue
			}
			b.WriteByte(c)
			lx.pos++
		}
	}
	return "", false, &LexError{Offset: start, Msg: "unterminated template"}
}
