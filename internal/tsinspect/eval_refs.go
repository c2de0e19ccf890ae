package tsinspect

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/resolve"
)

// eval_refs.go follows names: the module's own bindings, its imports
// (relative files, data files, files through a tsconfig alias) and exports,
// and the errors reading them throws at load (a name declared nowhere, a
// binding read before its declaration, an import the module does not
// export).

const maxEvalDepth = 64

// ref follows an identifier read at load (at bytes start..end of m) to its
// value. Whether the read throws (a name declared nowhere, a binding read
// before its declaration ran) is the syntax tree's to say (loadwalk.go).
func (e *evaluator) ref(m *modFile, name string, start, end int) *value {
	return e.lookup(m, name, start, end, true)
}

// binding follows a name bound by an export (a live binding: no read at a
// position of the source).
func (e *evaluator) binding(m *modFile, name string, start, end int) *value {
	return e.lookup(m, name, start, end, false)
}

func (e *evaluator) lookup(m *modFile, name string, start, end int, read bool) *value {
	if name == "undefined" {
		return &value{kind: vUndefined, file: m.path, start: start, end: end}
	}
	v := m.module[name]
	if read {
		v = m.readAt(start, name)
	}
	b := m.binds[v]
	if imp, ok := m.imports[name]; ok && (v == nil || v.Decl == js.NoDecl) {
		if why := m.importChangedWhy(name); why != "" {
			return unknown(m, start, end, why)
		}
		return e.imported(m, name, imp, start, end)
	}
	if b == nil && v == nil && read && m.module[name] != nil {
		return unknown(m, start, end, fmt.Sprintf("the read of `%s` here is not one the syntax tree has (esbuild rewrote it, as it does a namespace's own name): not followed statically", name))
	}
	if b == nil {
		return unknown(m, start, end, fmt.Sprintf("`%s` is not declared in this module", name))
	}
	if why := m.changedWhy(v); why != "" {
		return unknown(m, start, end, why)
	}
	switch b.kind {
	case bFunc:
		return &value{kind: vFunction, file: m.path, start: start, end: end}
	case bClass:
		return &value{kind: vClass, file: m.path, start: start, end: end}
	case bEnum:
		return e.enumValue(m, name, b, start, end)
	case bNamespace:
		return e.namespaceValue(m, b)
	case bConst, bLet:
		if read && b.hoisted && start < m.tok(b.at).Start {
			return unknown(m, start, end, fmt.Sprintf("`%s` is a var read above its declaration: undefined if the read runs before it, known only when the module runs", name))
		}
		return e.declared(m, v, b, start, end)
	case bMutable:
		return unknown(m, start, end, fmt.Sprintf("`%s` is declared with let or var and assigned again: its value can change", name))
	case bPattern:
		return unknown(m, start, end, fmt.Sprintf("`%s` is bound by a destructuring: its value is computed when the module runs", name))
	case bMerged:
		return unknown(m, start, end, fmt.Sprintf("`%s` is an enum or a namespace declared in several blocks, which this inspector does not merge: its members are known when the module runs", name))
	case bBlock:
		return unknown(m, start, end, fmt.Sprintf("`%s` is declared in a block or a function: its value is set when that code runs", name))
	}
	return unknown(m, start, end, fmt.Sprintf("`%s` is not declared in this module", name))
}

// declared is the value of a const, or of a let nothing assigns to again,
// b.
func (e *evaluator) declared(m *modFile, v *js.Var, b *binding, start, end int) *value {
	key := declKey{m, v}
	if val, ok := e.consts[key]; ok {
		return val
	}
	if e.busy[key] {
		return unknown(m, start, end, fmt.Sprintf("`%s` refers to itself", v.Data))
	}
	e.busy[key] = true
	val, _ := e.expr(m, b.init, b.at)
	if len(m.sets[v]) > 0 { // followed: changedWhy is "" only then
		val = e.setsOn(m, v, val)
	}
	delete(e.busy, key)
	e.consts[key] = val
	return val
}

// imported follows an import's binding b, read at start..end of m.
func (e *evaluator) imported(m *modFile, name string, b importBinding, start, end int) *value {
	r := e.res.Resolve(b.spec, filepath.Dir(m.path))
	if !resolve.IsRelative(b.spec) && r.Outcome != resolve.ResolvedFile { // a file through a tsconfig alias is followed
		u := unknown(m, start, end, fmt.Sprintf("`%s` comes from the package '%s'", name, b.spec))
		u.calleeRef = &b
		return u
	}
	if r.Outcome == resolve.ResolvedFile && dataFile(r.File) {
		return e.dataImport(m, b, r.File, start, end)
	}
	other := e.load(m, b.spec)
	if other == nil {
		return unknown(m, start, end, fmt.Sprintf("`%s` comes from '%s', which cannot be read", name, b.spec))
	}
	if b.name == "*" {
		return &value{kind: vNamespace, file: m.path, start: start, end: end, ns: other}
	}
	return e.export(other, b.name, m, start, end)
}

// load lexes a relative import of m; nil when it cannot be read or is not a
// script.
func (e *evaluator) load(m *modFile, spec string) *modFile {
	r := e.res.Resolve(spec, filepath.Dir(m.path))
	if r.Outcome != resolve.ResolvedFile {
		return nil
	}
	if f, ok := e.files[r.File]; ok {
		return f
	}
	e.files[r.File] = nil
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
	f := newModFile(r.File, src, toks, t)
	e.files[r.File] = f
	return f
}

// export follows an exported name of module f.
func (e *evaluator) export(f *modFile, name string, from *modFile, start, end int) *value {
	if e.depth > maxEvalDepth {
		return unknown(from, start, end, "too deeply nested to follow")
	}
	e.depth++
	defer func() { e.depth-- }()
	if name == "default" {
		return e.defaultValue(f)
	}
	if ref, ok := f.exports[name]; ok {
		if ref.spec == "" {
			t := f.tok(0) // the binding's declared name, or the file's start
			if v := f.module[ref.local]; v != nil && f.nameTok(v) >= 0 {
				t = f.tok(f.nameTok(v))
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
			return &value{kind: vNamespace, file: f.path, start: start, end: end, ns: other}
		}
		return e.export(other, ref.name, from, start, end)
	}
	for _, s := range f.stars {
		if !resolve.IsRelative(s) {
			continue
		}
		if other := e.load(f, s); other != nil {
			v := e.export(other, name, from, start, end)
			if v.kind != vUndefined {
				return v
			}
		}
	}
	// Not found: the reader may have missed a form (`export enum`, several
	// declarators, a destructuring): say so rather than claim undefined.
	return unknown(from, start, end, fmt.Sprintf("`%s` is not found statically among the exports of %s", name, filepath.Base(f.path)))
}

// defaultValue is the value of f's default export, as far as it is known.
func (e *evaluator) defaultValue(f *modFile) *value {
	switch {
	case f.defaultAt >= 0:
		t := f.tok(f.defaultAt)
		switch {
		case t.Kind == jsfront.TokIdent && t.Text == "function":
			v, _ := e.functionExpr(f, f.defaultAt, t.Start)
			return v
		case t.Kind == jsfront.TokIdent && t.Text == "async" && f.isIdent(f.defaultAt+1, "function"):
			v, _ := e.functionExpr(f, f.defaultAt+1, t.Start)
			return v
		}
		cjs := f.isIdent(f.defaultTok, "module") || f.isPunct(f.defaultTok+1, "=")
		v, _ := e.expr(f, f.defaultNode, f.defaultAt)
		if !cjs {
			return v
		}
		if from := f.tok(f.defaultTok).Start; slices.ContainsFunc(f.cjsWrites, func(at int) bool { return at > from }) {
			v = e.cjsAfter(f, v, from)
		}
		return esModuleDefault(f, v)
	case f.defaultLocal != "":
		t := f.tok(f.defaultTok)
		return e.binding(f, f.defaultLocal, t.Start, t.End)
	case f.defaultFrom != nil:
		t := f.tok(f.defaultTok)
		if !resolve.IsRelative(f.defaultFrom.spec) {
			return unknown(f, t.Start, t.End, fmt.Sprintf("re-exported from the package '%s'", f.defaultFrom.spec))
		}
		other := e.load(f, f.defaultFrom.spec)
		if other == nil {
			return unknown(f, t.Start, t.End, fmt.Sprintf("re-exported from '%s', which cannot be read", f.defaultFrom.spec))
		}
		return e.export(other, f.defaultFrom.name, f, t.Start, t.End)
	case f.cjsPartial >= 0:
		return esModuleDefault(f, e.cjsExports(f))
	}
	return unknown(f, 0, 0, fmt.Sprintf("no default export is found statically in %s", filepath.Base(f.path)))
}

// esModuleDefault is the default export of a CommonJS module whose
// module.exports is v: v, or, when v sets `__esModule` (the form compilers
// write for an ES module), its `default`, which Bun takes as the default.
func esModuleDefault(f *modFile, v *value) *value {
	if v.get("__esModule") == nil && v.complete {
		return v
	}
	if d := v.get("default"); d != nil && v.get("__esModule") != nil {
		return d.val
	}
	if v.get("default") == nil && v.get("__esModule") == nil {
		return v
	}
	return unknown(f, v.start, v.end, "module.exports sets `__esModule` or `default` in a way not followed statically: which object is the default export is known only when the module runs")
}
