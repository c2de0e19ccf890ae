package jsvalue

import (
	"fmt"

	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// classes.go follows an instance (`new C()`) of a class of the module with
// no `extends` and no constructor: its fields initialised in place and its
// methods.

// classInstance is `new C()` of the class c of the module (its `class`
// keyword at token at) with no `extends` and no constructor: its fields
// initialised in place, and its methods (the tree's members; their
// positions and values in your text).
func (e *Reader) classInstance(m *File, name string, c *js.ClassDecl, at, start, end int) *Value {
	if c.Extends != nil {
		return unknown(m, start, end, fmt.Sprintf("an instance of `%s`, which extends another class", name))
	}
	cannot := unknown(m, start, end, fmt.Sprintf("an instance of `%s`, a class this inspector cannot read", name))
	for _, el := range c.List {
		if el.Method != nil && !el.Method.Static && string(el.Method.Name.Literal.Data) == "constructor" {
			return unknown(m, start, end, fmt.Sprintf("an instance of `%s`, whose constructor runs when the module loads", name))
		}
	}
	j := at + 1
	for j < len(m.toks) && !m.isPunct(j, "{") && m.Tok(j).Kind != jsfront.TokEOF {
		j++
	}
	close := matching(m.toks, j)
	v := &Value{Kind: VObject, File: m.path, Start: m.Tok(j).Start, End: m.Tok(close).End, Complete: true}
	// the methods are the prototype's, the fields the instance's own:
	// a field wins over a method of the same name, and only the fields
	// are enumerated (Object.keys, a spread)
	var methods []*Prop
	for _, el := range c.List {
		switch {
		case el.StaticBlock != nil:
			return cannot
		case el.Method != nil && (el.Method.Static || el.Method.Name.Private != nil):
		case el.Method != nil:
			k, ok := m.keyTok(el.Method.Name)
			if !ok {
				return cannot
			}
			key := m.Tok(k)
			val, _ := e.functionExpr(m, k, key.Start)
			if el.Method.Get || el.Method.Set {
				val = &Value{Kind: VUnknown, File: m.path, Start: key.Start, End: val.End, Why: "a getter: computed when read", Accessor: true}
			}
			methods = append(methods, &Prop{Key: key.Text, File: m.path, Start: key.Start, End: key.End, Val: val, inherited: true})
		case el.Field.Static || el.Field.Name.Private != nil:
		default:
			k, ok := m.keyTok(el.Field.Name)
			if !ok {
				return cannot
			}
			key := m.Tok(k)
			val := &Value{Kind: VUndefined, File: m.path, Start: key.Start, End: key.End}
			i := k + 1
			if m.isPunct(i, "?") || m.isPunct(i, "!") {
				i++
			}
			if m.isPunct(i, ":") {
				i = skipFieldType(m.toks, i+1)
			}
			if el.Field.Init != nil && m.isPunct(i, "=") {
				val, _ = e.expr(m, el.Field.Init, i+1)
			}
			v.Props = append(v.Props, &Prop{Key: key.Text, File: m.path, Start: key.Start, End: key.End, Val: val})
		}
	}
	v.Props = append(methods, v.Props...)
	return v
}

// keyTok is the token of a class member's name in your text; false for a
// computed name or one the text does not have there.
func (m *File) keyTok(n js.ClassElementName) (int, bool) {
	if n.Computed != nil || len(n.Literal.Data) == 0 {
		return 0, false
	}
	at, ok := m.Tree.Pos(n.Literal.Data)
	if !ok {
		return 0, false
	}
	k := m.tokenAt(at)
	t := m.Tok(k)
	return k, t.Start == at && (t.Kind == jsfront.TokIdent || t.Kind == jsfront.TokString)
}
