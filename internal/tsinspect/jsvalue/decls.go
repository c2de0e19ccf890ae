package jsvalue

import (
	"sort"

	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// decls.go reads a module's declarations off its syntax tree for the value
// reader: which binding each name read means (the tree's scopes: a name
// bound again in an inner scope is that scope's), the module's const, let
// and var bindings (a `let` is followed when nothing assigns to it again),
// functions, classes, TypeScript enums and namespaces (in esbuild's lowered
// form), imports and exports. What only the text you wrote has is taken
// from its tokens: where each declaration's value starts (so that values
// keep their positions and extents in your text), and `export default
// interface`, which esbuild erases.

// importBinding is a local name bound by an import declaration.
type importBinding struct {
	Spec string
	Name string // "default", "*", or the imported name
}

// exportRef says where an exported name's value comes from.
type exportRef struct {
	local string // a local binding of this module, or
	spec  string // a re-export: the module it comes from
	name  string // and its name there ("*" for `export * as ns`)
}

// BindKind is how a name was declared, which tells whether its value can
// be known.
type BindKind int

const (
	BindConst     BindKind = iota + 1
	BindLet                // a let or var with a value that nothing assigns to again
	BindMutable            // a let or var assigned again, or without a value
	BindFunc               // a function declaration
	BindClass              // a class declaration
	BindEnum               // a TypeScript enum
	BindNamespace          // a TypeScript namespace
	BindPattern            // bound by a destructuring pattern
	BindBlock              // declared with var in a block, a loop or a function
	BindMerged             // an enum or a namespace declared in several blocks
)

// Binding is what the value reader knows of a declared name.
type Binding struct {
	Kind BindKind
	// At is a token index of the module's text: a const's or let's
	// initializer, the `class` keyword, the `{` of an enum or a namespace
	// (-1 when the text does not have the expected form)
	At int
	// fn is the function esbuild lowers an enum's or a namespace's body to
	fn *js.ArrowFunc
	// class is a class declaration's tree
	class *js.ClassDecl
	// init is a const's or let's initializer
	init js.IExpr
	// hoisted marks a `var`: read before its initializer ran, it is
	// undefined
	hoisted bool
}

// File is one module as the value reader sees it: its text and tokens
// (positions and extents) and its syntax tree (declarations and scopes).
type File struct {
	path   string
	Src    []byte
	toks   []jsfront.Token
	Tree   *jsfront.Tree
	Module map[string]*js.Var // the module scope's names
	Binds  map[*js.Var]*Binding
	reads  map[int]*js.Var // the declaration a read at an offset of src means
	// imports by local name (the tree leaves an import's binding
	// undeclared: a read of one links to no declaration)
	imports map[string]importBinding
	// exports by name; stars: `export * from '...'`
	exports map[string]exportRef
	stars   []string
	// DefaultAt is the token index of the default export's expression (or
	// of its `function`/`class` keyword); -1 when there is none.
	DefaultAt int
	// defaultNode is the default export's expression on the tree.
	defaultNode js.IExpr
	// DefaultTok is the `export` (or `module`) token that starts it.
	DefaultTok int
	// DefaultLocal is set by `export { x as default }`.
	DefaultLocal string
	// DefaultFrom is set by `export { default } from './x'`.
	DefaultFrom *exportRef
	// CJSPartial is the token of the last `exports.x` / `module.exports.x`.
	CJSPartial int
	// written are the bindings whose objects are changed after they are
	// built, each at the offset of its first change (writes.go); cjsWrites
	// are the offsets of the changes of module.exports.
	written   map[*js.Var]int
	cjsWrites []int
	// writes counts the changes of each binding; sets are its top-level
	// `x.k = value` statements, which the reader may follow (followed)
	writes  map[*js.Var]int
	sets    map[*js.Var][]*js.BinaryExpr
	follows map[*js.Var]bool // followed's answers
	// writtenFree are the same for undeclared names (imports), by name
	writtenFree map[string]int
	// bodies are the extents of the enums' and namespaces' bodies in the
	// text, found when first needed (readAt)
	bodies [][2]int
	// exportOffs are the offsets of esbuild's `export` keywords, found
	// when first needed (exportAt)
	exportOffs []int
}

// NewFile reads the declarations of a module from its tree t and the
// tokens of its text.
func NewFile(path string, src []byte, toks []jsfront.Token, t *jsfront.Tree) *File {
	m := &File{
		path: path, Src: src, toks: toks, Tree: t,
		Module: map[string]*js.Var{}, Binds: map[*js.Var]*Binding{}, reads: map[int]*js.Var{},
		imports: map[string]importBinding{},
		exports: map[string]exportRef{}, DefaultAt: -1, DefaultTok: -1, CJSPartial: -1,
		written: map[*js.Var]int{}, writtenFree: map[string]int{},
		writes: map[*js.Var]int{}, sets: map[*js.Var][]*js.BinaryExpr{}, follows: map[*js.Var]bool{},
	}
	for _, v := range t.AST.Scope.Declared {
		m.Module[string(v.Data)] = v
	}
	assigned, initialized := map[*js.Var]bool{}, map[*js.Var]bool{}
	cjsAt := -1
	js.Walk(jsfront.NodeVisitor(func(n js.INode) {
		m.noteWrite(n)
		switch n := n.(type) {
		case *js.Var:
			if n.Link == nil {
				return
			}
			if at, ok := t.Pos(n.Data); ok {
				m.reads[at] = jsfront.Root(n)
			}
		case *js.DotExpr:
			cjsAt = max(cjsAt, exportsMemberAt(t, n.X))
		case *js.IndexExpr:
			cjsAt = max(cjsAt, exportsMemberAt(t, n.X))
		case *js.CallExpr:
			for _, a := range n.Args.List {
				cjsAt = max(cjsAt, exportsMemberAt(t, a.Value))
			}
		case *js.BinaryExpr:
			if isAssignment(n.Op) {
				assignedIn(n.X, assigned)
			}
		case *js.UnaryExpr:
			switch n.Op {
			case js.PreIncrToken, js.PreDecrToken, js.PostIncrToken, js.PostDecrToken:
				assignedIn(n.X, assigned)
			}
		case *js.ForInStmt:
			assignedIn(n.Init, assigned)
		case *js.ForOfStmt:
			assignedIn(n.Init, assigned)
		case *js.FuncDecl:
			if n.Name != nil {
				m.Binds[n.Name] = &Binding{Kind: BindFunc, At: -1}
			}
		case *js.ClassDecl:
			if n.Name != nil {
				m.Binds[n.Name] = &Binding{Kind: BindClass, At: m.before(n.Name, "class"), class: n}
			}
		case *js.VarDecl:
			for _, el := range n.List {
				for _, v := range jsfront.BoundVars(el.Binding, nil) {
					if m.Binds[v] == nil {
						m.Binds[v] = &Binding{Kind: BindBlock, At: -1}
					}
					if el.Default != nil {
						// a second `var x = ...` assigns x again
						r := jsfront.Root(v)
						assigned[r] = assigned[r] || initialized[r]
						initialized[r] = true
					}
				}
			}
		}
	}), t.AST)
	m.statements(t.AST.List, assigned)
	m.topSets()
	if cjsAt >= 0 {
		m.CJSPartial = m.tokenAt(cjsAt)
	}
	return m
}

// statements reads the declarations of a statement list that surely runs
// in order (the module's, a namespace's body).
func (m *File) statements(list []js.IStmt, assigned map[*js.Var]bool) {
	for _, s := range list {
		switch n := s.(type) {
		case *js.VarDecl:
			m.varDecl(n, assigned)
		case *js.ExprStmt:
			m.exprStmt(n, assigned)
		case *js.ImportStmt:
			m.importStmt(n)
		case *js.ExportStmt:
			m.exportStmt(n, assigned)
		}
	}
}

func (m *File) varDecl(n *js.VarDecl, assigned map[*js.Var]bool) {
	for _, el := range n.List {
		v, ok := el.Binding.(*js.Var)
		if !ok {
			for _, p := range jsfront.BoundVars(el.Binding, nil) {
				m.Binds[p] = &Binding{Kind: BindPattern, At: -1}
			}
			continue
		}
		b := &Binding{Kind: BindMutable, At: -1}
		switch {
		case el.Default != nil && isEnum(v, el.Default) && assigned[jsfront.Root(v)]:
			b = &Binding{Kind: BindMerged, At: -1} // `E = ((E2) => ...)(E || {})`: another block
		case el.Default != nil && isEnum(v, el.Default):
			fn := el.Default.(*js.CallExpr).X.(*js.GroupExpr).X.(*js.ArrowFunc)
			b = &Binding{Kind: BindEnum, At: m.after(v, "{"), fn: fn}
		case el.Default == nil:
		case n.TokenType == js.ConstToken:
			b = &Binding{Kind: BindConst, At: m.initializer(v), init: el.Default}
		case !assigned[v]:
			b = &Binding{Kind: BindLet, At: m.initializer(v), init: el.Default, hoisted: n.TokenType == js.VarToken}
		}
		if b.At < 0 && b.Kind != BindMutable && b.Kind != BindMerged {
			b.Kind = BindBlock // not the form the text was expected to have
		}
		m.Binds[v] = b
	}
}

// isEnum recognises esbuild's lowering of `enum E { ... }`:
// `var E = ((E2) => { ... })(E || {})`.
func isEnum(v *js.Var, init js.IExpr) bool {
	call, ok := init.(*js.CallExpr)
	if !ok || len(call.Args.List) != 1 || !isIIFEArrow(call.X) {
		return false
	}
	or, ok := call.Args.List[0].Value.(*js.BinaryExpr)
	if !ok || or.Op != js.OrToken {
		return false
	}
	x, ok := or.X.(*js.Var)
	_, empty := or.Y.(*js.ObjectExpr)
	return ok && jsfront.Root(x) == v && empty
}

func isIIFEArrow(x js.IExpr) bool {
	if g, ok := x.(*js.GroupExpr); ok {
		_, ok := g.X.(*js.ArrowFunc)
		return ok
	}
	return false
}

// exprStmt reads esbuild's lowering of `namespace N { ... }`
// (`((N2) => { ... })(N || (N = {}))`) and CommonJS's
// `module.exports = ...`.
func (m *File) exprStmt(n *js.ExprStmt, assigned map[*js.Var]bool) {
	switch x := n.Value.(type) {
	case *js.CallExpr:
		if !isIIFEArrow(x.X) || len(x.Args.List) != 1 {
			return
		}
		or, ok := x.Args.List[0].Value.(*js.BinaryExpr)
		if !ok || or.Op != js.OrToken {
			return
		}
		if v, ok := or.X.(*js.Var); ok {
			r := jsfront.Root(v)
			if b := m.Binds[r]; b != nil && (b.Kind == BindEnum || b.Kind == BindNamespace) {
				m.Binds[r] = &Binding{Kind: BindMerged, At: -1} // a second block of the same name
				return
			}
			if m.Binds[r] != nil && m.Binds[r].Kind == BindMutable && m.after(r, "{") >= 0 {
				fn := x.X.(*js.GroupExpr).X.(*js.ArrowFunc)
				m.Binds[r] = &Binding{Kind: BindNamespace, At: m.after(r, "{"), fn: fn}
				m.statements(fn.Body.List, assigned)
			}
		}
	case *js.BinaryExpr:
		d, ok := x.X.(*js.DotExpr)
		if !ok || x.Op != js.EqToken || !isModuleExports(d) {
			return
		}
		mod := d.X.(*js.Var)
		at, ok := m.Tree.Mapped(mod.Data)
		if !ok {
			return
		}
		i := m.tokenAt(at)
		switch {
		case m.isIdent(i, "export") && m.isPunct(i+1, "="): // TypeScript's `export =`
			m.DefaultAt, m.DefaultTok, m.defaultNode = i+2, i, x.Y
		case m.isIdent(i, "module") && m.isPunct(i+3, "="):
			m.DefaultAt, m.DefaultTok, m.defaultNode = i+4, i, x.Y
		}
	}
}

func isModuleExports(d *js.DotExpr) bool {
	v, ok := d.X.(*js.Var)
	y, isLit := d.Y.(js.LiteralExpr)
	return ok && isLit && jsfront.FreeName(v, "module") && string(y.Data) == "exports"
}

func (m *File) importStmt(n *js.ImportStmt) {
	spec, ok := jsfront.Quoted(n.Module)
	if !ok {
		return
	}
	bind := func(local []byte, name string) {
		m.imports[string(local)] = importBinding{Spec: spec, Name: name}
	}
	if n.Default != nil {
		bind(n.Default, "default")
	}
	for _, al := range n.List {
		name := al.Name
		if name == nil {
			name = al.Binding
		}
		bind(al.Binding, string(name))
	}
}

func (m *File) exportStmt(n *js.ExportStmt, assigned map[*js.Var]bool) {
	spec := ""
	if n.Module != nil {
		var ok bool
		if spec, ok = jsfront.Quoted(n.Module); !ok {
			return
		}
	}
	switch {
	case n.Default:
		if at := m.exportAt(n); at >= 0 && m.isIdent(at+1, "default") {
			m.DefaultTok, m.DefaultAt, m.defaultNode = at, at+2, n.Decl
			for m.isIdent(m.DefaultAt, "abstract") || m.isIdent(m.DefaultAt, "declare") {
				m.DefaultAt++
			}
		}
		return
	case n.Decl != nil:
		switch d := n.Decl.(type) {
		case *js.VarDecl:
			m.varDecl(d, assigned)
			for _, el := range d.List {
				for _, v := range jsfront.BoundVars(el.Binding, nil) {
					m.exports[string(v.Data)] = exportRef{local: string(v.Data)}
				}
			}
		case *js.FuncDecl:
			if d.Name != nil {
				m.exports[string(d.Name.Data)] = exportRef{local: string(d.Name.Data)}
			}
		case *js.ClassDecl:
			if d.Name != nil {
				m.exports[string(d.Name.Data)] = exportRef{local: string(d.Name.Data)}
			}
		}
		return
	}
	for _, al := range n.List {
		local, exported := string(al.Name), string(al.Binding)
		if al.Name == nil {
			local = exported
		}
		switch {
		case exported == "*": // export * from '...'
			m.stars = append(m.stars, spec)
			continue
		case exported == "default" && spec != "":
			m.DefaultFrom = &exportRef{spec: spec, name: local}
		case exported == "default":
			m.DefaultLocal = local
		case spec != "":
			m.exports[exported] = exportRef{spec: spec, name: local}
			continue
		default:
			m.exports[exported] = exportRef{local: local}
			continue
		}
		if at := m.exportAt(n); at >= 0 {
			m.DefaultTok = at
		}
	}
}

// nameTok is the token index of the declared name v in the module's text,
// -1 when its declaration has no position.
func (m *File) nameTok(v *js.Var) int {
	site := m.Tree.DeclAt[v]
	if site == nil {
		return -1
	}
	at, ok := m.Tree.Pos(site)
	if !ok {
		return -1
	}
	if i := m.tokenAt(at); m.Tok(i).Kind == jsfront.TokIdent && m.Tok(i).Start == at {
		return i
	}
	return -1
}

// initializer is the token index of the value a declarator binds v to:
// after the name, a `!` and a type annotation, the `=`.
func (m *File) initializer(v *js.Var) int {
	i := m.nameTok(v)
	if i < 0 {
		return -1
	}
	j := i + 1
	if m.isPunct(j, "!") {
		j++
	}
	if m.isPunct(j, ":") {
		j = skipType(m.toks, j+1)
	}
	if !m.isPunct(j, "=") {
		return -1
	}
	return j + 1
}

// after is the token index after v's declared name when that token is p.
func (m *File) after(v *js.Var, p string) int {
	if i := m.nameTok(v); i >= 0 && m.isPunct(i+1, p) {
		return i + 1
	}
	return -1
}

// before is the token index before v's declared name when that token is
// the keyword kw.
func (m *File) before(v *js.Var, kw string) int {
	if i := m.nameTok(v); i > 0 && m.isIdent(i-1, kw) {
		return i - 1
	}
	return -1
}

// tokenAt is the index of the first token that starts at or after offset.
func (m *File) tokenAt(offset int) int {
	return sort.Search(len(m.toks), func(i int) bool { return m.toks[i].Start >= offset })
}

// readAt is the declaration the read of name at offset means: the tree's.
// For a read the tree does not have (esbuild inlined a const, or an enum
// member), the module's binding of the name, but none inside an enum's or
// a namespace's body, where esbuild writes a read of the body's own
// member as `N2.name`: that binding is not the module's.
func (m *File) readAt(offset int, name string) *js.Var {
	if v, ok := m.reads[offset]; ok && offset+len(name) <= len(m.Src) && string(m.Src[offset:offset+len(name)]) == name {
		return v
	}
	if m.bodies == nil {
		m.bodies = [][2]int{}
		for _, b := range m.Binds {
			if (b.Kind == BindNamespace || b.Kind == BindEnum) && b.At >= 0 {
				m.bodies = append(m.bodies, [2]int{m.Tok(b.At).Start, m.Tok(matching(m.toks, b.At)).End})
			}
		}
	}
	for _, r := range m.bodies {
		if r[0] < offset && offset < r[1] {
			return nil
		}
	}
	return m.Module[name]
}

// Global reports whether the name read at offset is not declared in the
// module (a global, such as `Object`).
func (m *File) Global(offset int, name string) bool {
	v := m.readAt(offset, name)
	_, imported := m.imports[name]
	return (v == nil || v.Decl == js.NoDecl) && !imported
}

// isAssignment reports whether op assigns to its left side.
func isAssignment(op js.TokenType) bool {
	switch op {
	case js.EqToken, js.AddEqToken, js.SubEqToken, js.MulEqToken, js.DivEqToken, js.ModEqToken, js.ExpEqToken,
		js.LtLtEqToken, js.GtGtEqToken, js.GtGtGtEqToken, js.BitAndEqToken, js.BitOrEqToken, js.BitXorEqToken,
		js.AndEqToken, js.OrEqToken, js.NullishEqToken:
		return true
	}
	return false
}

// assignedIn marks the names an assignment's target writes: a name, or
// every name of a destructuring pattern.
func assignedIn(x js.INode, out map[*js.Var]bool) {
	if x == nil {
		return
	}
	if v, ok := x.(*js.Var); ok {
		out[jsfront.Root(v)] = true
		return
	}
	switch x.(type) {
	case *js.ArrayExpr, *js.ObjectExpr:
		js.Walk(jsfront.NodeVisitor(func(n js.INode) {
			if v, ok := n.(*js.Var); ok {
				out[jsfront.Root(v)] = true
			}
		}), x)
	}
}

func (m *File) Tok(i int) jsfront.Token {
	if i < 0 || i >= len(m.toks) {
		return jsfront.Token{Kind: jsfront.TokEOF, Start: len(m.Src), End: len(m.Src)}
	}
	return m.toks[i]
}

func (m *File) isPunct(i int, p string) bool {
	t := m.Tok(i)
	return t.Kind == jsfront.TokPunct && t.Text == p
}

func (m *File) isIdent(i int, s string) bool {
	t := m.Tok(i)
	return t.Kind == jsfront.TokIdent && t.Text == s
}
