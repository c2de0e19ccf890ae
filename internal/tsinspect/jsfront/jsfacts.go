package jsfront

import (
	"sort"
	"strings"

	"github.com/tdewolff/parse/v2/js"
)

// jsfacts.go reads a file's runtime imports and its export names off its
// syntax tree, as Bun links them: the imports esbuild kept (TypeScript's
// type-only and unused imports are gone, as Bun drops them), and a
// CommonJS file's single default export.

// ImportsOf lists the file's imports, in source order: `import` and
// `export ... from`, and the require() and import() calls of a literal path
// (a require() of the file's own binding is not one).
func ImportsOf(t *Tree) []Import {
	var out []Import
	add := func(lit []byte, kind ImportKind) {
		spec, ok := Quoted(lit)
		if !ok {
			return
		}
		imp := Import{Path: spec, Kind: kind}
		imp.Start, imp.End, imp.known = t.Span(lit)
		out = append(out, imp)
	}
	var jsxCalls []*js.Var
	js.Walk(NodeVisitor(func(n js.INode) {
		switch n := n.(type) {
		case *js.ImportStmt:
			add(n.Module, ImportStatic)
		case *js.ExportStmt:
			if n.Module != nil {
				add(n.Module, ImportStatic)
			}
		case *js.CallExpr:
			if len(n.Args.List) == 0 {
				return
			}
			lit, ok := n.Args.List[0].Value.(*js.LiteralExpr)
			if !ok || lit.TokenType != js.StringToken {
				return
			}
			switch x := n.X.(type) {
			case *js.LiteralExpr:
				if x.TokenType == js.ImportToken {
					add(lit.Data, ImportDynamic)
				}
			case *js.Var:
				if FreeName(x, "require") {
					add(lit.Data, ImportRequire)
				} else if r := Root(x); r.Decl == js.NoDecl && (string(r.Data) == "jsx" || string(r.Data) == "jsxs" || string(r.Data) == "jsxDEV") {
					jsxCalls = append(jsxCalls, x)
				}
			case *js.DotExpr:
				if v, ok := x.X.(*js.Var); ok && FreeName(v, "require") {
					if name, ok := x.Y.(js.LiteralExpr); ok && string(name.Data) == "resolve" {
						add(lit.Data, ImportRequire)
					}
				}
			}
		}
	}), t.AST)
	jsxAt := firstJSX(t, jsxCalls)
	for i := range out {
		if !out[i].known && IsJSXRuntime(out[i].Path) && jsxAt >= 0 {
			// the import esbuild adds for JSX: at the first element
			out[i].Start, out[i].End, out[i].known = jsxAt, jsxAt, true
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// firstJSX is the offset of the first JSX element in the file's text, from
// the calls esbuild compiled the elements to; -1 when none.
func firstJSX(t *Tree, calls []*js.Var) int {
	first := -1
	for _, v := range calls {
		if at, ok := t.Mapped(v.Data); ok && at < len(t.Src) && t.Src[at] == '<' && (first < 0 || at < first) {
			first = at
		}
	}
	return first
}

// FreeName reports whether v reads name declared nowhere in the file (a
// global, or a binding of the module system: require, module, exports).
func FreeName(v *js.Var, name string) bool {
	r := Root(v)
	return r.Decl == js.NoDecl && string(r.Data) == name
}

// ExportsOf lists the file's export names. A CommonJS file (no import or
// export, and a read of `module` or `exports`) has one: "default", which
// Bun gives module.exports (and Bun takes its other names from
// module.exports when it runs).
func ExportsOf(t *Tree) (names []string, commonJS bool) {
	out := []string{}
	esm, cjs := false, false
	js.Walk(NodeVisitor(func(n js.INode) {
		switch n := n.(type) {
		case *js.ImportStmt, *js.ImportMetaExpr:
			esm = true
		case *js.ExportStmt:
			esm = true
			out = appendExports(out, n)
		case *js.Var:
			if FreeName(n, "module") || FreeName(n, "exports") {
				cjs = true
			}
		}
	}), t.AST)
	if !esm && cjs {
		return []string{"default"}, true
	}
	return out, false
}

func appendExports(out []string, n *js.ExportStmt) []string {
	if n.Default {
		return append(out, "default")
	}
	for _, al := range n.List {
		if name := string(al.Binding); name != "*" && name != "" {
			out = append(out, name)
		}
	}
	switch d := n.Decl.(type) {
	case *js.VarDecl:
		for _, e := range d.List {
			for _, v := range BoundVars(e.Binding, nil) {
				out = append(out, string(v.Data))
			}
		}
	case *js.FuncDecl:
		if d.Name != nil {
			out = append(out, string(d.Name.Data))
		}
	case *js.ClassDecl:
		if d.Name != nil {
			out = append(out, string(d.Name.Data))
		}
	}
	return out
}

// Quoted is the value of a quoted string of esbuild's JavaScript.
func Quoted(b []byte) (string, bool) {
	toks, err := Lex(b)
	if err != nil || len(toks) != 2 || toks[0].Kind != TokString || toks[1].Kind != TokEOF {
		return "", false
	}
	return toks[0].Text, true
}

// NodeVisitor calls f on every node js.Walk reaches.
type NodeVisitor func(n js.INode)

func (f NodeVisitor) Enter(n js.INode) js.IVisitor {
	f(n)
	return f
}

func (f NodeVisitor) Exit(js.INode) {}

// IsJSXRuntime reports whether spec is the import esbuild (like Bun) adds
// for JSX with the automatic runtime.
func IsJSXRuntime(spec string) bool {
	return strings.HasSuffix(spec, "/jsx-dev-runtime") || strings.HasSuffix(spec, "/jsx-runtime")
}

// BoundVars appends the names a binding pattern declares.
func BoundVars(b js.IBinding, out []*js.Var) []*js.Var {
	switch n := b.(type) {
	case *js.Var:
		out = append(out, n)
	case *js.BindingArray:
		for _, e := range n.List {
			out = BoundVars(e.Binding, out)
		}
		out = BoundVars(n.Rest, out)
	case *js.BindingObject:
		for _, it := range n.List {
			out = BoundVars(it.Value.Binding, out)
		}
		if n.Rest != nil {
			out = append(out, n.Rest)
		}
	}
	return out
}

// NamedImport is a name a file imports from another (`import { name }`,
// `import { name as alias }`, `export { name } from`), at the name in the
// import statement.
type NamedImport struct {
	Spec, Name string
	Start, End int
}

// NamedImportsOf lists a file's named imports of relative modules (a
// default or namespace import links whatever the module exports).
func NamedImportsOf(t *Tree) []NamedImport {
	var out []NamedImport
	add := func(module []byte, list []js.Alias) {
		spec, ok := Quoted(module)
		if !ok {
			return
		}
		for _, al := range list {
			name := al.Name
			if name == nil {
				name = al.Binding
			}
			if n := string(name); n == "" || n == "*" || n == "default" {
				continue
			}
			start, end, ok := t.Span(name)
			if !ok {
				continue
			}
			out = append(out, NamedImport{Spec: spec, Name: string(name), Start: start, End: end})
		}
	}
	for _, s := range t.AST.List {
		switch n := s.(type) {
		case *js.ImportStmt:
			add(n.Module, n.List)
		case *js.ExportStmt:
			if n.Module != nil {
				add(n.Module, n.List)
			}
		}
	}
	return out
}

// ReexportsAll reports whether a file has `export * from`: its names are
// another module's, not listed here.
func ReexportsAll(t *Tree) bool {
	for _, s := range t.AST.List {
		if n, ok := s.(*js.ExportStmt); ok && n.Module != nil {
			for _, al := range n.List {
				if al.Name == nil && string(al.Binding) == "*" {
					return true
				}
			}
		}
	}
	return false
}

// Leftmost is the first name or literal of an expression, in source order.
func Leftmost(e js.IExpr) []byte {
	switch n := e.(type) {
	case *js.Var:
		return n.Data
	case *js.LiteralExpr:
		return n.Data
	case *js.NewExpr:
		return Leftmost(n.X)
	case *js.CallExpr:
		return Leftmost(n.X)
	case *js.DotExpr:
		return Leftmost(n.X)
	case *js.IndexExpr:
		return Leftmost(n.X)
	case *js.BinaryExpr:
		return Leftmost(n.X)
	case *js.CondExpr:
		return Leftmost(n.Cond)
	case *js.GroupExpr:
		return Leftmost(n.X)
	case *js.UnaryExpr:
		return Leftmost(n.X)
	case *js.TemplateExpr:
		if n.Tag != nil {
			return Leftmost(n.Tag)
		}
		if len(n.List) > 0 {
			return n.List[0].Value
		}
		return n.Tail
	case *js.ArrayExpr:
		if len(n.List) > 0 {
			return Leftmost(n.List[0].Value)
		}
	case *js.ObjectExpr:
		if len(n.List) > 0 && n.List[0].Name != nil {
			return n.List[0].Name.Literal.Data
		}
	}
	return nil
}
