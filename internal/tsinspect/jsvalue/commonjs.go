package jsvalue

import (
	"fmt"

	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// commonjs.go follows a CommonJS module's exports: `module.exports = {...}`,
// or `exports.x = ...` and `module.exports.x = ...` in statements of the top
// level, and the writes to `module.exports` after it is set.

// cjsExports is module.exports of a CommonJS module that sets it field by
// field in statements of its top level (`exports.x = ...`,
// `module.exports.x = ...`), read on the tree, each value in your text. A
// write by a computed key or in a nested block or function, and `exports`
// passed to a function (Object.assign, defineProperty), make it
// incomplete.
func (e *Reader) cjsExports(m *File) *Value {
	t := m.Tok(m.CJSPartial)
	v := &Value{Kind: VObject, File: m.path, Start: t.Start, End: t.End, Complete: true}
	top := map[*js.BinaryExpr]bool{}
	for _, s := range m.Tree.AST.List {
		if es, ok := s.(*js.ExprStmt); ok {
			if b, ok := es.Value.(*js.BinaryExpr); ok && b.Op == js.EqToken {
				top[b] = true
			}
		}
	}
	js.Walk(jsfront.NodeVisitor(func(n js.INode) {
		switch n := n.(type) {
		case *js.BinaryExpr:
			if !isAssignment(n.Op) {
				return
			}
			if ix, ok := n.X.(*js.IndexExpr); ok && isExportsRef(ix.X) {
				v.Complete = false
			}
			if d, ok := n.X.(*js.DotExpr); ok && isExportsRef(d.X) {
				if p := e.cjsMember(m, d, n.Y, top[n]); p != nil {
					v.Props = append(v.Props, p)
				} else {
					v.Complete = false
				}
			}
		case *js.CallExpr:
			for _, a := range n.Args.List {
				if isExportsRef(a.Value) {
					v.Complete = false
				}
			}
		}
	}), m.Tree.AST)
	return v
}

// cjsMember is the field `exports.x = value` sets, when the statement is
// of the module's top level; nil otherwise.
func (e *Reader) cjsMember(m *File, d *js.DotExpr, value js.IExpr, top bool) *Prop {
	name, ok := d.Y.(js.LiteralExpr)
	if !ok || !top {
		return nil
	}
	at, ok := m.Tree.Pos(name.Data)
	k := m.tokenAt(at)
	if !ok || m.Tok(k).Start != at || !m.isPunct(k+1, "=") {
		return nil
	}
	key := m.Tok(k)
	val, _ := e.expr(m, value, k+2)
	return &Prop{Key: key.Text, File: m.path, Start: key.Start, End: key.End, Val: val}
}

// isExportsRef reports whether x is `exports` or `module.exports`.
func isExportsRef(x js.IExpr) bool {
	switch x := x.(type) {
	case *js.Var:
		return jsfront.FreeName(x, "exports")
	case *js.DotExpr:
		return isModuleExports(x)
	}
	return false
}

// cjsAfter is module.exports set to v by the statement at byte from, with
// the changes below it applied: each must be a statement
// `module.exports.k = value` of the top level, applied in order; otherwise
// (or when v is not an object) not known.
func (e *Reader) cjsAfter(m *File, v *Value, from int) *Value {
	sets := map[int]*js.BinaryExpr{}
	var order []*js.BinaryExpr
	for _, b := range topMemberSets(m.Tree.AST) {
		if me, ok := b.X.(*js.DotExpr).X.(*js.DotExpr); ok && isModuleExports(me) {
			if at := exportsMemberAt(m.Tree, me); at > from {
				sets[at] = b
				order = append(order, b)
			}
		}
	}
	first := -1
	for _, at := range m.cjsWrites {
		if at > from && sets[at] == nil && (first < 0 || at < first) {
			first = at
		}
	}
	if first >= 0 || v.Kind != VObject {
		if first < 0 {
			first = m.cjsWrites[len(m.cjsWrites)-1]
		}
		t := m.Tok(m.tokenAt(from))
		return unknown(m, t.Start, t.End, fmt.Sprintf("module.exports is changed after it is set (%s): its value is known only when the module runs", m.writeAt(first)))
	}
	out := &Value{Kind: VObject, File: v.File, Start: v.Start, End: v.End, Complete: v.Complete}
	out.Props = append(out.Props, v.Props...)
	for _, b := range order {
		if p := e.cjsMember(m, b.X.(*js.DotExpr), b.Y, true); p != nil {
			out.Props = append(out.Props, p)
		} else {
			out.Complete = false
		}
	}
	return out
}
