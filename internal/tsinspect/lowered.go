package tsinspect

import (
	"fmt"
	"strconv"

	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// lowered.go reads TypeScript's enums and namespaces in the form esbuild
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
func (e *evaluator) enumValue(m *modFile, name string, b *binding, start, end int) *value {
	cannot := func(why string) *value {
		return unknown(m, start, end, fmt.Sprintf("the enum `%s` %s", name, why))
	}
	members := enumMembers(m, b.at)
	if len(b.fn.Params.List) != 1 || members == nil {
		return cannot("has members this inspector cannot read")
	}
	self, _ := b.fn.Params.List[0].Binding.(*js.Var)
	close := matching(m.toks, b.at)
	v := &value{kind: vObject, file: m.path, start: m.tok(b.at).Start, end: m.tok(close).End, complete: true}
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
		kt := m.tok(mt.key)
		val := &value{kind: vUnknown, file: m.path, start: kt.Start, end: kt.End}
		if mt.value >= 0 {
			val, _ = e.expr(m, init, mt.value)
		}
		if val.kind != vNumber && val.kind != vString {
			// what TypeScript folds (`1 << 2`, `A | B`, `'a' + 'b'`),
			// esbuild has folded
			val = enumConstant(init, val)
		}
		if val.kind != vNumber && val.kind != vString {
			return cannot("has a member computed when the module runs")
		}
		v.props = append(v.props, &prop{key: key, file: m.path, start: kt.Start, end: kt.End, val: val})
		if !numeric {
			continue
		}
		reverse, ok := jsString(val)
		if !ok {
			return cannot("has a member computed when the module runs")
		}
		v.props = append(v.props, &prop{key: reverse, file: m.path, start: kt.Start, end: kt.End,
			val: &value{kind: vString, file: m.path, start: kt.Start, end: kt.End, str: key}})
	}
	if k != len(members) {
		return cannot("has members this inspector cannot read")
	}
	v.props = jsKeyOrder(v.props)
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
func enumConstant(x js.IExpr, at *value) *value {
	neg := ""
	if u, ok := x.(*js.UnaryExpr); ok && u.Op == js.NegToken {
		neg, x = "-", u.X
	}
	lit, ok := x.(*js.LiteralExpr)
	if !ok {
		return at
	}
	c := &value{file: at.file, start: at.start, end: at.end}
	switch {
	case js.IsNumeric(lit.TokenType):
		f, err := strconv.ParseFloat(string(lit.Data), 64)
		if err != nil {
			return at
		}
		c.kind, c.str = vNumber, neg+strconv.FormatFloat(f, 'f', -1, 64)
	case lit.TokenType == js.StringToken && neg == "":
		if c.str, ok = jsfront.Quoted(lit.Data); !ok {
			return at
		}
		c.kind = vString
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
func enumMembers(m *modFile, open int) []enumMemberToks {
	if open < 0 {
		return nil
	}
	close := matching(m.toks, open)
	out := []enumMemberToks{}
	for j := open + 1; j < close; {
		if k := m.tok(j); k.Kind != jsfront.TokIdent && k.Kind != jsfront.TokString {
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
func (e *evaluator) namespaceValue(m *modFile, b *binding) *value {
	close := matching(m.toks, b.at)
	v := &value{kind: vObject, file: m.path, start: m.tok(b.at).Start, end: m.tok(close).End, complete: true}
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
				v.props = append(v.props, p)
				continue
			}
		}
		v.complete = false // a function, a class, a nested namespace: not followed
	}
	return v
}

// namespaceMember is the member `N2.x = ...` sets when you wrote `export
// const x = ...`; nil for any other statement.
func (e *evaluator) namespaceMember(m *modFile, n *js.ExprStmt, self *js.Var) *prop {
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
	at, ok := m.tree.Pos(name.Data)
	i := m.tokenAt(at)
	if !ok || m.tok(i).Start != at || !m.isIdent(i-1, "const") || !m.isIdent(i-2, "export") {
		return nil
	}
	j := i + 1
	if m.isPunct(j, ":") {
		j = skipType(m.toks, j+1)
	}
	if !m.isPunct(j, "=") {
		return nil
	}
	k := m.tok(i)
	val, _ := e.expr(m, assign.Y, j+1)
	return &prop{key: k.Text, file: m.path, start: k.Start, end: k.End, val: val}
}
