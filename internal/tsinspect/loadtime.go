package tsinspect

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// loadtime.go reads, on the syntax tree, what a file surely does when it
// loads (loadwalk.go): the error that stops it (a name declared nowhere, a
// binding read before its declaration ran, an unconditional `throw`), the
// calls esbuild does not report as imports (`require()` through a
// `createRequire(...)` of the file's own, a synchronous read of a
// repository file by a literal path), and which require() and awaited
// import() calls run then.

// fileLoad is what one file surely does when it loads.
type fileLoad struct {
	tree *jsTree
	walk *loadWalker
}

// loadOf builds the tree of a file and walks what runs when it loads; nil
// when esbuild or the parser refuse it (esbuild's build reports why).
func (in *Inspector) loadOf(file string, content []byte, jsx jsxOptions) *fileLoad {
	loader, tsconfig := buildOptions(file, jsx)
	t, err := newJSTree(file, content, loader, tsconfig)
	if err != nil {
		return nil
	}
	return &fileLoad{tree: t, walk: walkLoad(t)}
}

// stopError is the error that surely stops the file's loading, at its
// position in the file's text; nil when none is sure.
func (l *fileLoad) stopError() *loadError {
	if l == nil || l.walk.stop == nil {
		return nil
	}
	s := l.walk.stop
	var start, end int
	var ok bool
	if s.at != nil {
		start, end, ok = l.tree.span(s.at.Data)
	} else {
		start, end, ok = l.throwSpan(s.thrown)
	}
	if !ok {
		start, end = 0, 0
	}
	return &loadError{file: l.tree.file, start: start, end: end, msg: s.msg}
}

// unsureThrow is the first `throw` that may run when the file loads,
// depending on what only running can tell; ok is false when none.
func (l *fileLoad) unsureThrow() (start, end int, ok bool) {
	if l == nil {
		return 0, 0, false
	}
	for _, th := range l.walk.throws {
		if !th.sure {
			return l.throwSpan(th.stmt)
		}
	}
	return 0, 0, false
}

// throwSpan is the `throw` keyword of a throw statement in the file's
// text: before the start of the thrown expression.
func (l *fileLoad) throwSpan(n *js.ThrowStmt) (start, end int, ok bool) {
	first := leftmost(n.Value)
	if first == nil {
		return 0, 0, false
	}
	at, ok := l.tree.pos(first)
	if !ok {
		return 0, 0, false
	}
	start, ok = l.tree.keywordBefore(at, "throw")
	return start, start + len("throw"), ok
}

// keywordBefore finds the keyword kw shortly before offset at of the
// file's text (the tree has no position for a keyword).
func (t *jsTree) keywordBefore(at int, kw string) (int, bool) {
	from := max(at-256, 0)
	i := bytes.LastIndex(t.src[from:at], []byte(kw))
	if i < 0 || !wordAt(t.src, from+i, len(kw)) {
		return 0, false
	}
	return from + i, true
}

// leftmost is the first name or literal of an expression, in source order.
func leftmost(e js.IExpr) []byte {
	switch n := e.(type) {
	case *js.Var:
		return n.Data
	case *js.LiteralExpr:
		return n.Data
	case *js.NewExpr:
		return leftmost(n.X)
	case *js.CallExpr:
		return leftmost(n.X)
	case *js.DotExpr:
		return leftmost(n.X)
	case *js.IndexExpr:
		return leftmost(n.X)
	case *js.BinaryExpr:
		return leftmost(n.X)
	case *js.CondExpr:
		return leftmost(n.Cond)
	case *js.GroupExpr:
		return leftmost(n.X)
	case *js.UnaryExpr:
		return leftmost(n.X)
	case *js.TemplateExpr:
		if n.Tag != nil {
			return leftmost(n.Tag)
		}
		if len(n.List) > 0 {
			return n.List[0].Value
		}
		return n.Tail
	case *js.ArrayExpr:
		if len(n.List) > 0 {
			return leftmost(n.List[0].Value)
		}
	case *js.ObjectExpr:
		if len(n.List) > 0 && n.List[0].Name != nil {
			return n.List[0].Name.Literal.Data
		}
	}
	return nil
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

// stringLiteral is the value of a string literal of esbuild's JavaScript.
func stringLiteral(e js.IExpr) (string, bool) {
	lit, ok := e.(*js.LiteralExpr)
	if !ok || lit.TokenType != js.StringToken || len(lit.Data) < 2 {
		return "", false
	}
	raw := string(lit.Data)
	if raw[0] == '\'' {
		raw = `"` + strings.ReplaceAll(strings.ReplaceAll(raw[1:len(raw)-1], `\'`, `'`), `"`, `\"`) + `"`
	}
	s, err := strconv.Unquote(raw)
	return s, err == nil
}

// callsAtLoad are the require() calls and awaited import() calls that run
// when the file loads, by the offset of their quoted path in the file's
// text. Any other such call runs later, if at all: a warning, not an error.
func (l *fileLoad) callsAtLoad() map[int]bool {
	at := map[int]bool{}
	if l == nil {
		return at
	}
	for _, call := range l.walk.calls {
		if len(call.Args.List) == 0 {
			continue
		}
		lit, ok := call.Args.List[0].Value.(*js.LiteralExpr)
		if !ok || lit.TokenType != js.StringToken {
			continue
		}
		switch x := call.X.(type) {
		case *js.Var:
			if string(root(x).Data) != "require" {
				continue
			}
		case *js.LiteralExpr:
			if x.TokenType != js.ImportToken || !l.walk.awaited[call] {
				continue
			}
		default:
			continue
		}
		if start, ok := l.tree.pos(lit.Data); ok {
			at[start] = true
		}
	}
	return at
}

// checkLoadTimeCalls reports the require() calls through createRequire and
// the reads of missing files that run when the module loads; it returns
// the first as the error that stops the module.
func (in *Inspector) checkLoadTimeCalls(c *checker, res *resolver, l *fileLoad) *loadError {
	if l == nil {
		return nil
	}
	t := l.tree
	var first *loadError
	note := func(e *loadError) {
		if first == nil {
			first = e
		}
	}
	dir := filepath.Dir(t.file)
	for _, call := range l.walk.calls {
		if len(call.Args.List) == 0 {
			continue
		}
		arg := call.Args.List[0].Value
		switch calleeName(call.X) {
		case "require":
			spec, ok := stringLiteral(arg)
			if !ok || len(call.Args.List) != 1 || !l.walk.createsRequire(call.X) {
				continue
			}
			rs := res.resolve(spec, dir)
			if rs.outcome != resolveMissing && rs.outcome != resolveOutside {
				continue
			}
			start, end, ok := t.span(arg.(*js.LiteralExpr).Data)
			if !ok {
				continue
			}
			msg := strings.Replace(rs.message, "Cannot find package", "Cannot find module", 1)
			c.add(t.file, start, end, diag.Error, CodeImport, msg+
				" (a require() through createRequire that runs when the module loads)"+importHint(spec, rs))
			note(&loadError{file: t.file, start: start, end: end, msg: msg})
		case "readFileSync":
			p, ok := literalModulePath(arg, dir)
			if !ok || !vfs.Within(res.repoRoot, p) || res.t.isFile(p) || res.t.isDir(p) {
				continue
			}
			start, end, ok := l.argSpan(arg)
			if !ok {
				continue
			}
			rel := filepath.ToSlash(res.rel(p))
			msg := fmt.Sprintf("ENOENT: no such file or directory, open '%s'", rel)
			c.add(t.file, start, end, diag.Error, CodeThrowsAtLoad, msg+
				" (read when the module loads: the daemon skips it); add the file to the repository, or read it in `execute`")
			note(&loadError{file: t.file, start: start, end: end, msg: msg})
		}
	}
	return first
}

// calleeName is the name a call calls: `f` of `f()` and of `x.f()`.
func calleeName(e js.IExpr) string {
	switch n := e.(type) {
	case *js.Var:
		return string(root(n).Data)
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
	call, ok := w.inits[root(v)].(*js.CallExpr)
	return ok && calleeName(call.X) == "createRequire"
}

// argSpan is an argument call's extent in the file's text: from its first
// name to the `)` that closes it.
func (l *fileLoad) argSpan(arg js.IExpr) (start, end int, ok bool) {
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
	first := leftmost(arg)
	if first == nil || last == nil {
		return 0, 0, false
	}
	start, ok = l.tree.pos(first)
	if !ok {
		return 0, 0, false
	}
	if _, isNew := arg.(*js.NewExpr); isNew {
		if start, ok = l.tree.keywordBefore(start, "new"); !ok {
			return 0, 0, false
		}
	}
	_, lastEnd, ok := l.tree.span(last)
	if !ok {
		return 0, 0, false
	}
	src := l.tree.src
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
func literalModulePath(arg js.IExpr, dir string) (string, bool) {
	switch n := arg.(type) {
	case *js.CallExpr:
		switch calleeName(n.X) {
		case "join", "resolve":
		default:
			return "", false
		}
		if len(n.Args.List) < 2 || !moduleFolder(n.Args.List[0].Value) {
			return "", false
		}
		parts := []string{dir}
		for _, a := range n.Args.List[1:] {
			s, ok := stringLiteral(a.Value)
			if !ok {
				return "", false
			}
			parts = append(parts, filepath.FromSlash(s))
		}
		return filepath.Join(parts...), true
	case *js.NewExpr:
		if v, ok := n.X.(*js.Var); !ok || string(root(v).Data) != "URL" || n.Args == nil || len(n.Args.List) != 2 {
			return "", false
		}
		spec, ok := stringLiteral(n.Args.List[0].Value)
		if !ok || !isRelative(spec) || !importMetaField(n.Args.List[1].Value, "url") {
			return "", false
		}
		return filepath.Join(dir, filepath.FromSlash(spec)), true
	}
	return "", false
}

// moduleFolder recognises the module's own folder: `import.meta.dir`,
// `import.meta.dirname` or `__dirname`.
func moduleFolder(e js.IExpr) bool {
	if v, ok := e.(*js.Var); ok {
		return string(root(v).Data) == "__dirname" && root(v).Decl == js.NoDecl
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
