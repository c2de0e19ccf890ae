package tsinspect

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// loadtime.go finds the calls a module makes when it loads that esbuild
// does not report as imports: `require()` through a `createRequire(...)` of
// the module's own (esbuild sees a local `require`, not an import), and a
// synchronous read of a repository file named by a literal path
// (`readFileSync(join(import.meta.dir, 'flags.json'))`). Only statements
// that surely run are looked at: module scope, outside any function, block
// or condition (`if`, `?:`, `&&`, `||`, `??`, `try`).

// loadCall is a call found at load: the callee token and its `(`.
type loadCall struct {
	callee, open int // token indices
}

// unconditionalCalls finds the calls of the named functions in statements
// of module scope that run unconditionally. One pass.
func unconditionalCalls(toks []token, names map[string]bool) []loadCall {
	var out []loadCall
	braces, parens := 0, 0
	fn, cond := false, false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.kind {
		case tokPunct:
			switch t.text {
			case "{":
				braces++
			case "}":
				braces--
				if braces == 0 && parens == 0 {
					fn, cond = false, false // a block statement or a function body ended
				}
			case "(", "[":
				parens++
			case ")", "]":
				parens--
			case "=>":
				fn = true
			case "?", "&&", "||", "??", "?.", "&&=", "||=", "??=":
				cond = true
			case ";":
				if braces == 0 && parens == 0 {
					fn, cond = false, false
				}
			}
		case tokIdent:
			if braces != 0 {
				continue
			}
			switch t.text {
			case "function", "class":
				fn = true
			case "if", "for", "while", "do", "switch", "try", "catch", "else":
				if parens == 0 {
					cond = true
				}
			case "const", "let", "var", "import", "export":
				if parens == 0 {
					fn, cond = false, false
				}
			}
			if names[t.text] && !fn && !cond && i+1 < len(toks) && toks[i+1].kind == tokPunct && toks[i+1].text == "(" {
				if i > 0 && toks[i-1].kind == tokIdent && (toks[i-1].text == "function" || toks[i-1].text == "typeof") {
					continue
				}
				out = append(out, loadCall{callee: i, open: i + 1})
			}
		}
	}
	return out
}

// createsRequire reports whether the module binds `require` to
// `createRequire(...)` at its top level.
func createsRequire(m *modFile) bool {
	at, ok := m.consts["require"]
	return ok && m.isIdent(at, "createRequire") && m.isPunct(at+1, "(")
}

// checkLoadTimeCalls reports the require() calls through createRequire and
// the reads of missing files that run when the module loads.
func (in *Inspector) checkLoadTimeCalls(c *checker, res *resolver, m *modFile) *loadError {
	names := map[string]bool{"readFileSync": true}
	req := createsRequire(m)
	if req {
		names["require"] = true
	}
	var first *loadError
	note := func(e *loadError) {
		if first == nil {
			first = e
		}
	}
	dir := filepath.Dir(m.path)
	for _, call := range unconditionalCalls(m.toks, names) {
		arg := m.tok(call.open + 1)
		switch m.tok(call.callee).text {
		case "require":
			if arg.kind != tokString || !m.isPunct(call.open+2, ")") {
				continue
			}
			rs := res.resolve(arg.text, dir)
			if rs.outcome != resolveMissing && rs.outcome != resolveOutside {
				continue
			}
			msg := strings.Replace(rs.message, "Cannot find package", "Cannot find module", 1)
			c.add(m.path, arg.start, arg.end, diag.Error, CodeImport, msg+
				" (a require() through createRequire that runs when the module loads)"+importHint(arg.text, rs))
			note(&loadError{file: m.path, start: arg.start, end: arg.end, msg: msg})
		case "readFileSync":
			p, end, ok := literalModulePath(m, call.open+1, dir)
			if !ok || !vfs.Within(res.repoRoot, p) || res.t.isFile(p) || res.t.isDir(p) {
				continue
			}
			rel := filepath.ToSlash(res.rel(p))
			msg := fmt.Sprintf("ENOENT: no such file or directory, open '%s'", rel)
			c.add(m.path, arg.start, end, diag.Error, CodeThrowsAtLoad, msg+
				" (read when the module loads: the daemon skips it); add the file to the repository, or read it in `execute`")
			note(&loadError{file: m.path, start: arg.start, end: end, msg: msg})
		}
	}
	return first
}

// literalModulePath reads a path argument at token i made of the module's
// folder and literal parts: `join(import.meta.dir, 'a', 'b')` (also
// `path.join`, `resolve`, `import.meta.dirname`, `__dirname`) or
// `new URL('./a', import.meta.url)`. It returns the path and the end of the
// argument.
func literalModulePath(m *modFile, i int, dir string) (string, int, bool) {
	if m.isIdent(i, "path") && m.isPunct(i+1, ".") {
		i += 2
	}
	switch {
	case m.isIdent(i, "join") || m.isIdent(i, "resolve"):
		if !m.isPunct(i+1, "(") {
			return "", 0, false
		}
		j := i + 2
		switch {
		case m.isIdent(j, "import") && m.isPunct(j+1, ".") && m.isIdent(j+2, "meta") && m.isPunct(j+3, ".") &&
			(m.isIdent(j+4, "dir") || m.isIdent(j+4, "dirname")):
			j += 5
		case m.isIdent(j, "__dirname"):
			j++
		default:
			return "", 0, false
		}
		parts := []string{dir}
		for m.isPunct(j, ",") && m.tok(j+1).kind == tokString {
			parts = append(parts, filepath.FromSlash(m.tok(j+1).text))
			j += 2
		}
		if !m.isPunct(j, ")") || len(parts) == 1 {
			return "", 0, false
		}
		return filepath.Join(parts...), m.tok(j).end, true
	case m.isIdent(i, "new") && m.isIdent(i+1, "URL") && m.isPunct(i+2, "(") && m.tok(i+3).kind == tokString &&
		m.isPunct(i+4, ",") && m.isIdent(i+5, "import") && m.isPunct(i+6, ".") && m.isIdent(i+7, "meta") &&
		m.isPunct(i+8, ".") && m.isIdent(i+9, "url") && m.isPunct(i+10, ")"):
		spec := m.tok(i + 3).text
		if !isRelative(spec) {
			return "", 0, false
		}
		return filepath.Join(dir, filepath.FromSlash(spec)), m.tok(i + 10).end, true
	}
	return "", 0, false
}

// throwAtLoad finds a `throw` that may run when the module loads: in a
// statement of module scope or in a block of one (`if (...) { throw ... }`,
// `else`, `try`), not in a function, class or object. Whether it runs
// depends on what only running can know (the environment, a file), so the
// verdict is undecided. It returns the token index of the `throw`, or -1.
func throwAtLoad(toks []token) int {
	// kinds of the open braces: true for a block of module-scope code
	var blocks []bool
	var parenOpeners []int // indices of the open `(`
	lastCloseOpener := -1  // the `(` matching the last `)`
	for i, t := range toks {
		switch t.kind {
		case tokPunct:
			switch t.text {
			case "(":
				parenOpeners = append(parenOpeners, i)
			case ")":
				if n := len(parenOpeners); n > 0 {
					lastCloseOpener = parenOpeners[n-1]
					parenOpeners = parenOpeners[:n-1]
				}
			case "{":
				block := false
				if len(parenOpeners) == 0 && (len(blocks) == 0 || blocks[len(blocks)-1]) && i > 0 {
					prev := toks[i-1]
					switch {
					case prev.kind == tokIdent && (prev.text == "else" || prev.text == "try" || prev.text == "finally" || prev.text == "do"):
						block = true
					case prev.kind == tokPunct && prev.text == ")" && lastCloseOpener > 0:
						kw := toks[lastCloseOpener-1]
						block = kw.kind == tokIdent && (kw.text == "if" || kw.text == "for" || kw.text == "while" || kw.text == "catch" || kw.text == "switch")
					case prev.kind == tokPunct && prev.text == ";":
						block = true // a bare block statement (after `}` it may be a function body after an object return type)
					}
				}
				blocks = append(blocks, block)
			case "}":
				if n := len(blocks); n > 0 {
					blocks = blocks[:n-1]
				}
			}
		case tokIdent:
			if t.text == "throw" && len(parenOpeners) == 0 && (len(blocks) == 0 || blocks[len(blocks)-1]) {
				return i
			}
		}
	}
	return -1
}
