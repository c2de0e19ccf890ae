package jsvalue

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// eval_values.go follows the values a careful reader sees beyond literals:
// an instance of a
// class of the module whose fields are initialised in place, template
// literals and `+` over known strings, `Object.freeze`, `Object.keys`,
// `Object.values`, `[...].join()`, and array elements by index.

// jsKeyOrder orders properties as JavaScript enumerates them: integer keys
// ascending first, then the others in the order they were added.
func jsKeyOrder(props []*Prop) []*Prop {
	var ints, others []*Prop
	for _, p := range props {
		if n, err := strconv.ParseUint(p.Key, 10, 32); err == nil && strconv.FormatUint(n, 10) == p.Key {
			ints = append(ints, p)
		} else {
			others = append(others, p)
		}
	}
	sort.SliceStable(ints, func(i, j int) bool {
		a, b := ints[i].Key, ints[j].Key
		return len(a) < len(b) || len(a) == len(b) && a < b // canonical: no leading zeros
	})
	return append(ints, others...)
}

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

// substRE matches a substitution that names a binding or a property chain.
var substRE = regexp.MustCompile(`^\s*([A-Za-z_$][\w$]*)((?:\s*\.\s*[A-Za-z_$][\w$]*)*)\s*$`)

// templateValue is a template literal whose substitutions are known
// strings, numbers or booleans; its text parts must be free of escapes.
func (e *Reader) templateValue(m *File, t jsfront.Token) *Value {
	raw := string(m.Src[t.Start+1 : t.End-1])
	var b strings.Builder
	for raw != "" {
		i := strings.Index(raw, "${")
		lit := raw
		if i >= 0 {
			lit = raw[:i]
		}
		cooked, ok := cookTemplate(lit)
		if !ok {
			return unknown(m, t.Start, t.End, "a template literal with an escape this inspector does not read")
		}
		b.WriteString(cooked)
		if i < 0 {
			break
		}
		rest := raw[i+2:]
		close := strings.IndexByte(rest, '}')
		if close < 0 {
			return unknown(m, t.Start, t.End, "a template literal with substitutions")
		}
		sm := substRE.FindStringSubmatch(rest[:close])
		if sm == nil {
			return unknown(m, t.Start, t.End, "a template literal with substitutions computed when the module runs")
		}
		at := t.Start + 1 + i + 2 + strings.Index(rest[:close], sm[1])
		v := e.ref(m, sm[1], at, at+len(sm[1]))
		for _, name := range strings.Split(sm[2], ".")[1:] {
			v = e.member(m, v, strings.TrimSpace(name), at, at+len(rest[:close]))
		}
		s, ok := jsString(v)
		if tooLargeAmong([]*Value{v}) {
			return unknown(m, t.Start, t.End, tooLarge)
		}
		if !ok {
			return unknown(m, t.Start, t.End, fmt.Sprintf("a template literal whose substitution `${%s}` is computed when the module runs", strings.TrimSpace(rest[:close])))
		}
		if !e.fits(len(s)) {
			return unknown(m, t.Start, t.End, tooLarge)
		}
		b.WriteString(s)
		raw = rest[close+1:]
	}
	return &Value{Kind: VString, File: m.path, Start: t.Start, End: t.End, Str: b.String()}
}

// cookTemplate gives the value of a template's text part: line ends
// normalised, the simple escapes decoded (others: ok false).
func cookTemplate(raw string) (string, bool) {
	raw = strings.ReplaceAll(strings.ReplaceAll(raw, "\r\n", "\n"), "\r", "\n")
	if !strings.ContainsRune(raw, '\\') {
		return raw, true
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			b.WriteByte(raw[i])
			continue
		}
		i++
		if i == len(raw) {
			return "", false
		}
		switch c := raw[i]; c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '\\', '`', '$', '\'', '"':
			b.WriteByte(c)
		case '\n': // a line continuation
		default:
			return "", false
		}
	}
	return b.String(), true
}

// jsString converts a known primitive as String(v) does.
func jsString(v *Value) (string, bool) {
	switch v.Kind {
	case VString:
		return v.Str, true
	case VBool:
		return v.Str, true
	case VNull:
		return "null", true
	case VUndefined:
		return "undefined", true
	case VNumber:
		n, ok := jsonNumber(v.Str)
		return n, ok
	}
	return "", false
}

// concat folds `a + b + ...` of known strings and numbers left to right,
// as JavaScript does (numbers add until a string is met); ok is false when
// a term is not known.
func concat(terms []*Value) (*Value, bool) {
	acc := terms[0]
	i := 1
	for ; i < len(terms) && acc.Kind != VString; i++ {
		t := terms[i]
		switch {
		case acc.Kind == VNumber && t.Kind == VNumber:
			a, err1 := strconv.ParseFloat(strings.ReplaceAll(acc.Str, "_", ""), 64)
			b, err2 := strconv.ParseFloat(strings.ReplaceAll(t.Str, "_", ""), 64)
			if err1 != nil || err2 != nil {
				return nil, false
			}
			acc = &Value{Kind: VNumber, Str: strconv.FormatFloat(a+b, 'g', -1, 64)}
		case t.Kind == VString:
			x, ok := jsString(acc)
			if !ok {
				return nil, false
			}
			acc = &Value{Kind: VString, Str: x + t.Str}
		default:
			return nil, false
		}
	}
	if i == len(terms) {
		return acc, true
	}
	// a string from here on: one builder, linear in the result
	var b strings.Builder
	b.WriteString(acc.Str)
	for _, t := range terms[i:] {
		s, ok := jsString(t)
		if !ok {
			return nil, false
		}
		b.WriteString(s)
	}
	return &Value{Kind: VString, Str: b.String()}, true
}

// builtinCall is the value of a call of a standard function on known
// values, or nil: `Object.freeze(x)` is x; `Object.keys(o)` and
// `Object.values(o)` of a known object; `a.join(sep)` of a known array.
func (e *Reader) builtinCall(m *File, start int, callee string, recv *Value, method string, args []*Value) *Value {
	if strings.HasPrefix(callee, "Object.") && m.Global(start, "Object") && len(args) == 1 {
		a := args[0]
		switch callee {
		case "Object.freeze", "Object.seal", "Object.preventExtensions":
			return a
		case "Object.keys", "Object.values":
			if a.Kind != VObject || !a.Complete {
				return nil
			}
			if !e.fits(len(a.Props)) {
				return unknown(m, a.Start, a.End, tooLarge)
			}
			out := &Value{Kind: VArray, File: a.File, Start: a.Start, End: a.End, Complete: true}
			// a key repeated keeps its first place and takes its last value
			at := map[string]int{}
			var props []*Prop
			for _, p := range a.Props {
				if p.inherited {
					continue
				}
				if k, ok := at[p.Key]; ok {
					props[k] = &Prop{Key: p.Key, File: props[k].File, Start: props[k].Start, End: props[k].End, Val: p.Val}
					continue
				}
				at[p.Key] = len(props)
				props = append(props, p)
			}
			for _, p := range jsKeyOrder(props) {
				if callee == "Object.keys" {
					out.Items = append(out.Items, &Value{Kind: VString, File: p.File, Start: p.Start, End: p.End, Str: p.Key})
				} else {
					out.Items = append(out.Items, p.Val)
				}
			}
			return out
		}
	}
	if recv != nil && recv.Kind == VArray && recv.Complete && method == "join" && len(args) <= 1 {
		sep := ","
		if len(args) == 1 {
			if args[0].Kind != VString {
				return nil
			}
			sep = args[0].Str
		}
		parts := make([]string, len(recv.Items))
		size := len(sep) * len(recv.Items)
		for i, it := range recv.Items {
			if it.Kind == VNull || it.Kind == VUndefined {
				continue // join writes nothing for them
			}
			s, ok := jsString(it)
			if !ok {
				return nil
			}
			parts[i] = s
			size += len(s)
		}
		if !e.fits(size) {
			return unknown(m, recv.Start, recv.End, tooLarge)
		}
		return &Value{Kind: VString, File: recv.File, Start: recv.Start, End: recv.End, Str: strings.Join(parts, sep)}
	}
	return nil
}

// isTypeScript reports whether path is parsed as TypeScript without JSX
// (where `<T>expr` is a type assertion).
func isTypeScript(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".ts", ".mts", ".cts":
		return true
	}
	return false
}
