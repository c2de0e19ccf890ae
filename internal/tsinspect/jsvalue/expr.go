package jsvalue

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// expr.go evaluates an expression of the syntax tree: the tree says
// what the expression is (an object and its properties, a call and its
// arguments, the name a read means), and the tokens of your text, from the
// token the expression starts at, where each part of it is and where it
// ends (the tree has no positions, and esbuild reprints what it keeps and
// erases TypeScript's `as T`, `satisfies T`, `x!` and `<T>x`, which the
// tokens skip).

// expr evaluates n, which starts at token i of m's text; it returns its
// value and the index of the first token after it.
func (e *Reader) expr(m *File, n js.IExpr, i int) (*Value, int) {
	v, j := e.term(m, n, i)
	if !endsExpr(m.Tok(j)) && isLiteral(n) {
		return e.folded(m, n, i) // 'a' + 'b', which esbuild joined
	}
	return v, j
}

// isLiteral reports whether n is a string, a number or a template without
// substitutions.
func isLiteral(n js.IExpr) bool {
	switch n := n.(type) {
	case *js.LiteralExpr:
		return n.TokenType == js.StringToken || js.IsNumeric(n.TokenType)
	case *js.TemplateExpr:
		return n.Tag == nil && len(n.List) == 0
	}
	return false
}

// term is expr for an operand of `+`.
func (e *Reader) term(m *File, n js.IExpr, i int) (*Value, int) {
	e.depth++
	defer func() { e.depth-- }()
	e.maxWork--
	if e.depth > maxEvalDepth || e.maxWork < 0 || n == nil {
		end := skipExpr(m.toks, i)
		why := "too deeply nested to follow"
		if n == nil {
			why = "computed by an expression"
		}
		return unknown(m, m.Tok(i).Start, m.Tok(end-1).End, why), end
	}
	if _, arrow := n.(*js.ArrowFunc); !arrow {
		i = m.skipCast(i)
	}
	v, j := e.node(m, n, i)
	return v, m.skipTypeSuffix(j)
}

// skipCast skips TypeScript's `<T>` before an expression (not in JSX).
func (m *File) skipCast(i int) int {
	for m.isPunct(i, "<") && isTypeScript(m.path) {
		j := skipType(m.toks, i+1)
		if !m.isPunct(j, ">") {
			return i
		}
		i = j + 1
	}
	return i
}

// skipTypeSuffix skips TypeScript's `as T`, `as const`, `satisfies T` and
// `!` after an expression.
func (m *File) skipTypeSuffix(j int) int {
	for {
		t := m.Tok(j)
		switch {
		case t.Kind == jsfront.TokPunct && t.Text == "!" && !t.NL:
			j++
		case t.Kind == jsfront.TokIdent && (t.Text == "as" || t.Text == "satisfies") && !t.NL:
			if t.Text == "as" && m.isIdent(j+1, "const") {
				j += 2
				continue
			}
			j = skipType(m.toks, j+1)
		default:
			return j
		}
	}
}

// computed is the value of an expression the reader does not follow, from
// token i to the end of the expression.
func computed(m *File, i int, why string) (*Value, int) {
	end := skipExpr(m.toks, i)
	if end == i {
		end = i + 1
	}
	return unknown(m, m.Tok(i).Start, m.Tok(end-1).End, why), end
}

// leftRecursive reports whether n starts with a subexpression (whose own
// evaluation reads the parentheses esbuild dropped around it).
func leftRecursive(n js.IExpr) bool {
	switch n := n.(type) {
	case *js.DotExpr, *js.IndexExpr, *js.CallExpr, *js.BinaryExpr, *js.CondExpr, *js.CommaExpr:
		return true
	case *js.TemplateExpr:
		return n.Tag != nil
	case *js.UnaryExpr:
		return n.Op == js.PostIncrToken || n.Op == js.PostDecrToken
	}
	return false
}

func (e *Reader) node(m *File, n js.IExpr, i int) (*Value, int) {
	t := m.Tok(i)
	if t.Kind == jsfront.TokPunct && t.Text == "(" && !leftRecursive(n) {
		_, group := n.(*js.GroupExpr)
		if _, arrow := n.(*js.ArrowFunc); arrow {
			if v, j := e.arrow(m, i); v.Kind == VFunction {
				return v, j
			}
		}
		if !group { // parentheses esbuild dropped
			end := matching(m.toks, i)
			v, j := e.expr(m, n, i+1)
			if !m.isPunct(j, ")") {
				return unknown(m, t.Start, m.Tok(end).End, "computed by an expression"), end + 1
			}
			return v, j + 1
		}
	}
	switch n := n.(type) {
	case *js.LiteralExpr:
		return e.literal(m, n, i)
	case *js.Var:
		if t.Kind != jsfront.TokIdent {
			return computed(m, i, "computed by an expression")
		}
		return e.ref(m, t.Text, t.Start, t.End), i + 1
	case *js.TemplateExpr:
		if n.Tag != nil {
			return e.chain(m, n, i)
		}
		switch {
		case t.Kind != jsfront.TokTemplate:
			return e.folded(m, n, i)
		case t.Subst:
			return e.templateValue(m, t), i + 1
		}
		return &Value{Kind: VString, File: m.path, Start: t.Start, End: t.End, Str: t.Text}, i + 1
	case *js.ObjectExpr:
		if !m.isPunct(i, "{") {
			return computed(m, i, "computed by an expression")
		}
		return e.object(m, n, i)
	case *js.ArrayExpr:
		if !m.isPunct(i, "[") {
			return computed(m, i, "computed by an expression")
		}
		return e.array(m, n, i)
	case *js.GroupExpr:
		if t.Kind != jsfront.TokPunct || t.Text != "(" {
			return computed(m, i, "computed by an expression")
		}
		end := matching(m.toks, i)
		v, j := e.expr(m, n.X, i+1)
		if !m.isPunct(j, ")") {
			return unknown(m, t.Start, m.Tok(end).End, "computed by an expression"), end + 1
		}
		return v, j + 1
	case *js.DotExpr, *js.IndexExpr, *js.CallExpr:
		return e.chain(m, n, i)
	case *js.UnaryExpr:
		return e.unary(m, n, i)
	case *js.BinaryExpr:
		if n.Op == js.AddToken {
			return e.plus(m, n, i)
		}
	case *js.ArrowFunc:
		return e.arrow(m, i)
	case *js.FuncDecl:
		switch {
		case m.isIdent(i, "function"):
			return e.functionExpr(m, i, t.Start)
		case m.isIdent(i, "async") && m.isIdent(i+1, "function"):
			return e.functionExpr(m, i+1, t.Start)
		}
	case *js.ClassDecl:
		if m.isIdent(i, "class") {
			j := i + 1
			for j < len(m.toks) && !m.isPunct(j, "{") && m.Tok(j).Kind != jsfront.TokEOF {
				j++
			}
			end := matching(m.toks, j)
			return &Value{Kind: VClass, File: m.path, Start: t.Start, End: m.Tok(end).End}, end + 1
		}
	case *js.NewExpr:
		if m.isIdent(i, "new") {
			return e.newExpr(m, n, i)
		}
	}
	return computed(m, i, "computed by an expression")
}

// literal is a string, number, boolean, null, `this` or regular
// expression.
func (e *Reader) literal(m *File, n *js.LiteralExpr, i int) (*Value, int) {
	t := m.Tok(i)
	if t.Kind == jsfront.TokIdent && n.TokenType != js.ThisToken &&
		n.TokenType != js.TrueToken && n.TokenType != js.FalseToken && n.TokenType != js.NullToken {
		return e.folded(m, n, i)
	}
	switch {
	case n.TokenType == js.StringToken && t.Kind == jsfront.TokString:
		return &Value{Kind: VString, File: m.path, Start: t.Start, End: t.End, Str: t.Text}, i + 1
	case js.IsNumeric(n.TokenType) && t.Kind == jsfront.TokNumber:
		return &Value{Kind: VNumber, File: m.path, Start: t.Start, End: t.End, Str: t.Text}, i + 1
	case n.TokenType == js.RegExpToken && t.Kind == jsfront.TokRegex:
		return &Value{Kind: VRegex, File: m.path, Start: t.Start, End: t.End}, i + 1
	case n.TokenType == js.TrueToken || n.TokenType == js.FalseToken:
		return &Value{Kind: VBool, File: m.path, Start: t.Start, End: t.End, Str: t.Text}, i + 1
	case n.TokenType == js.NullToken:
		return &Value{Kind: VNull, File: m.path, Start: t.Start, End: t.End}, i + 1
	case n.TokenType == js.ThisToken:
		return e.ref(m, "this", t.Start, t.End), i + 1
	}
	return e.folded(m, n, i)
}

// folded is a value esbuild computed from what you wrote: `'a' + 'b'`
// joined, an enum member (`Level.High`) written as its value. It is the
// value esbuild wrote, over the extent of what you wrote.
func (e *Reader) folded(m *File, n js.IExpr, i int) (*Value, int) {
	v, end := computed(m, i, "computed by an expression")
	v.Why = ""
	switch n := n.(type) {
	case *js.LiteralExpr:
		switch {
		case n.TokenType == js.StringToken:
			if s, ok := jsfront.Quoted(n.Data); ok {
				v.Kind, v.Str = VString, s
				return v, end
			}
		case js.IsNumeric(n.TokenType):
			v.Kind, v.Str = VNumber, string(n.Data)
			return v, end
		}
	case *js.TemplateExpr:
		if len(n.List) == 0 {
			if s, ok := cookTemplate(string(n.Tail[1 : len(n.Tail)-1])); ok {
				v.Kind, v.Str = VString, s
				return v, end
			}
		}
	case *js.UnaryExpr:
		if c := enumConstant(n, v); c != v {
			return c, end
		}
	}
	v.Why = "computed by an expression"
	return v, end
}

// unary is `-1`, `+1`, or an operator whose value is computed.
func (e *Reader) unary(m *File, n *js.UnaryExpr, i int) (*Value, int) {
	t := m.Tok(i)
	switch n.Op {
	case js.PostIncrToken, js.PostDecrToken:
		return computed(m, i, "computed by an expression")
	case js.VoidToken:
		if m.isIdent(i, "undefined") { // esbuild writes undefined as void 0
			return &Value{Kind: VUndefined, File: m.path, Start: t.Start, End: t.End}, i + 1
		}
	case js.NegToken, js.PosToken:
		if num := m.Tok(i + 1); num.Kind == jsfront.TokNumber && t.Kind == jsfront.TokPunct {
			v := &Value{Kind: VNumber, File: m.path, Start: t.Start, End: num.End, Str: t.Text + num.Text}
			if t.Text == "+" {
				v.Str = num.Text
			}
			return v, i + 2
		}
		if t.Kind == jsfront.TokIdent {
			return e.folded(m, n, i)
		}
	}
	why := "computed by an expression"
	if t.Kind == jsfront.TokIdent {
		why = "computed when the module runs" // typeof, void, delete, await
	}
	_, j := e.expr(m, n.X, i+1)
	return unknown(m, t.Start, m.Tok(j-1).End, why), j
}

// plus is `a + b + ...` of known strings and numbers. esbuild joins
// neighbouring literals (`' items, ' + 1` is `" items, 1"`), so the terms
// are your text's: a literal is read from its token, any other term is the
// tree's next operand that is not a literal.
func (e *Reader) plus(m *File, n *js.BinaryExpr, i int) (*Value, int) {
	var operands []js.IExpr // the tree's, last first
	var x js.IExpr = n
	for {
		b, ok := x.(*js.BinaryExpr)
		if !ok || b.Op != js.AddToken || len(operands) >= jsfront.MaxPlusChain {
			break
		}
		if !isLiteral(b.Y) {
			operands = append(operands, b.Y)
		}
		x = b.X
	}
	if !isLiteral(x) {
		operands = append(operands, x)
	}
	var vals []*Value
	j := i
	for {
		if t := m.Tok(j); (t.Kind == jsfront.TokString || t.Kind == jsfront.TokNumber || t.Kind == jsfront.TokTemplate && !t.Subst) && (m.isPunct(j+1, "+") || endsExpr(m.Tok(j+1))) {
			v, _ := e.literalToken(m, j)
			vals = append(vals, v)
			j++
		} else {
			if len(operands) == 0 {
				return computed(m, i, "computed by an expression")
			}
			var v *Value
			v, j = e.term(m, operands[len(operands)-1], j)
			operands = operands[:len(operands)-1]
			vals = append(vals, v)
		}
		if !m.isPunct(j, "+") || len(vals) >= jsfront.MaxPlusChain {
			break
		}
		j++
	}
	size := 0
	for _, v := range vals {
		size += len(v.Str)
	}
	if tooLargeAmong(vals) || !e.fits(size) {
		return unknown(m, m.Tok(i).Start, m.Tok(j-1).End, tooLarge), j
	}
	c, ok := concat(vals)
	if !ok || len(operands) > 0 || !endsExpr(m.Tok(j)) {
		if len(operands) == 0 && endsExpr(m.Tok(j)) {
			for _, v := range vals {
				if v.Kind == VUnknown && v.Why != "" { // the term's reason is the sum's
					return unknown(m, m.Tok(i).Start, m.Tok(j-1).End, v.Why), j
				}
			}
		}
		return computed(m, i, "computed by an expression")
	}
	c.File, c.Start, c.End = m.path, m.Tok(i).Start, m.Tok(j-1).End
	return c, j
}

// literalToken is the string or number of the token at i.
func (e *Reader) literalToken(m *File, i int) (*Value, int) {
	t := m.Tok(i)
	kind := VString
	if t.Kind == jsfront.TokNumber {
		kind = VNumber
	}
	return &Value{Kind: kind, File: m.path, Start: t.Start, End: t.End, Str: t.Text}, i + 1
}

// endsExpr reports whether t may follow a whole expression.
func endsExpr(t jsfront.Token) bool {
	if t.Kind == jsfront.TokPunct {
		return !isBinaryOp(t.Text) && t.Text != "." && t.Text != "?." && t.Text != "[" && t.Text != "("
	}
	return !(t.Kind == jsfront.TokIdent && (t.Text == "instanceof" || t.Text == "in") && !t.NL)
}

// arrow is an arrow function: `async`, type parameters, the parameters
// and a return type, then its body.
func (e *Reader) arrow(m *File, i int) (*Value, int) {
	start := m.Tok(i).Start
	k := i
	if m.isIdent(k, "async") && !m.Tok(k+1).NL && !m.isPunct(k+1, "=>") {
		k++
	}
	if m.isPunct(k, "<") {
		k = skipType(m.toks, k+1) + 1
	}
	switch t := m.Tok(k); {
	case t.Kind == jsfront.TokIdent && m.isPunct(k+1, "=>"):
		return e.arrowBody(m, start, k+2)
	case t.Kind == jsfront.TokPunct && t.Text == "(":
		if j, ok := arrowAfterParams(m, matching(m.toks, k)+1); ok {
			return e.arrowBody(m, start, j)
		}
	}
	return computed(m, i, "computed by an expression")
}

// newExpr is `new C()` of a class of the module (its instance), or an
// object constructed when the module runs.
func (e *Reader) newExpr(m *File, n *js.NewExpr, i int) (*Value, int) {
	t := m.Tok(i)
	j := skipNewTarget(m, i+1)
	if c := m.Tok(i + 1); c.Kind == jsfront.TokIdent && (j == i+2 || m.isPunct(i+2, "(") && j == matching(m.toks, i+2)+1) {
		if _, isVar := n.X.(*js.Var); isVar {
			if why := m.changedWhy(m.readAt(c.Start, c.Text)); why != "" {
				return unknown(m, t.Start, m.Tok(j-1).End, why), j
			}
			if b := m.Binds[m.readAt(c.Start, c.Text)]; b != nil && b.Kind == BindClass && b.At >= 0 {
				return e.classInstance(m, c.Text, b.class, b.At, t.Start, m.Tok(j-1).End), j
			}
		}
	}
	return unknown(m, t.Start, m.Tok(j-1).End, "an object constructed with new"), j
}

// chain is a chain of member reads, calls and tagged templates, evaluated
// from its first operand on, link by link.
func (e *Reader) chain(m *File, n js.IExpr, i int) (*Value, int) {
	var links []js.IExpr
	x := n
	for {
		var next js.IExpr
		switch l := x.(type) {
		case *js.DotExpr:
			next = l.X
		case *js.IndexExpr:
			next = l.X
		case *js.CallExpr:
			next = l.X
		case *js.TemplateExpr:
			next = l.Tag
		}
		if next == nil {
			break
		}
		links = append(links, x)
		x = next
	}
	start := m.Tok(m.skipCast(i)).Start
	v, j := e.expr(m, x, i)
	var recv *Value // the object of a method about to be called
	method := ""
	for k := len(links) - 1; k >= 0; k-- {
		if m.isPunct(j, "?.") && (m.isPunct(j+1, "(") || m.isPunct(j+1, "[")) {
			j++
		}
		var ok bool
		nextRecv, nextMethod := (*Value)(nil), ""
		switch l := links[k].(type) {
		case *js.DotExpr:
			name := m.Tok(j + 1)
			if ok = (m.isPunct(j, ".") || m.isPunct(j, "?.")) && (name.Kind == jsfront.TokIdent || name.Kind == jsfront.TokPrivate); ok {
				nextRecv, nextMethod = v, name.Text
				v, j = e.member(m, v, name.Text, start, name.End), j+2
			}
		case *js.IndexExpr:
			if ok = m.isPunct(j, "[") && !m.Tok(j).NL; ok {
				v, j = e.index(m, v, start, j)
			}
		case *js.CallExpr:
			if m.isPunct(j, "<") { // type arguments: f<T>(...)
				if k := skipType(m.toks, j+1); m.isPunct(k, ">") && m.isPunct(k+1, "(") {
					j = k + 1
				}
			}
			if ok = m.isPunct(j, "("); ok {
				v, j = e.call(m, l, v, recv, method, start, j)
			}
		case *js.TemplateExpr:
			if t := m.Tok(j); t.Kind == jsfront.TokTemplate && !t.NL {
				v, j, ok = unknown(m, start, t.End, "computed by a tagged template"), j+1, true
			}
		}
		if !ok {
			return computed(m, i, "computed by an expression")
		}
		j = m.skipTypeSuffix(j)
		recv, method = nextRecv, nextMethod
	}
	return v, j
}

// index is `v[...]` at token j (the `[`): a literal key of an object, an
// element of an array.
func (e *Reader) index(m *File, v *Value, start, j int) (*Value, int) {
	end := matching(m.toks, j)
	key := m.Tok(j + 1)
	switch {
	case key.Kind == jsfront.TokString && end == j+2:
		return e.member(m, v, key.Text, start, m.Tok(end).End), end + 1
	case key.Kind == jsfront.TokNumber && end == j+2:
		name, ok := jsonNumber(key.Text) // the key is the number's string: 0x1 is "1"
		if !ok {
			break
		}
		if v.Kind != VArray {
			return e.member(m, v, name, start, m.Tok(end).End), end + 1
		}
		if !v.Complete {
			break
		}
		if n, err := strconv.Atoi(name); err == nil && n >= 0 && n < len(v.Items) {
			return v.Items[n], end + 1
		}
		return &Value{Kind: VUndefined, File: m.path, Start: start, End: m.Tok(end).End}, end + 1
	}
	return unknown(m, start, m.Tok(end).End, "a computed member"), end + 1
}

// call is the call n of v at token j (the `(`): a standard function on
// known values, or a value computed by the call.
func (e *Reader) call(m *File, n *js.CallExpr, v, recv *Value, method string, start, j int) (*Value, int) {
	end := matching(m.toks, j)
	call := &Value{Kind: VCall, File: m.path, Start: start, End: m.Tok(end).End, Callee: calleeText(m, start, m.Tok(j).Start)}
	if v.Kind == VUnknown && v.CalleeRef != nil {
		call.CalleeRef = v.CalleeRef
	}
	call.Why = fmt.Sprintf("computed by a call to %s(...)", call.Callee)
	k := j + 1
	for _, a := range n.Args.List {
		if k >= end {
			break
		}
		var arg *Value
		if a.Rest {
			arg, k = computed(m, k, "computed by an expression")
		} else {
			arg, k = e.expr(m, a.Value, k)
		}
		call.Args = append(call.Args, arg)
		if m.isPunct(k, ",") {
			k++
		}
	}
	if tooLargeAmong(append([]*Value{v, recv}, call.Args...)) || recv != nil && recv.Kind == VArray && tooLargeAmong(recv.Items) {
		return unknown(m, start, call.End, tooLarge), end + 1
	}
	if b := e.builtinCall(m, start, call.Callee, recv, method, call.Args); b != nil {
		return b, end + 1
	}
	return call, end + 1
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
