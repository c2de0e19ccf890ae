package jsvalue

import (
	"bytes"
	"fmt"

	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// writes.go finds the writes to an object after it is built: a member
// assigned (`tool.parameters = ...`, `T.prototype.execute = ...`,
// `props.b.type = ...`, `++o.n`), deleted, set by `Object.assign`,
// `Object.defineProperty` and their kin, or an array changed in place
// (`req.push('b')`). Anywhere in the module: a binding so written is not
// known statically (the reader follows values as they are built, not as
// code changes them later), and neither is a CommonJS `module.exports = ...`
// that `exports.x = ...` or `Object.assign(module.exports, ...)` changes
// afterwards. The one change followed: statements `x.k = value` of the top
// level (`module.exports.k = value`), applied in order to the object built
// above them.

// inPlace are the array methods that change the array they are called on.
var inPlace = map[string]bool{
	"push": true, "pop": true, "shift": true, "unshift": true, "splice": true,
	"sort": true, "reverse": true, "fill": true, "copyWithin": true,
}

// changers are the functions that change their first argument.
var changers = map[string]map[string]bool{
	"Object":  {"assign": true, "defineProperty": true, "defineProperties": true, "setPrototypeOf": true},
	"Reflect": {"set": true, "defineProperty": true, "deleteProperty": true, "setPrototypeOf": true},
}

// noteWrite records the write n makes to an object, if it makes one.
func (m *File) noteWrite(n js.INode) {
	switch n := n.(type) {
	case *js.BinaryExpr:
		if isAssignment(n.Op) {
			m.memberTarget(n.X)
		}
	case *js.UnaryExpr:
		switch n.Op {
		case js.PreIncrToken, js.PreDecrToken, js.PostIncrToken, js.PostDecrToken, js.DeleteToken:
			m.memberTarget(n.X)
		}
	case *js.ForInStmt:
		m.memberTarget(n.Init)
	case *js.ForOfStmt:
		m.memberTarget(n.Init)
	case *js.CallExpr:
		d, ok := n.X.(*js.DotExpr)
		if !ok {
			return
		}
		name, ok := d.Y.(js.LiteralExpr)
		if !ok {
			return
		}
		if inPlace[string(name.Data)] {
			m.changed(d.X)
		}
		if g, ok := d.X.(*js.Var); ok && len(n.Args.List) > 0 && changers[string(jsfront.Root(g).Data)][string(name.Data)] && jsfront.Root(g).Decl == js.NoDecl {
			m.changed(n.Args.List[0].Value)
		}
	}
}

// memberTarget records an assignment's target that is a member, or the
// members of a destructuring pattern.
func (m *File) memberTarget(x js.INode) {
	switch x := x.(type) {
	case *js.DotExpr, *js.IndexExpr:
		m.changed(x.(js.IExpr))
	case *js.ArrayExpr, *js.ObjectExpr:
		js.Walk(jsfront.NodeVisitor(func(n js.INode) {
			switch n.(type) {
			case *js.DotExpr, *js.IndexExpr:
				m.changed(n.(js.IExpr))
			}
		}), x)
	}
}

// changed records that the object x (a name, or a member chain from one)
// is changed: its binding's first change, by offset in the text.
func (m *File) changed(x js.IExpr) {
	for !isExportsRef(x) {
		switch y := x.(type) {
		case *js.DotExpr:
			x = y.X
			continue
		case *js.IndexExpr:
			x = y.X
			continue
		case *js.GroupExpr:
			x = y.X
			continue
		}
		break
	}
	if isExportsRef(x) {
		m.cjsWrites = append(m.cjsWrites, exportsMemberAt(m.Tree, x))
		return
	}
	v, ok := x.(*js.Var)
	if !ok {
		return
	}
	at, ok := m.Tree.Pos(v.Data)
	if !ok {
		at = 0
	}
	r := jsfront.Root(v)
	if r.Decl == js.NoDecl { // a global, or an import's binding (undeclared on the tree)
		if old, seen := m.writtenFree[string(r.Data)]; !seen || at < old {
			m.writtenFree[string(r.Data)] = at
		}
		return
	}
	if old, seen := m.written[r]; !seen || at < old {
		m.written[r] = at
	}
	m.writes[r]++
}

// topSets collects the writes `x.k = value` that are statements of the
// module's top level, by Binding, in the order they run.
func (m *File) topSets() {
	for _, b := range topMemberSets(m.Tree.AST) {
		if v, ok := b.X.(*js.DotExpr).X.(*js.Var); ok && jsfront.Root(v).Decl != js.NoDecl {
			m.sets[jsfront.Root(v)] = append(m.sets[jsfront.Root(v)], b)
		}
	}
}

// topMemberSets returns the statements `x.k = value` of the top level of
// ast (each one's X is a *js.DotExpr), in the order they run.
func topMemberSets(ast *js.AST) []*js.BinaryExpr {
	var out []*js.BinaryExpr
	for _, s := range ast.List {
		es, ok := s.(*js.ExprStmt)
		if !ok {
			continue
		}
		if b, ok := es.Value.(*js.BinaryExpr); ok && b.Op == js.EqToken {
			if _, ok := b.X.(*js.DotExpr); ok {
				out = append(out, b)
			}
		}
	}
	return out
}

// followed reports whether every change of the const or let v is a
// statement `v.k = value` of the top level below its declaration, with no
// other read of v between the declaration and the last of them (which
// would see the object before the change): the reader then applies them
// in order (setsOn).
func (m *File) followed(v *js.Var) bool {
	ok, known := m.follows[v]
	if !known {
		ok = m.follow(v)
		m.follows[v] = ok
	}
	return ok
}

func (m *File) follow(v *js.Var) bool {
	sets := m.sets[v]
	b := m.Binds[v]
	if len(sets) == 0 || len(sets) != m.writes[v] || b == nil || (b.Kind != BindConst && b.Kind != BindLet) {
		return false
	}
	decl := m.nameTok(v)
	if decl < 0 {
		return false
	}
	targets := map[int]bool{}
	last := -1
	for _, s := range sets {
		at, ok := m.Tree.Pos(s.X.(*js.DotExpr).X.(*js.Var).Data)
		if !ok || at < m.Tok(decl).Start {
			return false
		}
		targets[at] = true
		last = max(last, at)
	}
	for at, r := range m.reads {
		if r == v && at > m.Tok(decl).Start && at < last && !targets[at] {
			return false
		}
	}
	return true
}

// setsOn is the object val of v with the top-level writes to it applied
// in order (followed), a copy: val itself is the declaration's.
func (e *Reader) setsOn(m *File, v *js.Var, val *Value) *Value {
	if val.Kind != VObject {
		return unknown(m, val.Start, val.End, m.changedWhy(v))
	}
	out := &Value{Kind: VObject, File: val.File, Start: val.Start, End: val.End, Complete: val.Complete}
	out.Props = append(out.Props, val.Props...)
	for _, s := range m.sets[v] {
		if p := e.cjsMember(m, s.X.(*js.DotExpr), s.Y, true); p != nil {
			out.Props = append(out.Props, p)
		} else {
			out.Complete = false
		}
	}
	return out
}

// importChangedWhy is why the import's binding name, whose object this
// module changes, is not known; "" when the module does not change it.
func (m *File) importChangedWhy(name string) string {
	at, ok := m.writtenFree[name]
	if !ok {
		return ""
	}
	return fmt.Sprintf("`%s` is imported and changed here (%s): its value is known only when the module runs", name, m.writeAt(at))
}

// changedWhy is why the binding v, changed after it is built, is not
// known; "" when nothing changes it.
func (m *File) changedWhy(v *js.Var) string {
	at, ok := m.written[v]
	if !ok || m.followed(v) {
		return ""
	}
	return fmt.Sprintf("`%s` is changed after it is built (%s): its value is known only when the module runs", v.Data, m.writeAt(at))
}

// writeAt names the write at offset at: its line and its text.
func (m *File) writeAt(at int) string {
	start := bytes.LastIndexByte(m.Src[:at], '\n') + 1
	end := start
	for end < len(m.Src) && m.Src[end] != '\n' && end-start < 40 {
		end++
	}
	text := string(bytes.TrimSpace(m.Src[start:end]))
	if end < len(m.Src) && m.Src[end] != '\n' {
		text += "…"
	}
	return fmt.Sprintf("`%s` at line %d", text, bytes.Count(m.Src[:at], []byte("\n"))+1)
}
