package jsfront

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TokKind classifies a token of JavaScript or TypeScript source. The lexer is
// deliberately small: it knows enough to find top-level statements, walk
// literal values and skip everything else with balanced brackets. Syntax is
// validated by esbuild before the lexer's view is trusted.
type TokKind int

const (
	TokEOF      TokKind = iota
	TokIdent            // identifiers and keywords
	TokPunct            // operators and brackets
	TokString           // '...' or "..."
	TokTemplate         // `...`, whole, substitutions included
	TokNumber
	TokRegex
	TokPrivate // #name
)

type Token struct {
	Kind  TokKind
	Start int
	End   int
	// Text is the identifier, the punctuator, the number's source, or the
	// decoded value of a string (and of a template without substitutions).
	Text string
	// NL reports a line break between the previous token and this one.
	NL bool
	// Subst marks a template literal with ${} substitutions.
	Subst bool
	// ctrl marks the `)` closing the condition of if/while/for/with, after
	// which a `/` starts a regular expression.
	ctrl bool
}

// LexError is a failure of the lexer's view of the file. esbuild parsed the
// file already, so it means the lexer met a construct it does not model.
type LexError struct {
	Offset int
	Msg    string
	// Limit is set when a bound of the inspection was hit (nesting, imports,
	// operator chains): the module is reported as not inspected, esbuild
	// never sees it. msg then says which bound, for the user.
	Limit bool
}

func (e *LexError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

type lexer struct {
	src  []byte
	pos  int
	toks []Token
	// depth of (, [, { including template substitutions, for the nesting bound
	depth int
	// parens records, for each open `(`, whether it follows if/while/for/with
	parens []bool
	// levels counts, per open bracket (the first entry: the top level), the
	// constructs that make a recursive parser nest without a bracket: arrow
	// functions, prefix operators, `**`, spreads. esbuild's parser slows down
	// badly on long chains of them (nested arrows are cubic), so they count
	// towards the nesting bound with the brackets. implicit is their sum.
	levels   []int
	implicit int
	plus     []int // `+` operators per level since the last `,` or `;`
	imports  int
	// declared holds, per level, the names declared with const, let or class
	// (nil until one is); redeclared counts names declared twice.
	declared   []map[string]bool
	redeclared int
	// declaring is set after const/let/class: the next identifier is a name.
	declaring bool
}

// Lex splits src into tokens. Comments are dropped; a hashbang line is
// skipped.
func Lex(src []byte) ([]Token, error) {
	lx := &lexer{src: src, levels: []int{0}, plus: []int{0}, declared: []map[string]bool{nil}}
	if len(src) >= 2 && src[0] == '#' && src[1] == '!' {
		for lx.pos < len(src) && src[lx.pos] != '\n' {
			lx.pos++
		}
	}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		lx.pos = 3
	}
	if err := lx.run(false); err != nil {
		return nil, err
	}
	lx.toks = append(lx.toks, Token{Kind: TokEOF, Start: len(src), End: len(src)})
	return lx.toks, nil
}

// run lexes until EOF, or, inside a template substitution, until the `}`
// that closes it (which it consumes).
func (lx *lexer) run(inSubst bool) error {
	braces := 0
	nl := false
	for {
		// skip white space and comments
		for lx.pos < len(lx.src) {
			c := lx.src[lx.pos]
			if c == '\n' || c == '\r' {
				nl = true
				lx.pos++
				continue
			}
			if c == ' ' || c == '\t' || c == '\f' || c == '\v' {
				lx.pos++
				continue
			}
			if c == '/' && lx.pos+1 < len(lx.src) && lx.src[lx.pos+1] == '/' {
				for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' {
					lx.pos++
				}
				continue
			}
			if c == '/' && lx.pos+1 < len(lx.src) && lx.src[lx.pos+1] == '*' {
				end := strings.Index(string(lx.src[lx.pos+2:]), "*/")
				if end < 0 {
					return &LexError{Offset: lx.pos, Msg: "unterminated comment"}
				}
				if strings.ContainsAny(string(lx.src[lx.pos:lx.pos+2+end]), "\n\r") {
					nl = true
				}
				lx.pos += end + 4
				continue
			}
			if c >= 0x80 {
				r, size := utf8.DecodeRune(lx.src[lx.pos:])
				if r == '\u2028' || r == '\u2029' {
					nl = true
					lx.pos += size
					continue
				}
				if unicode.IsSpace(r) || r == '\uFEFF' {
					lx.pos += size
					continue
				}
			}
			break
		}
		if lx.pos >= len(lx.src) {
			if inSubst {
				return &LexError{Offset: lx.pos, Msg: "unterminated template substitution"}
			}
			return nil
		}
		start := lx.pos
		c := lx.src[lx.pos]
		var t Token
		switch {
		case c == '\'' || c == '"':
			s, err := lx.string(c)
			if err != nil {
				return err
			}
			t = Token{Kind: TokString, Text: s}
		case c == '`':
			s, subst, err := lx.template()
			if err != nil {
				return err
			}
			t = Token{Kind: TokTemplate, Text: s, Subst: subst}
		case isDigit(c) || (c == '.' && lx.pos+1 < len(lx.src) && isDigit(lx.src[lx.pos+1])):
			lx.number()
			t = Token{Kind: TokNumber, Text: string(lx.src[start:lx.pos])}
		case c == '#':
			lx.pos++
			lx.ident()
			t = Token{Kind: TokPrivate, Text: string(lx.src[start:lx.pos])}
		case isIdentStart(lx.src, lx.pos):
			lx.ident()
			t = Token{Kind: TokIdent, Text: cookIdent(lx.src[start:lx.pos])}
		case c == '/' && lx.regexAllowed():
			if err := lx.regex(); err != nil {
				return err
			}
			t = Token{Kind: TokRegex, Text: string(lx.src[start:lx.pos])}
		default:
			p := lx.punct()
			if p == "" {
				r, _ := utf8.DecodeRune(lx.src[lx.pos:])
				return &LexError{Offset: lx.pos, Msg: fmt.Sprintf("unexpected character %q", r)}
			}
			ctrl := false
			switch p {
			case "(":
				isCtrl := false
				if n := len(lx.toks); n > 0 && lx.toks[n-1].Kind == TokIdent {
					switch lx.toks[n-1].Text {
					case "if", "while", "for", "with":
						isCtrl = true
					}
				}
				lx.parens = append(lx.parens, isCtrl)
			case ")":
				if n := len(lx.parens); n > 0 {
					ctrl = lx.parens[n-1]
					lx.parens = lx.parens[:n-1]
				}
			}
			switch p {
			case "(", "[", "{":
				lx.depth++
				if lx.depth > maxNesting {
					return lx.tooDeep(lx.pos)
				}
				if p == "{" {
					braces++
				}
			case ")", "]", "}":
				lx.depth--
				if p == "}" {
					if inSubst && braces == 0 {
						lx.depth++ // the substitution's own ${ counted below
						lx.pos++
						return nil
					}
					braces--
				}
			}
			lx.pos += len(p)
			t = Token{Kind: TokPunct, Text: p, ctrl: ctrl}
		}
		t.Start, t.End, t.NL = start, lx.pos, nl
		nl = false
		if err := lx.nest(t); err != nil {
			return err
		}
		lx.toks = append(lx.toks, t)
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(src []byte, i int) bool {
	c := src[i]
	if c == '$' || c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') || c == '\\' {
		return true
	}
	if c < 0x80 {
		return false
	}
	r, _ := utf8.DecodeRune(src[i:])
	return unicode.IsLetter(r) || unicode.Is(unicode.Other_ID_Start, r)
}

func (lx *lexer) ident() {
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		if c == '$' || c == '_' || isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z') {
			lx.pos++
			continue
		}
		if c == '\\' { // \uXXXX or \u{X...} escape in an identifier
			lx.pos++
			if lx.pos+1 < len(lx.src) && lx.src[lx.pos] == 'u' && lx.src[lx.pos+1] == '{' {
				if end := bytes.IndexByte(lx.src[lx.pos:], '}'); end >= 0 {
					lx.pos += end + 1
				}
			}
			continue
		}
		if c < 0x80 {
			return
		}
		r, size := utf8.DecodeRune(lx.src[lx.pos:])
		if r == utf8.RuneError && size <= 1 {
			return
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) ||
			unicode.Is(unicode.Pc, r) || r == '\u200C' || r == '\u200D' {
			lx.pos += size
			continue
		}
		return
	}
}

// cookIdent is an identifier's name with its escapes decoded
// (`de\u0073cription` is `description`, as esbuild's JavaScript and the
// runtime name it); a malformed escape leaves it as written.
func cookIdent(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	var b strings.Builder
	for i := 0; i < len(raw); {
		if raw[i] != '\\' {
			b.WriteByte(raw[i])
			i++
			continue
		}
		hex, next := "", 0
		switch {
		case i+2 < len(raw) && raw[i+1] == 'u' && raw[i+2] == '{':
			end := bytes.IndexByte(raw[i+3:], '}')
			if end < 0 {
				return string(raw)
			}
			hex, next = string(raw[i+3:i+3+end]), i+4+end
		case i+6 <= len(raw) && raw[i+1] == 'u':
			hex, next = string(raw[i+2:i+6]), i+6
		default:
			return string(raw)
		}
		r, err := strconv.ParseUint(hex, 16, 32)
		if err != nil || r > utf8.MaxRune {
			return string(raw)
		}
		b.WriteRune(rune(r))
		i = next
	}
	return b.String()
}

func (lx *lexer) number() {
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		if isDigit(c) || c == '.' || c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') {
			// exponent sign
			if (c == 'e' || c == 'E') && lx.pos+1 < len(lx.src) && (lx.src[lx.pos+1] == '+' || lx.src[lx.pos+1] == '-') &&
				!strings.HasPrefix(strings.ToLower(string(lx.src[lx.pos-1:lx.pos])), "x") {
				lx.pos += 2
				continue
			}
			lx.pos++
			continue
		}
		return
	}
}

// regexAllowed decides whether a `/` starts a regular expression, from the
// previous token (the classic rule; esbuild already accepted the file): it
// does unless that token ends an operand.
func (lx *lexer) regexAllowed() bool {
	return len(lx.toks) == 0 || !EndsOperand(lx.toks[len(lx.toks)-1])
}

func (lx *lexer) regex() error {
	start := lx.pos
	lx.pos++
	inClass := false
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		switch {
		case c == '\n' || c == '\r':
			return &LexError{Offset: start, Msg: "unterminated regular expression"}
		case c == '\\':
			lx.pos += 2
			continue
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			lx.pos++
			for lx.pos < len(lx.src) && (isDigit(lx.src[lx.pos]) || (lx.src[lx.pos]|0x20 >= 'a' && lx.src[lx.pos]|0x20 <= 'z')) {
				lx.pos++
			}
			return nil
		}
		lx.pos++
	}
	return &LexError{Offset: start, Msg: "unterminated regular expression"}
}

var puncts = []string{
	">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "**", "<<", ">>",
	"{", "}", "(", ")", "[", "]", ";", ",", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^", "!", "~", "?", ":", "=", ".", "@",
}

func (lx *lexer) punct() string {
	rest := lx.src[lx.pos:]
	for _, p := range puncts {
		if len(rest) >= len(p) && string(rest[:len(p)]) == p {
			// `?.` followed by a digit is `?` then a number
			if p == "?." && len(rest) > 2 && isDigit(rest[2]) {
				continue
			}
			// `>>` and `>>>` are lexed as single `>` so that type arguments
			// close one at a time; expressions never need shifts here.
			if strings.HasPrefix(p, ">>") || p == ">=" || p == ">>=" {
				return ">"
			}
			return p
		}
	}
	return ""
}

// EndsOperand reports whether t can end an operand (so that a `/` after it
// divides and a line break after it may end a statement).
func EndsOperand(t Token) bool {
	switch t.Kind {
	case TokNumber, TokString, TokTemplate, TokRegex, TokPrivate:
		return true
	case TokIdent:
		switch t.Text {
		case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await":
			return false
		}
		return true
	case TokPunct:
		if t.Text == ")" {
			return !t.ctrl
		}
		return t.Text == "]" || t.Text == "}"
	}
	return false
}
