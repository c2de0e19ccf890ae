package tsinspect

import (
	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// evalobject.go evaluates object and array literals of the syntax tree,
// each property and element at its place in your text.

// object is the object literal n at token i (its `{`): each property
// the tree has, read in order in your text.
func (e *evaluator) object(m *modFile, n *js.ObjectExpr, i int) (*value, int) {
	end := matching(m.toks, i)
	v := &value{kind: vObject, file: m.path, start: m.tok(i).Start, end: m.tok(end).End, complete: true}
	j := i + 1
	for _, p := range n.List {
		for m.isPunct(j, ",") {
			j++
		}
		t := m.tok(j)
		if p.Spread {
			if !m.isPunct(j, "...") {
				return unknown(m, v.start, v.end, "an object this inspector cannot read"), end + 1
			}
			s, next := e.expr(m, p.Value, j+1)
			if tooLargeAmong([]*value{s}) {
				return unknown(m, v.start, v.end, tooLarge), end + 1
			}
			switch s.kind {
			case vObject:
				if !e.fits(len(s.props)) {
					return unknown(m, v.start, v.end, tooLarge), end + 1
				}
				for _, p := range s.props {
					if !p.inherited { // a spread copies own properties
						v.props = append(v.props, p)
					}
				}
				v.complete = v.complete && s.complete
			case vNull, vUndefined, vBool, vNumber:
			case vString, vArray:
				v.complete = false // index keys; not a schema
			default:
				v.complete = false
				v.props = append(v.props, &prop{key: "", file: m.path, start: t.Start, end: m.tok(next - 1).End, val: s})
			}
			j = next
			continue
		}
		// modifiers
		accessor := false
		for {
			k := m.tok(j)
			n := m.tok(j + 1)
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
		k := m.tok(j)
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
				switch kv.kind {
				case vString:
					key = kv.str
				case vNumber:
					key, keyKnown = jsonNumber(kv.str)
				default:
					keyKnown = false
				}
				keyEnd = m.tok(kend).End
				j = kend + 1
				break
			}
			// not an object literal this reader understands
			return unknown(m, v.start, v.end, "an object this inspector cannot read"), end + 1
		default:
			return unknown(m, v.start, v.end, "an object this inspector cannot read"), end + 1
		}
		if m.isPunct(j, "?") { // TypeScript optional method
			j++
		}
		var val *value
		colon := false // `key: value`
		_, isMethod := p.Value.(*js.MethodDecl)
		switch n := m.tok(j); {
		case isMethod && n.Kind == jsfront.TokPunct && (n.Text == "(" || n.Text == "<"):
			fv, next := e.functionExpr(m, j-1, keyStart)
			val, j = fv, next
			if accessor {
				val = &value{kind: vUnknown, file: m.path, start: keyStart, end: fv.end, why: "a getter: computed when read", accessor: true}
			}
		case n.Kind == jsfront.TokPunct && n.Text == ":":
			colon = true
			val, j = e.expr(m, p.Value, j+1)
		case n.Kind == jsfront.TokPunct && (n.Text == "," || n.Text == "}"):
			val = e.ref(m, key, keyStart, keyEnd)
		default:
			return unknown(m, v.start, v.end, "an object this inspector cannot read"), end + 1
		}
		if j < end && !m.isPunct(j, ",") {
			return unknown(m, v.start, v.end, "an object this inspector cannot read"), end + 1
		}
		if !keyKnown || key == "__proto__" && (k.Kind == jsfront.TokIdent || k.Kind == jsfront.TokString) && colon {
			// `__proto__: x` sets the prototype: its keys are read through it
			v.complete = false
			continue
		}
		v.props = append(v.props, &prop{key: key, file: m.path, start: keyStart, end: keyEnd, val: val})
	}
	for m.isPunct(j, ",") {
		j++
	}
	if j != end {
		return unknown(m, v.start, v.end, "an object this inspector cannot read"), end + 1
	}
	return v, end + 1
}

// array is the array literal n at token i (its `[`): each element the
// tree has, read in order in your text.
func (e *evaluator) array(m *modFile, n *js.ArrayExpr, i int) (*value, int) {
	end := matching(m.toks, i)
	v := &value{kind: vArray, file: m.path, start: m.tok(i).Start, end: m.tok(end).End, complete: true}
	j := i + 1
	for _, el := range n.List {
		if el.Value == nil {
			if !m.isPunct(j, ",") {
				return unknown(m, v.start, v.end, "an array this inspector cannot read"), end + 1
			}
			v.complete = false // a hole
			j++
			continue
		}
		if el.Spread {
			if !m.isPunct(j, "...") {
				return unknown(m, v.start, v.end, "an array this inspector cannot read"), end + 1
			}
			s, next := e.expr(m, el.Value, j+1)
			if tooLargeAmong([]*value{s}) || s.kind == vArray && !e.fits(len(s.items)) {
				return unknown(m, v.start, v.end, tooLarge), end + 1
			}
			if s.kind == vArray {
				v.items = append(v.items, s.items...)
				v.complete = v.complete && s.complete
			} else {
				v.complete = false
			}
			j = next
		} else {
			it, next := e.expr(m, el.Value, j)
			v.items = append(v.items, it)
			j = next
		}
		if j < end && !m.isPunct(j, ",") {
			return unknown(m, v.start, v.end, "an array this inspector cannot read"), end + 1
		}
		j++
	}
	if j < end {
		return unknown(m, v.start, v.end, "an array this inspector cannot read"), end + 1
	}
	return v, end + 1
}
