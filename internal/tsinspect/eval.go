package tsinspect

import (
	"fmt"
	"strconv"

	"github.com/tdewolff/parse/v2/js"
)

// eval.go follows the values of a module statically: literals, objects and
// arrays, `as const`/`satisfies`/`as T` (no runtime effect), spreads of known
// objects, `const` bindings of the same module and exports of relative
// imports. Everything else is "not known" with a reason, never a guess.

type vkind int

const (
	vUnknown vkind = iota
	vObject
	vArray
	vString
	vNumber
	vBool
	vNull
	vUndefined
	vFunction
	vClass
	vCall      // a call; the callee and arguments are kept for messages
	vNamespace // `import * as ns from './x'`
	vRegex
)

// kindName is how a message names a kind of value.
func (k vkind) name() string {
	switch k {
	case vObject:
		return "an object"
	case vArray:
		return "an array"
	case vString:
		return "a string"
	case vNumber:
		return "a number"
	case vBool:
		return "a boolean"
	case vNull:
		return "null"
	case vUndefined:
		return "undefined"
	case vFunction:
		return "a function"
	case vClass:
		return "a class"
	case vRegex:
		return "a regular expression"
	}
	return "a computed value"
}

type value struct {
	kind       vkind
	file       string // the file the value's source is in
	start, end int    // byte range of the expression in file
	str        string // vString; vNumber source; vBool "true"/"false"
	props      []*prop
	complete   bool // vObject: every key known; vArray: every item known
	items      []*value
	why        string // vUnknown/vCall: why it is not known
	callee     string // vCall: the callee as written
	calleeRef  *importBinding
	args       []*value
	ns         *modFile // vNamespace
	accessor   bool     // a getter/setter property value
	index      map[string]*prop
}

type prop struct {
	key        string
	file       string
	start, end int // the key's range
	val        *value
}

// get returns the last property named key (later keys win, as at run time).
// A large object is indexed on first use (values are not modified after
// they are built, and one inspection runs on one goroutine).
func (v *value) get(key string) *prop {
	if v == nil || v.kind != vObject {
		return nil
	}
	if len(v.props) > 16 {
		if v.index == nil {
			v.index = make(map[string]*prop, len(v.props))
			for _, p := range v.props {
				v.index[p.key] = p
			}
		}
		return v.index[key]
	}
	for i := len(v.props) - 1; i >= 0; i-- {
		if v.props[i].key == key {
			return v.props[i]
		}
	}
	return nil
}

// evaluator follows values across the module and its relative imports.
type evaluator struct {
	res     *resolver
	files   map[string]*modFile // lexed modules by path; nil entry: unreadable
	data    map[string][]byte   // data files (JSON, text) read, by path
	consts  map[declKey]*value  // memo of declarations' values
	busy    map[declKey]bool    // cycle guard
	depth   int
	maxWork int // bounds total work on pathological input
	// tree parses a file the values are followed into (nil when it does
	// not parse)
	tree func(file string, src []byte) *jsTree
}

// declKey names a declaration of a file.
type declKey struct {
	m *modFile
	v *js.Var
}

func newEvaluator(res *resolver, main *modFile, tree func(file string, src []byte) *jsTree) *evaluator {
	return &evaluator{
		res:     res,
		files:   map[string]*modFile{main.path: main},
		data:    map[string][]byte{},
		consts:  map[declKey]*value{},
		busy:    map[declKey]bool{},
		maxWork: 200000,
		tree:    tree,
	}
}

func unknown(m *modFile, start, end int, why string) *value {
	return &value{kind: vUnknown, file: m.path, start: start, end: end, why: why}
}

// expr parses an expression at token i; it returns its value and the index
// of the first token after it.
func (e *evaluator) expr(m *modFile, i int) (*value, int) {
	e.depth++
	defer func() { e.depth-- }()
	e.maxWork--
	if e.depth > maxEvalDepth || e.maxWork < 0 {
		end := skipExpr(m.toks, i)
		return unknown(m, m.tok(i).start, m.tok(end-1).end, "too deeply nested to follow"), end
	}
	v, j := e.unary(m, i)
	if m.isPunct(j, "+") {
		// `a + b + ...` of known strings and numbers
		terms := []*value{v}
		k := j
		for m.isPunct(k, "+") && len(terms) < 8192 {
			var t *value
			t, k = e.unary(m, k+1)
			terms = append(terms, t)
		}
		if t := m.tok(k); !(t.kind == tokPunct && isBinaryOp(t.text)) && !(t.kind == tokIdent && (t.text == "instanceof" || t.text == "in") && !t.nl) {
			if c, ok := concat(terms); ok {
				c.file, c.start, c.end = m.path, m.tok(i).start, m.tok(k-1).end
				return c, k
			}
		}
	}
	// binary and ternary operators make the value computed
	if t := m.tok(j); t.kind == tokPunct && isBinaryOp(t.text) || t.kind == tokIdent && (t.text == "instanceof" || t.text == "in") && !t.nl {
		end := skipExpr(m.toks, j)
		return unknown(m, m.tok(i).start, m.tok(end-1).end, "computed by an expression"), end
	}
	return v, j
}

func (e *evaluator) unary(m *modFile, i int) (*value, int) {
	t := m.tok(i)
	if t.kind == tokPunct {
		switch t.text {
		case "-", "+":
			if n := m.tok(i + 1); n.kind == tokNumber {
				v := &value{kind: vNumber, file: m.path, start: t.start, end: n.end, str: t.text + n.text}
				if t.text == "+" {
					v.str = n.text
				}
				return e.postfix(m, v, t.start, i+2)
			}
			fallthrough
		case "!", "~", "++", "--":
			_, j := e.unary(m, i+1)
			return unknown(m, t.start, m.tok(j-1).end, "computed by an expression"), j
		}
	}
	if t.kind == tokIdent {
		switch t.text {
		case "typeof", "void", "delete", "await":
			_, j := e.unary(m, i+1)
			return unknown(m, t.start, m.tok(j-1).end, "computed when the module runs"), j
		}
	}
	v, j := e.primary(m, i)
	return e.postfix(m, v, t.start, j)
}

func (e *evaluator) primary(m *modFile, i int) (*value, int) {
	t := m.tok(i)
	switch t.kind {
	case tokString:
		return &value{kind: vString, file: m.path, start: t.start, end: t.end, str: t.text}, i + 1
	case tokTemplate:
		if t.subst {
			return e.templateValue(m, t), i + 1
		}
		return &value{kind: vString, file: m.path, start: t.start, end: t.end, str: t.text}, i + 1
	case tokNumber:
		return &value{kind: vNumber, file: m.path, start: t.start, end: t.end, str: t.text}, i + 1
	case tokRegex:
		return &value{kind: vRegex, file: m.path, start: t.start, end: t.end}, i + 1
	case tokPunct:
		switch t.text {
		case "{":
			return e.object(m, i)
		case "[":
			return e.array(m, i)
		case "(":
			end := matching(m.toks, i)
			if j, ok := arrowAfterParams(m, end+1); ok {
				return e.arrowBody(m, t.start, j)
			}
			v, j := e.expr(m, i+1)
			if !m.isPunct(j, ")") {
				return unknown(m, t.start, m.tok(end).end, "computed by an expression"), end + 1
			}
			return v, j + 1
		case "<":
			// a generic arrow function `<T>(x: T) => ...`
			j := skipType(m.toks, i+1)
			if m.isPunct(j, ">") && m.isPunct(j+1, "(") {
				end := matching(m.toks, j+1)
				if k, ok := arrowAfterParams(m, end+1); ok {
					return e.arrowBody(m, t.start, k)
				}
			}
			// a type assertion `<T>expr` (TypeScript without JSX): no
			// effect at run time
			if m.isPunct(j, ">") && isTypeScript(m.path) {
				return e.unary(m, j+1)
			}
		}
		end := skipExpr(m.toks, i)
		if end == i {
			end = i + 1
		}
		return unknown(m, t.start, m.tok(end-1).end, "computed by an expression"), end
	case tokIdent:
		switch t.text {
		case "true", "false":
			return &value{kind: vBool, file: m.path, start: t.start, end: t.end, str: t.text}, i + 1
		case "null":
			return &value{kind: vNull, file: m.path, start: t.start, end: t.end}, i + 1
		case "undefined":
			return &value{kind: vUndefined, file: m.path, start: t.start, end: t.end}, i + 1
		case "function":
			return e.functionExpr(m, i, t.start)
		case "async":
			n := m.tok(i + 1)
			if !n.nl {
				if n.kind == tokIdent && n.text == "function" {
					return e.functionExpr(m, i+1, t.start)
				}
				if n.kind == tokIdent && m.isPunct(i+2, "=>") {
					return e.arrowBody(m, t.start, i+3)
				}
				if n.kind == tokPunct && n.text == "(" {
					end := matching(m.toks, i+1)
					if j, ok := arrowAfterParams(m, end+1); ok {
						return e.arrowBody(m, t.start, j)
					}
				}
			}
		case "class":
			j := i + 1
			for j < len(m.toks) && !m.isPunct(j, "{") && m.tok(j).kind != tokEOF {
				j++
			}
			end := matching(m.toks, j)
			return &value{kind: vClass, file: m.path, start: t.start, end: m.tok(end).end}, end + 1
		case "new":
			j := skipNewTarget(m, i+1)
			if c := m.tok(i + 1); c.kind == tokIdent && (j == i+2 || m.isPunct(i+2, "(") && j == matching(m.toks, i+2)+1) {
				if b := m.binds[m.readAt(c.start, c.text)]; b != nil && b.kind == bClass && b.at >= 0 {
					return e.classInstance(m, c.text, b.class, b.at, t.start, m.tok(j-1).end), j
				}
			}
			return unknown(m, t.start, m.tok(j-1).end, "an object constructed with new"), j
		}
		if m.isPunct(i+1, "=>") {
			return e.arrowBody(m, t.start, i+2)
		}
		return e.ref(m, t.text, t.start, t.end), i + 1
	}
	end := skipExpr(m.toks, i)
	if end == i {
		end = i + 1
	}
	return unknown(m, t.start, m.tok(end-1).end, "computed by an expression"), end
}

func (e *evaluator) arrowBody(m *modFile, start, i int) (*value, int) {
	if m.isPunct(i, "{") {
		end := matching(m.toks, i)
		return &value{kind: vFunction, file: m.path, start: start, end: m.tok(end).end}, end + 1
	}
	// an expression body ends where the statement does (a new line that
	// starts a statement, too): a file without semicolons is not rescanned
	// to its end for every arrow
	end := skipToEnd(m.toks, i, true)
	return &value{kind: vFunction, file: m.path, start: start, end: m.tok(end - 1).end}, end
}

// functionExpr skips `function name<T>(params): type { body }` at i.
func (e *evaluator) functionExpr(m *modFile, i, start int) (*value, int) {
	j := i + 1
	for j < len(m.toks) && !m.isPunct(j, "(") && m.tok(j).kind != tokEOF {
		j++
	}
	j = matching(m.toks, j) + 1
	// an optional return type, which may hold object type literals: a `{`
	// that follows `:`, `|`, `&`, `<`, `,`, `(`, `[` or `=>` opens a type
	// literal; any other `{` opens the body.
	for j < len(m.toks) && m.tok(j).kind != tokEOF {
		t := m.tok(j)
		if t.kind == tokPunct && (t.text == "(" || t.text == "[") {
			j = matching(m.toks, j) + 1
			continue
		}
		if t.kind == tokPunct && t.text == "{" {
			prev := m.tok(j - 1)
			if prev.kind == tokPunct {
				switch prev.text {
				case ":", "|", "&", "<", ",", "(", "[", "=>":
					j = matching(m.toks, j) + 1
					continue
				}
			}
			break
		}
		j++
	}
	end := matching(m.toks, j)
	return &value{kind: vFunction, file: m.path, start: start, end: m.tok(end).end}, end + 1
}

// postfix applies member reads, calls and type assertions to v, whose
// expression starts at byte start of m.
func (e *evaluator) postfix(m *modFile, v *value, start, j int) (*value, int) {
	var recv *value // the object of a method about to be called
	method := ""
	for {
		t := m.tok(j)
		switch {
		case t.kind == tokPunct && (t.text == "." || t.text == "?.") && m.tok(j+1).kind == tokIdent || t.kind == tokPunct && t.text == "." && m.tok(j+1).kind == tokPrivate:
			name := m.tok(j + 1)
			recv, method = v, name.text
			v = e.member(m, v, name.text, start, name.end)
			j += 2
			continue
		case t.kind == tokPunct && t.text == "[" && !t.nl:
			end := matching(m.toks, j)
			key := m.tok(j + 1)
			if key.kind == tokString && end == j+2 {
				v = e.member(m, v, key.text, start, m.tok(end).end)
			} else if key.kind == tokNumber && end == j+2 && v.kind == vArray && v.complete {
				if n, err := strconv.Atoi(key.text); err == nil && n >= 0 && n < len(v.items) {
					v = v.items[n]
				} else {
					v = &value{kind: vUndefined, file: m.path, start: start, end: m.tok(end).end}
				}
			} else {
				v = unknown(m, start, m.tok(end).end, "a computed member")
			}
			j = end + 1
		case t.kind == tokPunct && t.text == "(":
			end := matching(m.toks, j)
			call := &value{kind: vCall, file: m.path, start: start, end: m.tok(end).end,
				callee: calleeText(m, start, t.start)}
			if v.kind == vUnknown && v.calleeRef != nil {
				call.calleeRef = v.calleeRef
			}
			call.why = fmt.Sprintf("computed by a call to %s(...)", call.callee)
			k := j + 1
			for k < end {
				a, next := e.expr(m, k)
				call.args = append(call.args, a)
				if next <= k {
					break
				}
				k = next
				if m.isPunct(k, ",") {
					k++
				}
			}
			v = call
			if b := e.builtinCall(m, start, call.callee, recv, method, call.args); b != nil {
				v = b
			}
			j = end + 1
		case t.kind == tokPunct && t.text == "?." && (m.isPunct(j+1, "(") || m.isPunct(j+1, "[")):
			j++ // optional call or element access: the next round reads it
			continue
		case t.kind == tokPunct && t.text == "!" && !t.nl:
			j++ // TypeScript non-null assertion
		case t.kind == tokIdent && (t.text == "as" || t.text == "satisfies") && !t.nl:
			if t.text == "as" && m.isIdent(j+1, "const") {
				j += 2
				continue
			}
			j = skipType(m.toks, j+1)
			// `as`/`satisfies` have no effect at run time; the value stays
		case t.kind == tokTemplate && !t.nl:
			v = unknown(m, start, t.end, "computed by a tagged template")
			j++
		case t.kind == tokPunct && t.text == "<" && (v.kind == vUnknown || v.kind == vFunction):
			// type arguments of a call: f<T>(...)
			k := skipType(m.toks, j+1)
			if m.isPunct(k, ">") && m.isPunct(k+1, "(") {
				j = k + 1
				continue
			}
			return v, j
		default:
			return v, j
		}
		recv, method = nil, ""
	}
}

// member reads a property of a known object or an export of a namespace.
func (e *evaluator) member(m *modFile, v *value, name string, start, end int) *value {
	switch v.kind {
	case vObject:
		if p := v.get(name); p != nil {
			return p.val
		}
		if v.complete {
			return &value{kind: vUndefined, file: m.path, start: start, end: end}
		}
	case vNamespace:
		return e.export(v.ns, name, m, start, end)
	}
	u := unknown(m, start, end, "a property read when the module runs")
	if v.kind == vUnknown && v.calleeRef != nil {
		u.calleeRef = &importBinding{spec: v.calleeRef.spec, name: v.calleeRef.name + "." + name}
	}
	return u
}

func (e *evaluator) object(m *modFile, i int) (*value, int) {
	end := matching(m.toks, i)
	v := &value{kind: vObject, file: m.path, start: m.tok(i).start, end: m.tok(end).end, complete: true}
	j := i + 1
	for j < end {
		t := m.tok(j)
		if t.kind == tokPunct && t.text == "," {
			j++
			continue
		}
		if t.kind == tokPunct && t.text == "..." {
			s, next := e.expr(m, j+1)
			switch s.kind {
			case vObject:
				v.props = append(v.props, s.props...)
				v.complete = v.complete && s.complete
			case vNull, vUndefined, vBool, vNumber:
			case vString, vArray:
				v.complete = false // index keys; not a schema
			default:
				v.complete = false
				v.props = append(v.props, &prop{key: "", file: m.path, start: t.start, end: m.tok(next - 1).end, val: s})
			}
			j = next
			continue
		}
		// modifiers
		accessor := false
		for {
			k := m.tok(j)
			n := m.tok(j + 1)
			if k.kind == tokIdent && (k.text == "async" || k.text == "get" || k.text == "set" || k.text == "static") &&
				!(n.kind == tokPunct && (n.text == "(" || n.text == ":" || n.text == "," || n.text == "}" || n.text == "<")) {
				if k.text == "get" || k.text == "set" {
					accessor = true
				}
				j++
				continue
			}
			if k.kind == tokPunct && k.text == "*" {
				j++
				continue
			}
			break
		}
		k := m.tok(j)
		var key string
		keyKnown := true
		keyStart, keyEnd := k.start, k.end
		switch k.kind {
		case tokIdent, tokString, tokNumber, tokPrivate:
			key = k.text
			j++
		case tokPunct:
			if k.text == "[" {
				kend := matching(m.toks, j)
				kv, _ := e.expr(m, j+1)
				if kv.kind == vString {
					key = kv.str
				} else {
					keyKnown = false
				}
				keyEnd = m.tok(kend).end
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
		n := m.tok(j)
		switch {
		case n.kind == tokPunct && (n.text == "(" || n.text == "<"):
			fv, next := e.functionExpr(m, j-1, keyStart)
			val, j = fv, next
			if accessor {
				val = &value{kind: vUnknown, file: m.path, start: keyStart, end: fv.end, why: "a getter: computed when read", accessor: true}
			}
		case n.kind == tokPunct && n.text == ":":
			val, j = e.expr(m, j+1)
		case n.kind == tokPunct && (n.text == "," || n.text == "}"):
			val = e.ref(m, key, keyStart, keyEnd)
		default:
			return unknown(m, v.start, v.end, "an object this inspector cannot read"), end + 1
		}
		if !keyKnown {
			v.complete = false
			continue
		}
		v.props = append(v.props, &prop{key: key, file: m.path, start: keyStart, end: keyEnd, val: val})
		if j < end && !m.isPunct(j, ",") {
			return unknown(m, v.start, v.end, "an object this inspector cannot read"), end + 1
		}
	}
	return v, end + 1
}

func (e *evaluator) array(m *modFile, i int) (*value, int) {
	end := matching(m.toks, i)
	v := &value{kind: vArray, file: m.path, start: m.tok(i).start, end: m.tok(end).end, complete: true}
	j := i + 1
	for j < end {
		if m.isPunct(j, ",") {
			v.complete = false // a hole
			j++
			continue
		}
		if m.isPunct(j, "...") {
			s, next := e.expr(m, j+1)
			if s.kind == vArray {
				v.items = append(v.items, s.items...)
				v.complete = v.complete && s.complete
			} else {
				v.complete = false
			}
			j = next
		} else {
			it, next := e.expr(m, j)
			v.items = append(v.items, it)
			j = next
		}
		if j < end && !m.isPunct(j, ",") {
			return unknown(m, v.start, v.end, "an array this inspector cannot read"), end + 1
		}
		j++
	}
	return v, end + 1
}
