package jsvalue

import (
	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// literals.go evaluates object and array literals of the syntax tree,
// each property and element at its place in your text.

// object is the object literal n at token i (its `{`): each property
// the tree has, read in order in your text.
func (e *Reader) object(m *File, n *js.ObjectExpr, i int) (*Value, int) {
	end := matching(m.toks, i)
	v := &Value{Kind: VObject, File: m.path, Start: m.Tok(i).Start, End: m.Tok(end).End, Complete: true}
	j := i + 1
	for _, p := range n.List {
		for m.isPunct(j, ",") {
			j++
		}
		t := m.Tok(j)
		if p.Spread {
			if !m.isPunct(j, "...") {
				return unknown(m, v.Start, v.End, "an object this inspector cannot read"), end + 1
			}
			s, next := e.expr(m, p.Value, j+1)
			if tooLargeAmong([]*Value{s}) {
				return unknown(m, v.Start, v.End, tooLarge), end + 1
			}
			switch s.Kind {
			case VObject:
				if !e.fits(len(s.Props)) {
					return unknown(m, v.Start, v.End, tooLarge), end + 1
				}
				for _, p := range s.Props {
					if !p.inherited { // a spread copies own properties
						v.Props = append(v.Props, p)
					}
				}
				v.Complete = v.Complete && s.Complete
			case VNull, VUndefined, VBool, VNumber:
			case VString, VArray:
				v.Complete = false // index keys; not a schema
			default:
				v.Complete = false
				v.Props = append(v.Props, &Prop{Key: "", File: m.path, Start: t.Start, End: m.Tok(next - 1).End, Val: s})
			}
			j = next
			continue
		}
		// modifiers
		accessor := false
		for {
			k := m.Tok(j)
			n := m.Tok(j + 1)
			if k.Kind == jsfront.TokIdent && (k.Text == "async" || k.Text == "get" || k.Text == "set" || k.Text == "static") &&
				!(n.Kind == jsfront.TokPunct && (n.Text == "(" || n.Text == ":" || n.Text == "," || n.Text == "}" || n.Text == "<")) {
				if k.Text == "get" || k.Text == "set" {
					accessor = true
				}
				j++
				continue
			}
			if k.Kind == jsfront.TokPunct && k.Text == "*" {
				j++
				continue
			}
			break
		}
		k := m.Tok(j)
		var key string
		keyKnown := true
		keyStart, keyEnd := k.Start, k.End
		switch k.Kind {
		case jsfront.TokIdent, jsfront.TokString, jsfront.TokPrivate:
			key = k.Text
			j++
		case jsfront.TokNumber: // the key is the number's string: 0x10 is "16"
			key, keyKnown = jsonNumber(k.Text)
			j++
		case jsfront.TokPunct:
			if k.Text == "[" {
				kend := matching(m.toks, j)
				var computedKey js.IExpr
				if p.Name != nil {
					computedKey = p.Name.Computed
				}
				kv, _ := e.expr(m, computedKey, j+1)
				switch kv.Kind {
				case VString:
					key = kv.Str
				case VNumber:
					key, keyKnown = jsonNumber(kv.Str)
				default:
					keyKnown = false
				}
				keyEnd = m.Tok(kend).End
				j = kend + 1
				break
			}
			// not an object literal this reader understands
			return unknown(m, v.Start, v.End, "an object this inspector cannot read"), end + 1
		default:
			return unknown(m, v.Start, v.End, "an object this inspector cannot read"), end + 1
		}
		if m.isPunct(j, "?") { // TypeScript optional method
			j++
		}
		var val *Value
		colon := false // `key: value`
		_, isMethod := p.Value.(*js.MethodDecl)
		switch n := m.Tok(j); {
		case isMethod && n.Kind == jsfront.TokPunct && (n.Text == "(" || n.Text == "<"):
			fv, next := e.functionExpr(m, j-1, keyStart)
			val, j = fv, next
			if accessor {
				val = &Value{Kind: VUnknown, File: m.path, Start: keyStart, End: fv.End, Why: "a getter: computed when read", Accessor: true}
			}
		case n.Kind == jsfront.TokPunct && n.Text == ":":
			colon = true
			val, j = e.expr(m, p.Value, j+1)
		case n.Kind == jsfront.TokPunct && (n.Text == "," || n.Text == "}"):
			val = e.ref(m, key, keyStart, keyEnd)
		default:
			return unknown(m, v.Start, v.End, "an object this inspector cannot read"), end + 1
		}
		if j < end && !m.isPunct(j, ",") {
			return unknown(m, v.Start, v.End, "an object this inspector cannot read"), end + 1
		}
		if !keyKnown || key == "__proto__" && (k.Kind == jsfront.TokIdent || k.Kind == jsfront.TokString) && colon {
			// `__proto__: x` sets the prototype: its keys are read through it
			v.Complete = false
			continue
		}
		v.Props = append(v.Props, &Prop{Key: key, File: m.path, Start: keyStart, End: keyEnd, Val: val})
	}
	for m.isPunct(j, ",") {
		j++
	}
	if j != end {
		return unknown(m, v.Start, v.End, "an object this inspector cannot read"), end + 1
	}
	return v, end + 1
}

// array is the array literal n at token i (its `[`): each element the
// tree has, read in order in your text.
func (e *Reader) array(m *File, n *js.ArrayExpr, i int) (*Value, int) {
	end := matching(m.toks, i)
	v := &Value{Kind: VArray, File: m.path, Start: m.Tok(i).Start, End: m.Tok(end).End, Complete: true}
	j := i + 1
	for _, el := range n.List {
		if el.Value == nil {
			if !m.isPunct(j, ",") {
				return unknown(m, v.Start, v.End, "an array this inspector cannot read"), end + 1
			}
			v.Complete = false // a hole
			j++
			continue
		}
		if el.Spread {
			if !m.isPunct(j, "...") {
				return unknown(m, v.Start, v.End, "an array this inspector cannot read"), end + 1
			}
			s, next := e.expr(m, el.Value, j+1)
			if tooLargeAmong([]*Value{s}) || s.Kind == VArray && !e.fits(len(s.Items)) {
				return unknown(m, v.Start, v.End, tooLarge), end + 1
			}
			if s.Kind == VArray {
				v.Items = append(v.Items, s.Items...)
				v.Complete = v.Complete && s.Complete
			} else {
				v.Complete = false
			}
			j = next
		} else {
			it, next := e.expr(m, el.Value, j)
			v.Items = append(v.Items, it)
			j = next
		}
		if j < end && !m.isPunct(j, ",") {
			return unknown(m, v.Start, v.End, "an array this inspector cannot read"), end + 1
		}
		j++
	}
	if j < end {
		return unknown(m, v.Start, v.End, "an array this inspector cannot read"), end + 1
	}
	return v, end + 1
}
