package jsfront

import (
	"fmt"
)

// maxNesting bounds bracket nesting (and template nesting); deeper sources
// are reported as not inspected instead of risking a stall.
const maxNesting = 256

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
func (lx *lexer) nest(t Token) error {
	prevEnds := false // the previous token ends an operand
	if n := len(lx.toks); n > 0 {
		prevEnds = EndsOperand(lx.toks[n-1])
	}
	count := false
	switch t.Kind {
	case TokPunct:
		switch t.Text {
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
	case TokIdent:
		switch t.Text {
		case "new", "await", "typeof", "void", "delete", "yield":
			count = true
		}
		if t.NL && prevEnds {
			lx.resetLevel() // a new statement on a new line
		}
	default:
		if t.NL && prevEnds {
			lx.resetLevel()
		}
	}
	if count {
		lx.levels[len(lx.levels)-1]++
		lx.implicit++
	}
	if lx.depth+lx.implicit > maxNesting {
		return lx.tooDeep(t.Start)
	}
	if t.Kind == TokIdent {
		if lx.declaring {
			lx.declaring = false
			n := len(lx.declared) - 1
			if lx.declared[n] == nil {
				lx.declared[n] = map[string]bool{}
			}
			if lx.declared[n][t.Text] {
				lx.redeclared++
				if lx.redeclared > maxRedeclared {
					return &LexError{Offset: t.Start, Limit: true, Msg: fmt.Sprintf("more than %d names declared twice in one scope", maxRedeclared)}
				}
			}
			lx.declared[n][t.Text] = true
		} else if t.Text == "const" || t.Text == "let" || t.Text == "class" {
			prev := Token{}
			if n := len(lx.toks); n > 0 {
				prev = lx.toks[n-1]
			}
			lx.declaring = !(prev.Kind == TokPunct && (prev.Text == "." || prev.Text == "?.")) && !(prev.Kind == TokIdent && prev.Text == "as")
		}
	} else {
		lx.declaring = false
	}
	if t.Kind == TokIdent && (t.Text == "import" || t.Text == "require") {
		lx.imports++
		if lx.imports > maxImports {
			return &LexError{Offset: t.Start, Limit: true, Msg: fmt.Sprintf("more than %d imports", maxImports)}
		}
	}
	if t.Kind == TokPunct && t.Text == "+" && prevEnds {
		lx.plus[len(lx.plus)-1]++
		if lx.plus[len(lx.plus)-1] > MaxPlusChain {
			return &LexError{Offset: t.Start, Limit: true, Msg: fmt.Sprintf("an expression joins more than %d terms with +", MaxPlusChain)}
		}
	}
	return nil
}

func (lx *lexer) tooDeep(offset int) *LexError {
	return &LexError{Offset: offset, Limit: true, Msg: fmt.Sprintf(
		"expressions nest deeper than %d levels (brackets, arrow functions, prefix operators)", maxNesting)}
}

// Bounds on inputs that make esbuild's work grow faster than the input
// (its location of each message is linear, string concatenation folding is
// quadratic): far above what a tool module holds.
const (
	maxImports    = 4096
	MaxPlusChain  = 8192
	maxRedeclared = 64 // esbuild's redeclaration errors are quadratic
)

// Nesting is how a token's text changes the bracket depth: 1 for an
// opening bracket, -1 for a closing one, 0 for anything else.
func Nesting(text string) int {
	switch text {
	case "(", "[", "{":
		return 1
	case ")", "]", "}":
		return -1
	}
	return 0
}
