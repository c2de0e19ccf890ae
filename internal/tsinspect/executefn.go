package tsinspect

import (
	"bytes"
	"sort"

	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsvalue"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/resolve"
)

// executefn.go finds execute's function on the syntax tree of its file and
// reads the members its code takes of a binding: `x.NAME`, `x?.NAME`,
// `x['NAME']`, and the keys of `const { NAME } = x`. Which binding a name
// means is the tree's (a nested function's own parameter of the same name
// is another binding).

// executeFn is execute's function on its file's tree.
type executeFn struct {
	t      *jsfront.Tree
	params *js.Params
	block  *js.BlockStmt
}

func (x executeFn) body() js.INode { return x.block }

// executeOf finds the function the value v of execute is, on the tree of
// v's file: the outermost function whose first name lies in v's extent.
func (c *checker) executeOf(in *Inspector, res *resolve.Resolver, v *jsvalue.Value) (executeFn, bool) {
	t := c.treeOf(v.File)
	if t == nil {
		return executeFn{}, false
	}
	var best executeFn
	bestAt := -1
	js.Walk(jsfront.NodeVisitor(func(n js.INode) {
		var x executeFn
		switch f := n.(type) {
		case *js.ArrowFunc:
			x = executeFn{t: t, params: &f.Params, block: &f.Body}
		case *js.FuncDecl:
			x = executeFn{t: t, params: &f.Params, block: &f.Body}
		case *js.MethodDecl:
			x = executeFn{t: t, params: &f.Params, block: &f.Body}
		default:
			return
		}
		first := firstName(x.params, x.block)
		if first == nil {
			return
		}
		at, ok := t.Pos(first)
		if ok && at >= v.Start && at < v.End && (bestAt < 0 || at < bestAt) {
			best, bestAt = x, at
		}
	}), t.AST)
	if bestAt < 0 {
		return functionNamedAt(t, v.Start)
	}
	return best, true
}

// functionNamedAt finds the function a name read at offset at (of the
// file's text) is bound to: a function declaration (hoisted: `execute` in
// `export default { execute }` above or below `function execute(...)`), or
// a const bound to a function.
func functionNamedAt(t *jsfront.Tree, at int) (executeFn, bool) {
	end := at
	for end < len(t.Src) && jsfront.IsNameByte(t.Src[end]) {
		end++
	}
	name := string(t.Src[at:end]) // only the reads of this name are placed
	var target *js.Var
	fns := map[*js.Var]executeFn{}
	js.Walk(jsfront.NodeVisitor(func(n js.INode) {
		switch m := n.(type) {
		case *js.Var:
			if m.Link != nil && target == nil && string(m.Data) == name {
				if p, ok := t.Pos(m.Data); ok && p == at {
					target = jsfront.Root(m)
				}
			}
		case *js.FuncDecl:
			if m.Name != nil {
				fns[m.Name] = executeFn{t: t, params: &m.Params, block: &m.Body}
			}
		case *js.VarDecl:
			if m.TokenType != js.ConstToken {
				return
			}
			for _, e := range m.List {
				v, ok := e.Binding.(*js.Var)
				if !ok {
					continue
				}
				switch f := e.Default.(type) {
				case *js.ArrowFunc:
					fns[v] = executeFn{t: t, params: &f.Params, block: &f.Body}
				case *js.FuncDecl:
					fns[v] = executeFn{t: t, params: &f.Params, block: &f.Body}
				}
			}
		}
	}), t.AST)
	x, ok := fns[target]
	return x, ok && target != nil
}

// treeOf is the syntax tree of the module or of a file its values were
// followed into (parsed once per inspection, when the file was loaded).
func (c *checker) treeOf(file string) *jsfront.Tree {
	if f := c.ev.Files[file]; f != nil {
		return f.Tree
	}
	return nil
}

// firstName is the first name of a function: of its first parameter, else
// of its body's first statement.
func firstName(p *js.Params, body *js.BlockStmt) []byte {
	if len(p.List) > 0 {
		return bindingName(p.List[0].Binding)
	}
	for _, s := range body.List {
		switch n := s.(type) {
		case *js.ReturnStmt:
			return jsfront.Leftmost(n.Value)
		case *js.ExprStmt:
			return jsfront.Leftmost(n.Value)
		case *js.VarDecl:
			if len(n.List) > 0 {
				return bindingName(n.List[0].Binding)
			}
		case *js.IfStmt:
			return jsfront.Leftmost(n.Cond)
		}
		return nil
	}
	return nil
}

// bindingName is the first name a binding pattern writes, as a slice of
// the JavaScript.
func bindingName(b js.IBinding) []byte {
	switch n := b.(type) {
	case *js.Var:
		return n.Data
	case *js.BindingObject:
		if len(n.List) > 0 {
			return keyName(n.List[0])
		}
	case *js.BindingArray:
		if len(n.List) > 0 {
			return bindingName(n.List[0].Binding)
		}
	}
	return nil
}

// memberRead is a member read off a binding: its extent in the file's
// text (`context.env.NAME`), and the name's own (`NAME`, `'NAME'`).
type memberRead struct {
	name               string
	start, end         int
	nameStart, nameEnd int
}

func sortReads(rs []memberRead) {
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].start < rs[j].start })
}

// isFree matches a read of name declared nowhere (the global).
func isFree(name string) func(js.IExpr) bool {
	return func(e js.IExpr) bool {
		v, ok := e.(*js.Var)
		return ok && jsfront.FreeName(v, name)
	}
}

// isMember reports whether x is `base.field` (or `base?.field`).
func isMember(x js.IExpr, base func(js.IExpr) bool, field string) bool {
	d, ok := x.(*js.DotExpr)
	if !ok {
		return false
	}
	lit, ok := d.Y.(js.LiteralExpr)
	return ok && string(lit.Data) == field && base(d.X)
}

// memberOf reads n as a member of base: `base.NAME` or `base['NAME']`, its
// extent from base's start to the name's end (the `]` included).
func memberOf(t *jsfront.Tree, n js.INode, base func(js.IExpr) bool) (memberRead, bool) {
	var x js.IExpr
	var name []byte
	str := false
	switch m := n.(type) {
	case *js.DotExpr:
		lit, ok := m.Y.(js.LiteralExpr)
		if !ok {
			return memberRead{}, false
		}
		x, name = m.X, lit.Data
	case *js.IndexExpr:
		lit, ok := m.Y.(*js.LiteralExpr)
		if !ok || lit.TokenType != js.StringToken {
			return memberRead{}, false
		}
		x, name, str = m.X, lit.Data, true
	default:
		return memberRead{}, false
	}
	if !base(x) {
		return memberRead{}, false
	}
	first := jsfront.Leftmost(x)
	start, ok := t.Pos(first)
	if !ok {
		return memberRead{}, false
	}
	nameStart, end, ok := t.Span(name)
	if !ok {
		return memberRead{}, false
	}
	r := memberRead{name: string(name), start: start, end: end, nameStart: nameStart, nameEnd: end}
	if str {
		s, _ := jsfront.Quoted(name)
		r.name = s
		close := bytes.IndexByte(t.Src[end:], ']')
		if close < 0 {
			return memberRead{}, false
		}
		r.end = end + close + 1
	}
	return r, true
}

// patternReads are the top-level keys of an object pattern, each at its
// own extent; rest reports a rest element at any depth.
func patternReads(t *jsfront.Tree, b *js.BindingObject) (reads []memberRead, rest bool) {
	for _, it := range b.List {
		name := keyName(it)
		if name == nil {
			rest = true // a computed key: which names are read is not known
			continue
		}
		if start, end, ok := t.Span(name); ok {
			reads = append(reads, memberRead{name: string(name), start: start, end: end, nameStart: start, nameEnd: end})
		}
		if hasRest(it.Value.Binding) {
			rest = true
		}
	}
	return reads, rest || b.Rest != nil
}

// keyName is an object pattern item's key as a slice of the JavaScript:
// the parser copies the key of a shorthand item (`{ a }`), whose binding
// slices the name. Nil for a computed key.
func keyName(it js.BindingObjectItem) []byte {
	if it.Key != nil && it.Key.Computed != nil {
		return nil
	}
	if v, ok := it.Value.Binding.(*js.Var); ok && (it.Key == nil || string(it.Key.Literal.Data) == string(v.Data)) {
		return v.Data // the shorthand `{ a }` (or `{ a: a }`)
	}
	if it.Key != nil {
		return it.Key.Literal.Data
	}
	return nil
}

// hasRest reports whether a binding pattern has a rest element.
func hasRest(b js.IBinding) bool {
	switch n := b.(type) {
	case *js.BindingObject:
		if n.Rest != nil {
			return true
		}
		for _, it := range n.List {
			if hasRest(it.Value.Binding) {
				return true
			}
		}
	case *js.BindingArray:
		if n.Rest != nil {
			return true
		}
		for _, e := range n.List {
			if hasRest(e.Binding) {
				return true
			}
		}
	}
	return false
}

// argReads finds what execute reads of its first parameter: the names read
// (`args.x`, `args['x']`, `const { x } = args`, a destructured parameter)
// and whether it is used in any other way (passed on whole, a computed key,
// a method called on it, a rest element), in which case unread names say
// nothing.
func (x executeFn) argReads() (reads []memberRead, whole bool) {
	if len(x.params.List) == 0 {
		return nil, true
	}
	switch b := x.params.List[0].Binding.(type) {
	case *js.BindingObject:
		return patternReads(x.t, b)
	case *js.Var:
		reads, whole = x.readsOf(func(e js.IExpr) bool {
			v, ok := e.(*js.Var)
			return ok && jsfront.Root(v) == b
		})
		sortReads(reads)
		return reads, whole
	}
	return nil, true
}

// readsOf reads the members execute's body takes of a binding (base tells
// a read of it); whole reports any other use.
func (x executeFn) readsOf(base func(js.IExpr) bool) (reads []memberRead, whole bool) {
	consumed := map[js.IExpr]bool{}
	methods := map[js.INode]bool{}
	uses := 0
	js.Walk(jsfront.NodeVisitor(func(n js.INode) {
		switch m := n.(type) {
		case *js.CallExpr:
			if d, ok := m.X.(*js.DotExpr); ok && base(d.X) {
				methods[d] = true // a method of the object (`args.hasOwnProperty(...)`)
				consumed[d.X] = true
				whole = true
			}
		case *js.DotExpr, *js.IndexExpr:
			if methods[n] {
				return
			}
			if r, ok := memberOf(x.t, n, base); ok {
				reads = append(reads, r)
				if d, ok := n.(*js.DotExpr); ok {
					consumed[d.X] = true
				} else {
					consumed[n.(*js.IndexExpr).X] = true
				}
			}
		case *js.VarDecl:
			for _, e := range m.List {
				if o, ok := e.Binding.(*js.BindingObject); ok && e.Default != nil && base(e.Default) {
					consumed[e.Default] = true
					rs, rest := patternReads(x.t, o)
					reads = append(reads, rs...)
					whole = whole || rest
				}
			}
		case *js.Var:
			if base(m) {
				uses++
			}
		}
	}), x.body())
	for e := range consumed {
		if _, ok := e.(*js.Var); ok {
			uses--
		}
	}
	return reads, whole || uses > 0
}
