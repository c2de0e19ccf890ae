package jsvalue

import (
	"fmt"
	"strconv"

	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// enums.go reads TypeScript's enums and namespaces in the form esbuild
// lowers them to (as Bun's transpiler does), a function called at once on
// the object:
//
//	var E = ((E2) => { E2[E2["A"] = 0] = "A"; E2["B"] = "b"; return E2; })(E || {});
//	((N2) => { N2.x = ...; })(N || (N = {}));
//
// The tree says which members there are, which enum members are numeric
// (they get a reverse mapping) and the value of a member without one; the
// members' positions, and the values you wrote, are read in your text.

// enumValue is the object an enum is at run time: each member, and for a
// numeric member its reverse mapping (`E[0] === 'A'`).
func (e *Reader) enumValue(m *File, name string, b *Binding, start, end int) *Value {
	cannot := func(why string) *Value {
		return unknown(m, start, end, fmt.Sprintf("the enum `%s` %s", name, why))
	}
	members := enumMembers(m, b.At)
	if len(b.fn.Params.List) != 1 || members == nil {
		return cannot("has members this inspector cannot read")
	}
	self, _ := b.fn.Params.List[0].Binding.(*js.Var)
	close := matching(m.toks, b.At)
	v := &Value{Kind: VObject, File: m.path, Start: m.Tok(b.At).Start, End: m.Tok(close).End, Complete: true}
	k := 0
	for _, s := range b.fn.Body.List {
		if _, ok := s.(*js.ReturnStmt); ok {
			continue
		}
		key, init, numeric, ok := enumMember(s, self)
		if !ok || k >= len(members) {
			return cannot("has members this inspector cannot read")
		}
		mt := members[k]
		k++
		kt := m.Tok(mt.key)
		val := &Value{Kind: VUnknown, File: m.path, Start: kt.Start, End: kt.End}
		if mt.value >= 0 {
			val, _ = e.expr(m, init, mt.value)
		}
		if val.Kind != VNumber && val.Kind != VString {
			// what TypeScript folds (`1 << 2`, `A | B`, `'a' + 'b'`),
			// esbuild has folded
			val = enumConstant(init, val)
		}
		if val.Kind != VNumber && val.Kind != VString {
			return cannot("has a member computed when the module runs")
		}
		v.Props = append(v.Props, &Prop{Key: key, File: m.path, Start: kt.Start, End: kt.End, Val: val})
		if !numeric {
			continue
		}
		reverse, ok := jsString(val)
		if !ok {
			return cannot("has a member computed when the module runs")
		}
		v.Props = append(v.Props, &Prop{Key: reverse, File: m.path, Start: kt.Start, End: kt.End,
			Val: &Value{Kind: VString, File: m.path, Start: kt.Start, End: kt.End, Str: key}})
	}
	if k != len(members) {
		return cannot("has members this inspector cannot read")
	}
	v.Props = jsKeyOrder(v.Props)
	return v
}

// enumMember reads one statement of a lowered enum: `E2[E2["K"] = v] = "K"`
// (numeric: a reverse mapping too) or `E2["K"] = v`.
func enumMember(s js.IStmt, self *js.Var) (key string, init js.IExpr, numeric, ok bool) {
	es, isExpr := s.(*js.ExprStmt)
	if !isExpr {
		return "", nil, false, false
	}
	assign, isAssign := es.Value.(*js.BinaryExpr)
	if !isAssign || assign.Op != js.EqToken {
		return "", nil, false, false
	}
	ix, isIndex := assign.X.(*js.IndexExpr)
	if !isIndex || !isVar(ix.X, self) {
		return "", nil, false, false
	}
	if inner, isInner := ix.Y.(*js.BinaryExpr); isInner && inner.Op == js.EqToken {
		key, init, _, ok = enumMember(&js.ExprStmt{Value: inner}, self)
		return key, init, true, ok
	}
	lit, isLit := ix.Y.(*js.LiteralExpr)
	if !isLit || lit.TokenType != js.StringToken {
		return "", nil, false, false
	}
	key, ok = jsfront.Quoted(lit.Data)
	return key, assign.Y, false, ok
}

func isVar(x js.IExpr, v *js.Var) bool {
	r, ok := x.(*js.Var)
	return ok && v != nil && jsfront.Root(r) == v
}

// enumConstant is the value esbuild wrote for a member, a number (`-1`
// included) or a string, at the place of at; at itself when it wrote
// another expression.
func enumConstant(x js.IExpr, at *Value) *Value {
	neg := ""
	if u, ok := x.(*js.UnaryExpr); ok && u.Op == js.NegToken {
		neg, x = "-", u.X
	}
	lit, ok := x.(*js.LiteralExpr)
	if !ok {
		return at
	}
	c := &Value{File: at.File, Start: at.Start, End: at.End}
	switch {
	case js.IsNumeric(lit.TokenType):
		f, err := strconv.ParseFloat(string(lit.Data), 64)
		if err != nil {
			return at
		}
		c.Kind, c.Str = VNumber, neg+strconv.FormatFloat(f, 'f', -1, 64)
	case lit.TokenType == js.StringToken && neg == "":
		if c.Str, ok = jsfront.Quoted(lit.Data); !ok {
			return at
		}
		c.Kind = VString
	default:
		return at
	}
	return c
}

// enumMemberToks are where an enum member is in your text: its name's
// token, and its value's (-1 without one).
type enumMemberToks struct{ key, value int }

// enumMembers lists the members of the enum body opening at token open,
// in order; nil when it is not a list of `name` or `name = value`.
func enumMembers(m *File, open int) []enumMemberToks {
	if open < 0 {
		return nil
	}
	close := matching(m.toks, open)
	out := []enumMemberToks{}
	for j := open + 1; j < close; {
		if k := m.Tok(j); k.Kind != jsfront.TokIdent && k.Kind != jsfront.TokString {
			return nil
		}
		mt := enumMemberToks{key: j, value: -1}
		j++
		if m.isPunct(j, "=") {
			mt.value = j + 1
			j = skipExpr(m.toks, j+1)
		}
		out = append(out, mt)
		if m.isPunct(j, ",") {
			j++
		} else if j < close {
			return nil
		}
	}
	return out
}

// namespaceValue is the object of a TypeScript namespace: its exported
// consts (`N2.x = ...` written as `export const x = ...`); any other member
// makes it incomplete.
func (e *Reader) namespaceValue(m *File, b *Binding) *Value {
	close := matching(m.toks, b.At)
	v := &Value{Kind: VObject, File: m.path, Start: m.Tok(b.At).Start, End: m.Tok(close).End, Complete: true}
	var self *js.Var
	if len(b.fn.Params.List) == 1 {
		self, _ = b.fn.Params.List[0].Binding.(*js.Var)
	}
	for _, s := range b.fn.Body.List {
		switch n := s.(type) {
		case *js.VarDecl, *js.FuncDecl, *js.ClassDecl, *js.EmptyStmt:
			continue // its own bindings; an exported one is also assigned
		case *js.ExprStmt:
			if p := e.namespaceMember(m, n, self); p != nil {
				v.Props = append(v.Props, p)
				continue
			}
		}
		v.Complete = false // a function, a class, a nested namespace: not followed
	}
	return v
}

// namespaceMember is the member `N2.x = ...` sets when you wrote `export
// const x = ...`; nil for any other statement.
func (e *Reader) namespaceMember(m *File, n *js.ExprStmt, self *js.Var) *Prop {
	assign, ok := n.Value.(*js.BinaryExpr)
	if !ok || assign.Op != js.EqToken {
		return nil
	}
	d, ok := assign.X.(*js.DotExpr)
	if !ok || !isVar(d.X, self) {
		return nil
	}
	name, ok := d.Y.(js.LiteralExpr)
	if !ok {
		return nil
	}
	at, ok := m.Tree.Pos(name.Data)
	i := m.tokenAt(at)
	if !ok || m.Tok(i).Start != at || !m.isIdent(i-1, "const") || !m.isIdent(i-2, "export") {
		return nil
	}
	j := i + 1
	if m.isPunct(j, ":") {
		j = skipType(m.toks, j+1)
	}
	if !m.isPunct(j, "=") {
		return nil
	}
	k := m.Tok(i)
	val, _ := e.expr(m, assign.Y, j+1)
	return &Prop{Key: k.Text, File: m.path, Start: k.Start, End: k.End, Val: val}
}
