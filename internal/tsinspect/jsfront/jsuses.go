package jsfront

import (
	"bytes"

	"github.com/tdewolff/parse/v2/js"
)

// jsuses.go gives every read of a name in a Tree its own position.
//
// tdewolff's parser shares one *js.Var among a name's declaration and all
// its reads, so a read has no position. One walk of the tree in source
// order finds each name in the JavaScript after the previous one (the
// slices of literals, property names and import names move the cursor
// past what they cover), and replaces each read by a *js.Var slicing the
// read itself, linked to the shared one (root gives it back). Bindings
// keep the shared *js.Var: the walk only moves past them.

// maxMisaligned stops the search for reads after so many were not found,
// keeping the walk linear on a file it does not follow.
const maxMisaligned = 8

type aligner struct {
	t          *Tree
	cursor     int // offset in t.out
	misaligned int
}

// giveReadsPositions runs the walk; it returns how many reads were not
// found (they keep the shared *js.Var).
func giveReadsPositions(t *Tree) int {
	a := &aligner{t: t}
	a.stmts(t.AST.List)
	return a.misaligned
}

// past moves the cursor past b, a slice of the JavaScript.
func (a *aligner) past(b []byte) {
	if off, ok := a.t.outOffset(b); ok && off+len(b) > a.cursor {
		a.cursor = off + len(b)
	}
}

// find returns the next occurrence of name as a whole word after the
// cursor, as a slice of the JavaScript, and moves past it.
func (a *aligner) find(name []byte) ([]byte, bool) {
	if a.misaligned >= maxMisaligned || len(name) == 0 {
		return nil, false
	}
	out := a.t.Out
	for from := a.cursor; from < len(out); {
		i := bytes.Index(out[from:], name)
		if i < 0 {
			break
		}
		at := from + i
		if wordAt(out, at, len(name)) {
			a.cursor = at + len(name)
			return out[at : at+len(name) : at+len(name)], true
		}
		from = at + 1
	}
	a.misaligned++
	return nil, false
}

// bindingVar moves past a declared name, the first one of v giving v's
// declaration its place (Tree.declAt).
func (a *aligner) bindingVar(v *js.Var) {
	if v == nil {
		return
	}
	if site, ok := a.find(v.Data); ok && a.t.DeclAt[v] == nil {
		a.t.DeclAt[v] = site
	}
}

func (a *aligner) stmts(list []js.IStmt) {
	for _, s := range list {
		a.stmt(s)
	}
}

func (a *aligner) block(b *js.BlockStmt) {
	if b != nil {
		a.stmts(b.List)
	}
}

func (a *aligner) stmt(s js.IStmt) {
	switch n := s.(type) {
	case *js.BlockStmt:
		a.stmts(n.List)
	case *js.ExprStmt:
		a.expr(&n.Value)
	case *js.VarDecl:
		a.varDecl(n)
	case *js.IfStmt:
		a.expr(&n.Cond)
		a.stmt(n.Body)
		a.stmt(n.Else)
	case *js.DoWhileStmt:
		a.stmt(n.Body)
		a.expr(&n.Cond)
	case *js.WhileStmt:
		a.expr(&n.Cond)
		a.stmt(n.Body)
	case *js.ForStmt:
		a.expr(&n.Init)
		a.expr(&n.Cond)
		a.expr(&n.Post)
		a.block(n.Body)
	case *js.ForInStmt:
		a.expr(&n.Init)
		a.expr(&n.Value)
		a.block(n.Body)
	case *js.ForOfStmt:
		a.expr(&n.Init)
		a.expr(&n.Value)
		a.block(n.Body)
	case *js.SwitchStmt:
		a.expr(&n.Init)
		for i := range n.List {
			a.expr(&n.List[i].Cond)
			a.stmts(n.List[i].List)
		}
	case *js.BranchStmt:
		a.past(n.Label)
	case *js.ReturnStmt:
		a.expr(&n.Value)
	case *js.WithStmt:
		a.expr(&n.Cond)
		a.stmt(n.Body)
	case *js.LabelledStmt:
		a.past(n.Label)
		a.stmt(n.Value)
	case *js.ThrowStmt:
		a.expr(&n.Value)
	case *js.TryStmt:
		a.block(n.Body)
		a.binding(n.Binding)
		a.block(n.Catch)
		a.block(n.Finally)
	case *js.ImportStmt:
		a.past(n.Default)
		for _, al := range n.List {
			a.past(al.Name)
			a.past(al.Binding)
		}
		a.past(n.Module)
	case *js.ExportStmt:
		for _, al := range n.List {
			a.past(al.Name)
			a.past(al.Binding)
		}
		a.past(n.Module)
		a.expr(&n.Decl)
	case *js.FuncDecl:
		a.function(n)
	case *js.ClassDecl:
		a.class(n)
	case *js.DirectivePrologueStmt:
		a.past(n.Value)
	case *js.Comment:
		a.past(n.Value)
	}
}

func (a *aligner) varDecl(n *js.VarDecl) {
	for i := range n.List {
		a.element(&n.List[i])
	}
}

func (a *aligner) element(e *js.BindingElement) {
	a.binding(e.Binding)
	a.expr(&e.Default)
}

func (a *aligner) binding(b js.IBinding) {
	switch n := b.(type) {
	case *js.Var:
		a.bindingVar(n)
	case *js.BindingArray:
		for i := range n.List {
			a.element(&n.List[i])
		}
		a.binding(n.Rest)
	case *js.BindingObject:
		for i := range n.List {
			if k := n.List[i].Key; k != nil {
				a.propertyName(k)
			}
			a.element(&n.List[i].Value)
		}
		if n.Rest != nil {
			a.bindingVar(n.Rest)
		}
	}
}

func (a *aligner) params(p *js.Params) {
	for i := range p.List {
		a.element(&p.List[i])
	}
	a.binding(p.Rest)
}

func (a *aligner) function(f *js.FuncDecl) {
	if f.Name != nil {
		a.bindingVar(f.Name)
	}
	a.params(&f.Params)
	a.stmts(f.Body.List)
}

func (a *aligner) class(c *js.ClassDecl) {
	if c.Name != nil {
		a.bindingVar(c.Name)
	}
	a.expr(&c.Extends)
	for i := range c.List {
		el := &c.List[i]
		switch {
		case el.StaticBlock != nil:
			a.block(el.StaticBlock)
		case el.Method != nil:
			a.method(el.Method)
		default:
			a.elementName(&el.Field.Name)
			a.expr(&el.Field.Init)
		}
	}
}

func (a *aligner) method(m *js.MethodDecl) {
	a.elementName(&m.Name)
	a.params(&m.Params)
	a.stmts(m.Body.List)
}

func (a *aligner) elementName(n *js.ClassElementName) {
	if n.Private != nil {
		a.bindingVar(n.Private)
		return
	}
	a.propertyName(&n.PropertyName)
}

func (a *aligner) propertyName(n *js.PropertyName) {
	if n.Computed != nil {
		a.expr(&n.Computed)
		return
	}
	a.past(n.Literal.Data)
}

func (a *aligner) args(as *js.Args) {
	if as == nil {
		return
	}
	for i := range as.List {
		a.expr(&as.List[i].Value)
	}
}

// expr walks the expression in *p, replacing a read of a name by one with
// its own position.
func (a *aligner) expr(p *js.IExpr) {
	switch n := (*p).(type) {
	case nil:
	case *js.Var:
		if site, ok := a.find(n.Data); ok {
			*p = &js.Var{Data: site, Link: n, Decl: Root(n).Decl}
		}
	case *js.LiteralExpr:
		a.past(n.Data)
	case *js.ArrayExpr:
		for i := range n.List {
			a.expr(&n.List[i].Value)
		}
	case *js.ObjectExpr:
		for i := range n.List {
			pr := &n.List[i]
			if pr.Name != nil {
				a.propertyName(pr.Name)
			}
			a.expr(&pr.Value)
			a.expr(&pr.Init)
		}
	case *js.TemplateExpr:
		a.expr(&n.Tag)
		for i := range n.List {
			a.past(n.List[i].Value)
			a.expr(&n.List[i].Expr)
		}
		a.past(n.Tail)
	case *js.GroupExpr:
		a.expr(&n.X)
	case *js.IndexExpr:
		a.expr(&n.X)
		a.expr(&n.Y)
	case *js.DotExpr:
		a.expr(&n.X)
		if lit, ok := n.Y.(js.LiteralExpr); ok {
			a.past(lit.Data)
		} else if v, ok := n.Y.(*js.Var); ok {
			a.bindingVar(v) // a private name: `this.#x`
		}
	case *js.NewExpr:
		a.expr(&n.X)
		a.args(n.Args)
	case *js.CallExpr:
		a.expr(&n.X)
		a.args(&n.Args)
	case *js.UnaryExpr:
		a.expr(&n.X)
	case *js.BinaryExpr:
		a.expr(&n.X)
		a.expr(&n.Y)
	case *js.CondExpr:
		a.expr(&n.Cond)
		a.expr(&n.X)
		a.expr(&n.Y)
	case *js.YieldExpr:
		a.expr(&n.X)
	case *js.ArrowFunc:
		a.params(&n.Params)
		a.stmts(n.Body.List)
	case *js.CommaExpr:
		for i := range n.List {
			a.expr(&n.List[i])
		}
	case *js.FuncDecl:
		a.function(n)
	case *js.ClassDecl:
		a.class(n)
	case *js.MethodDecl:
		a.method(n)
	case *js.VarDecl:
		a.varDecl(n) // a declaration in `for (let x ...)` or `export const`
	}
}
