package loadtime

import (
	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// loadwalk_forms.go holds what loadwalk.go asks of the forms of the
// syntax: which statements may end a function early, which bindings a
// pattern declares, which consts Bun inlines, which member chains are
// optional, which names a file sets on the global object.

// inlinedConst reports whether Bun's transpiler replaces the reads of a
// const by its value: a name bound to a number, a string, a boolean, null
// or undefined, where the text reads it below its declaration (held to
// Bun: such a read run before the declaration, from a function called
// early, does not throw; of a bigint, an object or an expression, or a
// read above the declaration, it does).
func inlinedConst(e js.BindingElement) bool {
	if _, ok := e.Binding.(*js.Var); !ok {
		return false
	}
	switch d := e.Default.(type) {
	case *js.LiteralExpr:
		switch d.TokenType {
		case js.StringToken, js.TrueToken, js.FalseToken, js.NullToken:
			return true
		}
		return numberLiteral(d)
	case *js.UnaryExpr:
		lit, ok := d.X.(*js.LiteralExpr)
		return ok && (d.Op == js.NegToken || d.Op == js.PosToken || d.Op == js.VoidToken) && numberLiteral(lit)
	case *js.TemplateExpr:
		return d.Tag == nil && len(d.List) == 0
	case *js.Var:
		return jsfront.FreeName(d, "undefined")
	}
	return false
}

// readsAfter reports whether the read v of the declaration r is below r's
// declaration in the text (where Bun inlines an inlinedConst: the read
// does not throw even when it runs first, from a function called early);
// true when either has no position (no error is claimed then).
func (w *loadWalker) readsAfter(v, r *js.Var) bool {
	at, ok1 := w.t.Pos(v.Data)
	site := w.t.DeclAt[r]
	if site == nil {
		return true
	}
	decl, ok2 := w.t.Pos(site)
	return !ok1 || !ok2 || at > decl
}

// numberLiteral reports whether lit is a number (not a bigint: `10n`).
func numberLiteral(lit *js.LiteralExpr) bool {
	switch lit.TokenType {
	case js.DecimalToken, js.IntegerToken, js.BinaryToken, js.OctalToken, js.HexadecimalToken:
		return len(lit.Data) > 0 && lit.Data[len(lit.Data)-1] != 'n'
	}
	return false
}

// mayLeave reports whether a statement may end its function early
// (`return`, `throw` or `break` inside it, outside nested functions).
func mayLeave(s js.IStmt) bool {
	switch n := s.(type) {
	case *js.ReturnStmt, *js.ThrowStmt, *js.BranchStmt:
		return true
	case *js.BlockStmt:
		return anyLeaves(n.List)
	case *js.IfStmt:
		return mayLeave(n.Body) || n.Else != nil && mayLeave(n.Else)
	case *js.ForStmt:
		return n.Body != nil && anyLeaves(n.Body.List)
	case *js.ForInStmt:
		return n.Body != nil && anyLeaves(n.Body.List)
	case *js.ForOfStmt:
		return n.Body != nil && anyLeaves(n.Body.List)
	case *js.WhileStmt:
		return mayLeave(n.Body)
	case *js.DoWhileStmt:
		return mayLeave(n.Body)
	case *js.LabelledStmt:
		return mayLeave(n.Value)
	case *js.WithStmt:
		return mayLeave(n.Body)
	case *js.SwitchStmt:
		for _, c := range n.List {
			if anyLeaves(c.List) {
				return true
			}
		}
	case *js.TryStmt:
		return n.Body != nil && anyLeaves(n.Body.List) || n.Catch != nil && anyLeaves(n.Catch.List) ||
			n.Finally != nil && anyLeaves(n.Finally.List)
	}
	return false
}

func anyLeaves(list []js.IStmt) bool {
	for _, s := range list {
		if mayLeave(s) {
			return true
		}
	}
	return false
}

func unparen(e js.IExpr) js.IExpr {
	for {
		g, ok := e.(*js.GroupExpr)
		if !ok {
			return e
		}
		e = g.X
	}
}

// optionalChain reports whether e's member chain has an optional link
// (`a?.b.c`): what follows it runs only when the link's object is there.
func optionalChain(e js.IExpr) bool {
	for {
		switch n := e.(type) {
		case *js.DotExpr:
			if n.Optional {
				return true
			}
			e = n.X
		case *js.IndexExpr:
			if n.Optional {
				return true
			}
			e = n.X
		case *js.CallExpr:
			if n.Optional {
				return true
			}
			e = n.X
		default:
			return false
		}
	}
}

// assignedGlobals finds the names the file assigns as properties of the
// global object (`globalThis.x =`, `global.x =`, `window.x =`), anywhere:
// a read of such a name may find it defined.
func assignedGlobals(t *jsfront.Tree) map[string]bool {
	out := map[string]bool{}
	js.Walk(jsfront.NodeVisitor(func(n js.INode) {
		b, ok := n.(*js.BinaryExpr)
		if !ok || b.Op != js.EqToken {
			return
		}
		if d, ok := b.X.(*js.DotExpr); ok {
			if v, ok := d.X.(*js.Var); ok {
				switch string(jsfront.Root(v).Data) {
				case "globalThis", "global", "window", "self":
					if lit, ok := d.Y.(js.LiteralExpr); ok {
						out[string(lit.Data)] = true
					}
				}
			}
		}
	}), t.AST)
	return out
}
