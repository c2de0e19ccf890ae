package tsinspect

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

// nesting is how a token's text changes the bracket depth: 1 for an
// opening bracket, -1 for a closing one, 0 for anything else.
func nesting(text string) int {
	switch text {
	case "(", "[", "{":
		return 1
	case ")", "]", "}":
		return -1
	}
	return 0
}
