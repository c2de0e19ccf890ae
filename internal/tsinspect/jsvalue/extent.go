package jsvalue

import (
	"strings"
	"unicode/utf8"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// extent.go is what the value reader takes from the tokens of your text
// rather than from the syntax tree: where an expression, a function, a type
// or a bracket ends (the tree has no positions, esbuild reprints what it
// keeps and erases TypeScript's types and casts), and the quote of a value
// for a message.

func isBinaryOp(p string) bool {
	switch p {
	case "+", "-", "*", "/", "%", "**", "&&", "||", "??", "?", "==", "!=", "===", "!==", "<", ">", "<=", ">=",
		"&", "|", "^", "<<", "=", "+=", "-=", "*=", "/=", "%=", "&&=", "||=", "??=", "**=", "&=", "|=", "^=", "<<=":
		return true
	}
	return false
}

// skipExpr skips to the end of an expression: the first `,` `;` `)` `]`
// `}` at bracket depth 0, or a token on a new line, after a complete
// operand at depth 0, that cannot continue it (automatic semicolon
// insertion: a name, a string or a number, not `in`, `instanceof`, `as`,
// `satisfies`; a template continues it as a tag's), so that in a file
// without semicolons the extent is the statement's, not the rest of the file.
func skipExpr(toks []jsfront.Token, i int) int {
	return skipTo(toks, i, skipStops{newLine: true, lineStarts: startsStatement})
}

func startsStatement(t jsfront.Token) bool {
	switch t.Kind {
	case jsfront.TokIdent:
		return t.Text != "in" && t.Text != "instanceof" && t.Text != "as" && t.Text != "satisfies"
	case jsfront.TokString, jsfront.TokNumber, jsfront.TokPrivate:
		return true
	}
	return false
}

// skipStops is where skipTo stops besides a `,` `;` `)` `]` `}` at depth
// 0: in a type, angle brackets nest and `=` ends it; with newLine, a token
// that lineStarts accepts on a new line after a complete operand, at depth
// 0, ends it too.
type skipStops struct {
	inType     bool
	newLine    bool
	lineStarts func(jsfront.Token) bool
}

// skipTo skips from token i to the first token that ends what starts
// there, by stops.
func skipTo(toks []jsfront.Token, i int, stops skipStops) int {
	depth := 0
	start := i
	for ; i < len(toks) && toks[i].Kind != jsfront.TokEOF; i++ {
		t := toks[i]
		if stops.newLine && depth == 0 && i > start && t.NL && stops.lineStarts(t) && jsfront.EndsOperand(toks[i-1]) {
			return i
		}
		if t.Kind != jsfront.TokPunct {
			continue
		}
		switch t.Text {
		case "<", ">":
			if !stops.inType {
				continue
			}
			if t.Text == "<" {
				depth++
				continue
			}
			if depth == 0 {
				return i
			}
			depth--
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			if depth == 0 {
				return i
			}
			depth--
		case "=":
			if stops.inType && depth == 0 {
				return i
			}
		case ",", ";":
			if depth == 0 {
				return i
			}
		}
	}
	return i
}

// matching returns the index of the bracket closing the one at i.
func matching(toks []jsfront.Token, i int) int {
	depth := 0
	for j := i; j < len(toks) && toks[j].Kind != jsfront.TokEOF; j++ {
		if t := toks[j]; t.Kind == jsfront.TokPunct {
			if d := jsfront.Nesting(t.Text); d != 0 {
				if depth += d; depth == 0 {
					return j
				}
			}
		}
	}
	return len(toks) - 1
}

// skipNewTarget skips the constructor and arguments of `new X.Y<T>(...)`.
func skipNewTarget(m *File, i int) int {
	j := i + 1
	for {
		switch {
		case m.isPunct(j, ".") || m.isPunct(j, "?."):
			j += 2
		case m.isPunct(j, "(") || m.isPunct(j, "["):
			j = matching(m.toks, j) + 1
		default:
			return j
		}
	}
}

// arrowAfterParams checks for `=>` (after an optional return type) at i and
// returns the index after the arrow.
func arrowAfterParams(m *File, i int) (int, bool) {
	if m.isPunct(i, "=>") {
		return i + 1, true
	}
	if m.isPunct(i, ":") {
		// a return type; it ends at the `=>`
		j := i + 1
		depth := 0
		for ; j < len(m.toks) && m.Tok(j).Kind != jsfront.TokEOF; j++ {
			t := m.Tok(j)
			if t.Kind != jsfront.TokPunct {
				continue
			}
			switch t.Text {
			case "(", "[", "{", "<":
				depth++
			case ")", "]", "}", ">":
				if depth == 0 {
					return 0, false
				}
				depth--
			case "=>":
				if depth == 0 {
					return j + 1, true
				}
			case ",", ";", "=":
				if depth == 0 {
					return 0, false
				}
			}
		}
	}
	return 0, false
}

// calleeText names a callee as written, e.g. "z.toJSONSchema".
func calleeText(m *File, start, end int) string {
	return quoteSource(m.Src[start:end], 60)
}

// quoteSource quotes source text for a message as written: line breaks and
// runs of white space between tokens become one space, string and template
// literals are kept byte for byte, and the text is cut (at a character) to
// at most limit characters.
func quoteSource(src []byte, limit int) string {
	var b strings.Builder
	space := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(src) {
				j = len(src) - 1
			}
			b.Write(src[i : j+1])
			i = j
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			space = true
		default:
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteByte(c)
		}
	}
	s := b.String()
	if n := utf8.RuneCountInString(s); n > limit {
		r := []rune(s)
		s = string(r[:limit-3]) + "..."
	}
	return s
}

// skipType skips a type expression starting at token i and returns the
// index of the first token after it: a `,`, `;`, `=`, `)`, `]` or `}` at
// bracket depth 0 (angle brackets count as brackets in a type), or a token on
// a new line that cannot continue a type.
func skipType(toks []jsfront.Token, i int) int { return skipTo(toks, i, skipStops{inType: true}) }

// skipFieldType is skipType for a class field's type, which also ends at
// a name that starts a new line after a complete type (the next member).
func skipFieldType(toks []jsfront.Token, i int) int {
	return skipTo(toks, i, skipStops{inType: true, newLine: true, lineStarts: func(t jsfront.Token) bool {
		return t.Kind == jsfront.TokIdent || t.Kind == jsfront.TokPrivate
	}})
}

// arrowBody is an arrow function whose body starts at token i, from byte
// start of m.
func (e *Reader) arrowBody(m *File, start, i int) (*Value, int) {
	if m.isPunct(i, "{") {
		end := matching(m.toks, i)
		return &Value{Kind: VFunction, File: m.path, Start: start, End: m.Tok(end).End}, end + 1
	}
	// an expression body ends where the statement does (a new line that
	// starts a statement, too): a file without semicolons is not rescanned
	// to its end for every arrow
	end := skipExpr(m.toks, i)
	return &Value{Kind: VFunction, File: m.path, Start: start, End: m.Tok(end - 1).End}, end
}

// functionExpr skips `function name<T>(params): type { body }` at i.
func (e *Reader) functionExpr(m *File, i, start int) (*Value, int) {
	j := i + 1
	for j < len(m.toks) && !m.isPunct(j, "(") && m.Tok(j).Kind != jsfront.TokEOF {
		j++
	}
	j = matching(m.toks, j) + 1
	// an optional return type, which may hold object type literals: a `{`
	// that follows `:`, `|`, `&`, `<`, `,`, `(`, `[` or `=>` opens a type
	// literal; any other `{` opens the body.
	for j < len(m.toks) && m.Tok(j).Kind != jsfront.TokEOF {
		t := m.Tok(j)
		if t.Kind == jsfront.TokPunct && (t.Text == "(" || t.Text == "[") {
			j = matching(m.toks, j) + 1
			continue
		}
		if t.Kind == jsfront.TokPunct && t.Text == "{" {
			prev := m.Tok(j - 1)
			if prev.Kind == jsfront.TokPunct {
				switch prev.Text {
				case ":", "|", "&", "<", ",", "(", "[", "=>":
					j = matching(m.toks, j) + 1
					continue
				}
			}
			break
		}
		j++
	}
	end := matching(m.toks, j)
	return &Value{Kind: VFunction, File: m.path, Start: start, End: m.Tok(end).End}, end + 1
}
