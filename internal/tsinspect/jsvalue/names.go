package jsvalue

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/resolve"
)

// names.go follows names: the module's own bindings, its imports
// (relative files, data files, files through a tsconfig alias) and exports,
// and the errors reading them throws at load (a name declared nowhere, a
// binding read before its declaration, an import the module does not
// export).

const maxEvalDepth = 64

// ref follows an identifier read at load (at bytes start..end of m) to its
// value. Whether the read throws (a name declared nowhere, a binding read
// before its declaration ran) is the syntax tree's to say (package loadtime).
func (e *Reader) ref(m *File, name string, start, end int) *Value {
	return e.lookup(m, name, start, end, true)
}

// binding follows a name bound by an export (a live binding: no read at a
// position of the source).
func (e *Reader) binding(m *File, name string, start, end int) *Value {
	return e.lookup(m, name, start, end, false)
}

func (e *Reader) lookup(m *File, name string, start, end int, read bool) *Value {
	if name == "undefined" {
		return &Value{Kind: VUndefined, File: m.path, Start: start, End: end}
	}
	v := m.Module[name]
	if read {
		v = m.readAt(start, name)
	}
	b := m.Binds[v]
	if imp, ok := m.imports[name]; ok && (v == nil || v.Decl == js.NoDecl) {
		if why := m.importChangedWhy(name); why != "" {
			return unknown(m, start, end, why)
		}
		return e.imported(m, name, imp, start, end)
	}
	if b == nil && v == nil && read && m.Module[name] != nil {
		return unknown(m, start, end, fmt.Sprintf("the read of `%s` here is not one the syntax tree has (esbuild rewrote it, as it does a namespace's own name): not followed statically", name))
	}
	if b == nil {
		return unknown(m, start, end, fmt.Sprintf("`%s` is not declared in this module", name))
	}
	if why := m.changedWhy(v); why != "" {
		return unknown(m, start, end, why)
	}
	switch b.Kind {
	case BindFunc:
		return &Value{Kind: VFunction, File: m.path, Start: start, End: end}
	case BindClass:
		return &Value{Kind: VClass, File: m.path, Start: start, End: end}
	case BindEnum:
		return e.enumValue(m, name, b, start, end)
	case BindNamespace:
		return e.namespaceValue(m, b)
	case BindConst, BindLet:
		if read && b.hoisted && start < m.Tok(b.At).Start {
			return unknown(m, start, end, fmt.Sprintf("`%s` is a var read above its declaration: undefined if the read runs before it, known only when the module runs", name))
		}
		return e.Declared(m, v, b, start, end)
	case BindMutable:
		return unknown(m, start, end, fmt.Sprintf("`%s` is declared with let or var and assigned again: its value can change", name))
	case BindPattern:
		return unknown(m, start, end, fmt.Sprintf("`%s` is bound by a destructuring: its value is computed when the module runs", name))
	case BindMerged:
		return unknown(m, start, end, fmt.Sprintf("`%s` is an enum or a namespace declared in several blocks, which this inspector does not merge: its members are known when the module runs", name))
	case BindBlock:
		return unknown(m, start, end, fmt.Sprintf("`%s` is declared in a block or a function: its value is set when that code runs", name))
	}
	return unknown(m, start, end, fmt.Sprintf("`%s` is not declared in this module", name))
}

// Declared is the value of a const, or of a let nothing assigns to again,
// b.
func (e *Reader) Declared(m *File, v *js.Var, b *Binding, start, end int) *Value {
	key := declKey{m, v}
	if val, ok := e.consts[key]; ok {
		return val
	}
	if e.busy[key] {
		return unknown(m, start, end, fmt.Sprintf("`%s` refers to itself", v.Data))
	}
	e.busy[key] = true
	val, _ := e.expr(m, b.init, b.At)
	if len(m.sets[v]) > 0 { // followed: changedWhy is "" only then
		val = e.setsOn(m, v, val)
	}
	delete(e.busy, key)
	e.consts[key] = val
	return val
}

// imported follows an import's binding b, read at start..end of m.
func (e *Reader) imported(m *File, name string, b importBinding, start, end int) *Value {
	r := e.res.Resolve(b.Spec, filepath.Dir(m.path))
	if !resolve.IsRelative(b.Spec) && r.Outcome != resolve.ResolvedFile { // a file through a tsconfig alias is followed
		u := unknown(m, start, end, fmt.Sprintf("`%s` comes from the package '%s'", name, b.Spec))
		u.CalleeRef = &b
		return u
	}
	if r.Outcome == resolve.ResolvedFile && dataFile(r.File) {
		return e.dataImport(m, b, r.File, start, end)
	}
	other := e.load(m, b.Spec)
	if other == nil {
		return unknown(m, start, end, fmt.Sprintf("`%s` comes from '%s', which cannot be read", name, b.Spec))
	}
	if b.Name == "*" {
		return &Value{Kind: VNamespace, File: m.path, Start: start, End: end, ns: other}
	}
	return e.export(other, b.Name, m, start, end)
}

// load lexes a relative import of m; nil when it cannot be read or is not a
// script.
func (e *Reader) load(m *File, spec string) *File {
	r := e.res.Resolve(spec, filepath.Dir(m.path))
	if r.Outcome != resolve.ResolvedFile {
		return nil
	}
	if f, ok := e.Files[r.File]; ok {
		return f
	}
	e.Files[r.File] = nil
	switch strings.ToLower(filepath.Ext(r.File)) {
	case ".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".tsx", ".jsx":
	default:
		return nil
	}
	src, err := e.res.Files.ReadFile(r.File)
	if err != nil || !jsfront.TextLike(src) {
		return nil
	}
	toks, lerr := jsfront.Lex(src)
	if lerr != nil {
		return nil
	}
	t := e.tree(r.File, src)
	if t == nil {
		return nil
	}
	f := NewFile(r.File, src, toks, t)
	e.Files[r.File] = f
	return f
}

// export follows an exported name of module f.
func (e *Reader) export(f *File, name string, from *File, start, end int) *Value {
	if e.depth > maxEvalDepth {
		return unknown(from, start, end, "too deeply nested to follow")
	}
	e.depth++
	defer func() { e.depth-- }()
	if name == "default" {
		return e.DefaultValue(f)
	}
	if ref, ok := f.exports[name]; ok {
		if ref.spec == "" {
			t := f.Tok(0) // the binding's declared name, or the file's start
			if v := f.Module[ref.local]; v != nil && f.nameTok(v) >= 0 {
				t = f.Tok(f.nameTok(v))
			}
			return e.binding(f, ref.local, t.Start, t.End)
		}
		if !resolve.IsRelative(ref.spec) {
			return unknown(from, start, end, fmt.Sprintf("`%s` comes from the package '%s'", name, ref.spec))
		}
		other := e.load(f, ref.spec)
		if other == nil {
			return unknown(from, start, end, fmt.Sprintf("`%s` comes from '%s', which cannot be read", name, ref.spec))
		}
		if ref.name == "*" {
			return &Value{Kind: VNamespace, File: f.path, Start: start, End: end, ns: other}
		}
		return e.export(other, ref.name, from, start, end)
	}
	for _, s := range f.stars {
		if !resolve.IsRelative(s) {
			continue
		}
		if other := e.load(f, s); other != nil {
			v := e.export(other, name, from, start, end)
			if v.Kind != VUndefined {
				return v
			}
		}
	}
	// Not found: the reader may have missed a form (`export enum`, several
	// declarators, a destructuring): say so rather than claim undefined.
	return unknown(from, start, end, fmt.Sprintf("`%s` is not found statically among the exports of %s", name, filepath.Base(f.path)))
}

// DefaultValue is the value of f's default export, as far as it is known.
func (e *Reader) DefaultValue(f *File) *Value {
	switch {
	case f.DefaultAt >= 0:
		t := f.Tok(f.DefaultAt)
		switch {
		case t.Kind == jsfront.TokIdent && t.Text == "function":
			v, _ := e.functionExpr(f, f.DefaultAt, t.Start)
			return v
		case t.Kind == jsfront.TokIdent && t.Text == "async" && f.isIdent(f.DefaultAt+1, "function"):
			v, _ := e.functionExpr(f, f.DefaultAt+1, t.Start)
			return v
		}
		cjs := f.isIdent(f.DefaultTok, "module") || f.isPunct(f.DefaultTok+1, "=")
		v, _ := e.expr(f, f.defaultNode, f.DefaultAt)
		if !cjs {
			return v
		}
		if from := f.Tok(f.DefaultTok).Start; slices.ContainsFunc(f.cjsWrites, func(at int) bool { return at > from }) {
			v = e.cjsAfter(f, v, from)
		}
		return esModuleDefault(f, v)
	case f.DefaultLocal != "":
		t := f.Tok(f.DefaultTok)
		return e.binding(f, f.DefaultLocal, t.Start, t.End)
	case f.DefaultFrom != nil:
		t := f.Tok(f.DefaultTok)
		if !resolve.IsRelative(f.DefaultFrom.spec) {
			return unknown(f, t.Start, t.End, fmt.Sprintf("re-exported from the package '%s'", f.DefaultFrom.spec))
		}
		other := e.load(f, f.DefaultFrom.spec)
		if other == nil {
			return unknown(f, t.Start, t.End, fmt.Sprintf("re-exported from '%s', which cannot be read", f.DefaultFrom.spec))
		}
		return e.export(other, f.DefaultFrom.name, f, t.Start, t.End)
	case f.CJSPartial >= 0:
		return esModuleDefault(f, e.cjsExports(f))
	}
	return unknown(f, 0, 0, fmt.Sprintf("no default export is found statically in %s", filepath.Base(f.path)))
}

// esModuleDefault is the default export of a CommonJS module whose
// module.exports is v: v, or, when v sets `__esModule` (the form compilers
// write for an ES module), its `default`, which Bun takes as the default.
func esModuleDefault(f *File, v *Value) *Value {
	if v.Get("__esModule") == nil && v.Complete {
		return v
	}
	if d := v.Get("default"); d != nil && v.Get("__esModule") != nil {
		return d.Val
	}
	if v.Get("default") == nil && v.Get("__esModule") == nil {
		return v
	}
	return unknown(f, v.Start, v.End, "module.exports sets `__esModule` or `default` in a way not followed statically: which object is the default export is known only when the module runs")
}
