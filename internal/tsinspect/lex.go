package tsinspect

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind classifies a token of JavaScript or TypeScript source. The lexer is
// deliberately small: it knows enough to find top-level statements, walk
// literal values and skip everything else with balanced brackets. Syntax is
// validated by esbuild before the lexer's view is trusted.
type tokKind int

const (
	tokEOF      tokKind = iota
	tokIdent            // identifiers and keywords
	tokPunct            // operators and brackets
	tokString           // '...' or "..."
	tokTemplate         // `...`, whole, substitutions included
	tokNumber
	tokRegex
	tokPrivate // #name
)

type token struct {
	kind  tokKind
	start int
	end   int
	// text is the identifier, the punctuator, the number's source, or the
	// decoded value of a string (and of a template without substitutions).
	text string
	// nl reports a line break between the previous token and this one.
	nl bool
	// subst marks a template literal with ${} substitutions.
	subst bool
	// ctrl marks the `)` closing the condition of if/while/for/with, after
	// which a `/` starts a regular expression.
	ctrl bool
}

// lexError is a failure of the lexer's view of the file. esbuild parsed the
// file already, so it means the lexer met a construct it does not model.
type lexError struct {
	offset int
	msg    string
	// limit is set when a bound of the inspection was hit (nesting, imports,
	// operator chains): the module is reported as not inspected, esbuild
	// never sees it. msg then says which bound, for the user.
	limit bool
}

func (e *lexError) Error() string { return fmt.Sprintf("offset %d: %s", e.offset, e.msg) }

// maxNesting bounds bracket nesting (and template nesting); deeper sources
// are reported as not inspected instead of risking a stall.
const maxNesting = 256

type lexer struct {
	src  []byte
	pos  int
	toks []token
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

func (lx *lexer) pushLevel() {
	lx.levels = append(lx.levels, 0)
	lx.plus = append(lx.plus, 0)
	lx.declared = append(lx.declared, nil)
}

func (lx *lexer) popLevel() {
	if n := len(lx.levels); n > 1 {
		lx.implicit -= lx.levels[n-1]
		lx.levels = lx.levels[:n-1]
		lx.plus = lx.plus[:n-1]
		lx.declared = lx.declared[:n-1]
	}
}

func (lx *lexer) resetLevel() {
	n := len(lx.levels)
	lx.implicit -= lx.levels[n-1]
	lx.levels[n-1] = 0
	lx.plus[n-1] = 0
}

// nest accounts for token t (not yet appended) in the nesting bound.
func (lx *lexer) nest(t token) error {
	prevEnds := false // the previous token ends an operand
	if n := len(lx.toks); n > 0 {
		prevEnds = endsOperand(lx.toks[n-1])
	}
	count := false
	switch t.kind {
	case tokPunct:
		switch t.text {
		case "(", "[", "{":
			lx.pushLevel()
		case ")", "]", "}":
			lx.popLevel()
		case ",", ";":
			lx.resetLevel()
		case "=>", "**", "...", "!", "~":
			count = true
		case "-", "+", "++", "--":
			count = !prevEnds
		}
	case tokIdent:
		switch t.text {
		case "new", "await", "typeof", "void", "delete", "yield":
			count = true
		}
		if t.nl && prevEnds {
			lx.resetLevel() // a new statement on a new line
		}
	default:
		if t.nl && prevEnds {
			lx.resetLevel()
		}
	}
	if count {
		lx.levels[len(lx.levels)-1]++
		lx.implicit++
	}
	if lx.depth+lx.implicit > maxNesting {
		return lx.tooDeep(t.start)
	}
	if t.kind == tokIdent {
		if lx.declaring {
			lx.declaring = false
			n := len(lx.declared) - 1
			if lx.declared[n] == nil {
				lx.declared[n] = map[string]bool{}
			}
			if lx.declared[n][t.text] {
				lx.redeclared++
				if lx.redeclared > maxRedeclared {
					return &lexError{offset: t.start, limit: true, msg: fmt.Sprintf("more than %d names declared twice in one scope", maxRedeclared)}
				}
			}
			lx.declared[n][t.text] = true
		} else if t.text == "const" || t.text == "let" || t.text == "class" {
			prev := token{}
			if n := len(lx.toks); n > 0 {
				prev = lx.toks[n-1]
			}
			lx.declaring = !(prev.kind == tokPunct && (prev.text == "." || prev.text == "?.")) && !(prev.kind == tokIdent && prev.text == "as")
		}
	} else {
		lx.declaring = false
	}
	if t.kind == tokIdent && (t.text == "import" || t.text == "require") {
		lx.imports++
		if lx.imports > maxImports {
			return &lexError{offset: t.start, limit: true, msg: fmt.Sprintf("more than %d imports", maxImports)}
		}
	}
	if t.kind == tokPunct && t.text == "+" && prevEnds {
		lx.plus[len(lx.plus)-1]++
		if lx.plus[len(lx.plus)-1] > maxPlusChain {
			return &lexError{offset: t.start, limit: true, msg: fmt.Sprintf("an expression joins more than %d terms with +", maxPlusChain)}
		}
	}
	return nil
}

func (lx *lexer) tooDeep(offset int) *lexError {
	return &lexError{offset: offset, limit: true, msg: fmt.Sprintf(
		"expressions nest deeper than %d levels (brackets, arrow functions, prefix operators)", maxNesting)}
}

// Bounds on inputs that make esbuild's work grow faster than the input
// (its location of each message is linear, string concatenation folding is
// quadratic): far above what a tool module holds.
const (
	maxImports    = 4096
	maxPlusChain  = 8192
	maxRedeclared = 64 // esbuild's redeclaration errors are quadratic
)

// lex splits src into tokens. Comments are dropped; a hashbang line is
// skipped.
func lex(src []byte) ([]token, error) {
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
	lx.toks = append(lx.toks, token{kind: tokEOF, start: len(src), end: len(src)})
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
					return &lexError{offset: lx.pos, msg: "unterminated comment"}
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
				return &lexError{offset: lx.pos, msg: "unterminated template substitution"}
			}
			return nil
		}
		start := lx.pos
		c := lx.src[lx.pos]
		var t token
		switch {
		case c == '\'' || c == '"':
			s, err := lx.string(c)
			if err != nil {
				return err
			}
			t = token{kind: tokString, text: s}
		case c == '`':
			s, subst, err := lx.template()
			if err != nil {
				return err
			}
			t = token{kind: tokTemplate, text: s, subst: subst}
		case isDigit(c) || (c == '.' && lx.pos+1 < len(lx.src) && isDigit(lx.src[lx.pos+1])):
			lx.number()
			t = token{kind: tokNumber, text: string(lx.src[start:lx.pos])}
		case c == '#':
			lx.pos++
			lx.ident()
			t = token{kind: tokPrivate, text: string(lx.src[start:lx.pos])}
		case isIdentStart(lx.src, lx.pos):
			lx.ident()
			t = token{kind: tokIdent, text: string(lx.src[start:lx.pos])}
		case c == '/' && lx.regexAllowed():
			if err := lx.regex(); err != nil {
				return err
			}
			t = token{kind: tokRegex, text: string(lx.src[start:lx.pos])}
		default:
			p := lx.punct()
			if p == "" {
				r, _ := utf8.DecodeRune(lx.src[lx.pos:])
				return &lexError{offset: lx.pos, msg: fmt.Sprintf("unexpected character %q", r)}
			}
			ctrl := false
			switch p {
			case "(":
				isCtrl := false
				if n := len(lx.toks); n > 0 && lx.toks[n-1].kind == tokIdent {
					switch lx.toks[n-1].text {
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
			t = token{kind: tokPunct, text: p, ctrl: ctrl}
		}
		t.start, t.end, t.nl = start, lx.pos, nl
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
		if c == '\\' { // \uXXXX escape in an identifier
			lx.pos++
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
			return "", &lexError{offset: start, msg: "unterminated string"}
		case c == '\\':
			if err := lx.escape(&b); err != nil {
				return "", err
			}
		default:
			b.WriteByte(c)
			lx.pos++
		}
	}
	return "", &lexError{offset: start, msg: "unterminated string"}
}

// escape decodes one backslash escape at lx.pos into b.
func (lx *lexer) escape(b *strings.Builder) error {
	start := lx.pos
	lx.pos++
	if lx.pos >= len(lx.src) {
		return &lexError{offset: start, msg: "unterminated escape"}
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
			return &lexError{offset: start, msg: "bad escape"}
		}
		v, err := strconv.ParseUint(string(lx.src[lx.pos:lx.pos+2]), 16, 8)
		if err != nil {
			return &lexError{offset: start, msg: "bad escape"}
		}
		b.WriteRune(rune(v))
		lx.pos += 2
	case 'u':
		var hex string
		if lx.pos < len(lx.src) && lx.src[lx.pos] == '{' {
			end := strings.IndexByte(string(lx.src[lx.pos:]), '}')
			if end < 0 {
				return &lexError{offset: start, msg: "bad escape"}
			}
			hex = string(lx.src[lx.pos+1 : lx.pos+end])
			lx.pos += end + 1
		} else {
			if lx.pos+4 > len(lx.src) {
				return &lexError{offset: start, msg: "bad escape"}
			}
			hex = string(lx.src[lx.pos : lx.pos+4])
			lx.pos += 4
		}
		v, err := strconv.ParseUint(hex, 16, 32)
		if err != nil {
			return &lexError{offset: start, msg: "bad escape"}
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
	return "", false, &lexError{offset: start, msg: "unterminated template"}
}

// regexAllowed decides whether a `/` starts a regular expression, from the
// previous token (the classic rule; esbuild already accepted the file): it
// does unless that token ends an operand.
func (lx *lexer) regexAllowed() bool {
	return len(lx.toks) == 0 || !endsOperand(lx.toks[len(lx.toks)-1])
}

func (lx *lexer) regex() error {
	start := lx.pos
	lx.pos++
	inClass := false
	for lx.pos < len(lx.src) {
		c := lx.src[lx.pos]
		switch {
		case c == '\n' || c == '\r':
			return &lexError{offset: start, msg: "unterminated regular expression"}
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
	return &lexError{offset: start, msg: "unterminated regular expression"}
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
