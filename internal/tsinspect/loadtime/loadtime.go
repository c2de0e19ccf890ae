package loadtime

import (
	"bytes"
	"path/filepath"

	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/resolve"
)

// loadtime.go reads, on the syntax tree, what a file surely does when it
// loads (loadwalk.go), as facts of its content kept with esbuild's: the
// error that stops it (a name declared nowhere, a binding read before its
// declaration ran, an unconditional `throw`), the calls esbuild does not
// report as imports (`require()` through a `createRequire(...)` of the
// file's own, a synchronous read of a repository file by a literal path),
// and which require() and awaited import() calls run then.

// Facts is what a file surely does when it loads, as far as its
// content tells (what the file system holds is the inspection's to check).
type Facts struct {
	// stop is the error that surely stops the loading (its file unset);
	// nil when none is sure
	stop *Error
	// UnsureThrow is the first `throw` that may run at load, depending on
	// what only running can tell
	UnsureThrow    [2]int
	HasUnsureThrow bool
	AtLoad         map[int]bool // quoted paths of require() and awaited import() calls that run at load
	Requires       []Call       // require() calls through createRequire that run at load
	Reads          []Call       // readFileSync() calls of a literal path that run at load
}

// Call is a call found at load: its literal argument (a module name,
// or a path's parts relative to the file's folder) and the argument's
// extent in the file's text.
type Call struct {
	Spec       string
	Parts      []string
	Start, End int
}

// FactsOf reads the load facts off a file's tree and its walk.
func FactsOf(t *jsfront.Tree, w *loadWalker) Facts {
	f := Facts{AtLoad: map[int]bool{}}
	if s := w.stop; s != nil {
		e := &Error{Msg: s.msg}
		var ok bool
		if s.at != nil {
			e.Start, e.End, ok = t.Span(s.at.Data)
		} else {
			e.Start, e.End, ok = throwSpan(t, s.thrown)
		}
		if !ok {
			e.Start, e.End = 0, 0
		}
		f.stop = e
	}
	for _, th := range w.throws {
		if !th.sure {
			if start, end, ok := throwSpan(t, th.stmt); ok {
				f.UnsureThrow, f.HasUnsureThrow = [2]int{start, end}, true
			}
			break
		}
	}
	for _, call := range w.calls {
		if len(call.Args.List) == 0 {
			continue
		}
		arg := call.Args.List[0].Value
		lit, isLit := arg.(*js.LiteralExpr)
		isLit = isLit && lit.TokenType == js.StringToken
		switch x := call.X.(type) {
		case *js.LiteralExpr:
			if isLit && x.TokenType == js.ImportToken && w.awaited[call] {
				if start, ok := t.Pos(lit.Data); ok {
					f.AtLoad[start] = true
				}
			}
			continue
		case *js.Var:
			if isLit && string(jsfront.Root(x).Data) == "require" {
				if start, ok := t.Pos(lit.Data); ok {
					f.AtLoad[start] = true
				}
			}
		}
		switch calleeName(call.X) {
		case "require":
			spec, ok := stringLiteral(arg)
			if !ok || len(call.Args.List) != 1 || !w.createsRequire(call.X) {
				continue
			}
			if start, end, ok := t.Span(lit.Data); ok {
				f.Requires = append(f.Requires, Call{Spec: spec, Start: start, End: end})
			}
		case "readFileSync":
			parts, ok := literalModulePath(arg)
			if !ok {
				continue
			}
			if start, end, ok := argSpan(t, arg); ok {
				f.Reads = append(f.Reads, Call{Parts: parts, Start: start, End: end})
			}
		}
	}
	return f
}

// StopError is the error that surely stops file's loading; nil when none
// is sure.
func (f *Facts) StopError(file string) *Error {
	if f.stop == nil {
		return nil
	}
	e := *f.stop
	e.File = file
	return &e
}

// throwSpan is the `throw` keyword of a throw statement in the file's
// text: before the start of the thrown expression.
func throwSpan(t *jsfront.Tree, n *js.ThrowStmt) (start, end int, ok bool) {
	first := jsfront.Leftmost(n.Value)
	if first == nil {
		return 0, 0, false
	}
	at, ok := t.Pos(first)
	if !ok {
		return 0, 0, false
	}
	start, ok = t.KeywordBefore(at, "throw")
	return start, start + len("throw"), ok
}

// thrownMessage is what Bun prints for a `throw` of the file: the message
// of `new Error('…')` (any error class) when it is a string literal.
func thrownMessage(n *js.ThrowStmt) string {
	var args *js.Args
	switch x := n.Value.(type) {
	case *js.NewExpr:
		args = x.Args
	case *js.CallExpr:
		args = &x.Args
	}
	if args != nil && len(args.List) > 0 {
		if s, ok := stringLiteral(args.List[0].Value); ok {
			return s
		}
	}
	return "an exception thrown when the module loads"
}

// stringLiteral is the value of a string literal of esbuild's JavaScript,
// its escapes read by JavaScript's rules (the lexer's): esbuild writes a
// character past ASCII as `\xE9` or `\u{1F600}`.
func stringLiteral(e js.IExpr) (string, bool) {
	lit, ok := e.(*js.LiteralExpr)
	if !ok || lit.TokenType != js.StringToken {
		return "", false
	}
	return jsfront.Quoted(lit.Data)
}

// calleeName is the name a call calls: `f` of `f()` and of `x.f()`.
func calleeName(e js.IExpr) string {
	switch n := e.(type) {
	case *js.Var:
		return string(jsfront.Root(n).Data)
	case *js.DotExpr:
		if lit, ok := n.Y.(js.LiteralExpr); ok {
			return string(lit.Data)
		}
	}
	return ""
}

// createsRequire reports whether the callee is a `require` of module scope
// bound to `createRequire(...)`.
func (w *loadWalker) createsRequire(callee js.IExpr) bool {
	v, ok := callee.(*js.Var)
	if !ok {
		return false
	}
	call, ok := w.inits[jsfront.Root(v)].(*js.CallExpr)
	return ok && calleeName(call.X) == "createRequire"
}

// argSpan is an argument call's extent in the file's text: from its first
// name to the `)` that closes it.
func argSpan(t *jsfront.Tree, arg js.IExpr) (start, end int, ok bool) {
	var last []byte
	switch n := arg.(type) {
	case *js.CallExpr:
		if k := len(n.Args.List); k > 0 {
			last = leftmostOrLit(n.Args.List[k-1].Value)
		}
	case *js.NewExpr:
		if n.Args != nil && len(n.Args.List) > 0 {
			last = lastName(n.Args.List[len(n.Args.List)-1].Value)
		}
	}
	first := jsfront.Leftmost(arg)
	if first == nil || last == nil {
		return 0, 0, false
	}
	start, ok = t.Pos(first)
	if !ok {
		return 0, 0, false
	}
	if _, isNew := arg.(*js.NewExpr); isNew {
		if start, ok = t.KeywordBefore(start, "new"); !ok {
			return 0, 0, false
		}
	}
	_, lastEnd, ok := t.Span(last)
	if !ok {
		return 0, 0, false
	}
	src := t.Src
	close := bytes.IndexByte(src[lastEnd:], ')')
	if close < 0 {
		return 0, 0, false
	}
	return start, lastEnd + close + 1, true
}

func leftmostOrLit(e js.IExpr) []byte {
	if lit, ok := e.(*js.LiteralExpr); ok {
		return lit.Data
	}
	return lastName(e)
}

// lastName is the last name of a member chain (`url` of `import.meta.url`).
func lastName(e js.IExpr) []byte {
	switch n := e.(type) {
	case *js.DotExpr:
		if lit, ok := n.Y.(js.LiteralExpr); ok {
			return lit.Data
		}
	case *js.Var:
		return n.Data
	case *js.LiteralExpr:
		return n.Data
	}
	return nil
}

// literalModulePath reads a path made of the module's folder and literal
// parts: `join(import.meta.dir, 'a', 'b')` (also `path.join`, `resolve`,
// `import.meta.dirname`, `__dirname`) or `new URL('./a', import.meta.url)`.
// It returns the parts after the folder.
func literalModulePath(arg js.IExpr) ([]string, bool) {
	switch n := arg.(type) {
	case *js.CallExpr:
		switch calleeName(n.X) {
		case "join", "resolve":
		default:
			return nil, false
		}
		if len(n.Args.List) < 2 || !moduleFolder(n.Args.List[0].Value) {
			return nil, false
		}
		var parts []string
		for _, a := range n.Args.List[1:] {
			s, ok := stringLiteral(a.Value)
			if !ok {
				return nil, false
			}
			parts = append(parts, filepath.FromSlash(s))
		}
		return parts, true
	case *js.NewExpr:
		if v, ok := n.X.(*js.Var); !ok || string(jsfront.Root(v).Data) != "URL" || n.Args == nil || len(n.Args.List) != 2 {
			return nil, false
		}
		spec, ok := stringLiteral(n.Args.List[0].Value)
		if !ok || !resolve.IsRelative(spec) || !importMetaField(n.Args.List[1].Value, "url") {
			return nil, false
		}
		return []string{filepath.FromSlash(spec)}, true
	}
	return nil, false
}

// moduleFolder recognises the module's own folder: `import.meta.dir`,
// `import.meta.dirname` or `__dirname`.
func moduleFolder(e js.IExpr) bool {
	if v, ok := e.(*js.Var); ok {
		return string(jsfront.Root(v).Data) == "__dirname" && jsfront.Root(v).Decl == js.NoDecl
	}
	return importMetaField(e, "dir") || importMetaField(e, "dirname")
}

func importMetaField(e js.IExpr, field string) bool {
	d, ok := e.(*js.DotExpr)
	if !ok {
		return false
	}
	_, meta := d.X.(*js.ImportMetaExpr)
	lit, ok := d.Y.(js.LiteralExpr)
	return meta && ok && string(lit.Data) == field
}

// Error is an error a module throws while it loads, in Bun's words (a
// finding to report, not a Go error).
type Error struct {
	File       string
	Start, End int
	Msg        string
	Hint       string // what to do, after msg
	Link       bool   // found when modules are linked, before any code runs
}
