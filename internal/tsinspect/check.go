package tsinspect

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsvalue"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/loadtime"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/resolve"
)

// Finding codes of module findings (Finding.File is the module, or a file
// it imports). The manifest's finding on the tool's path is T11, made by
// analysis.InspectModules from Result.Loads and Result.Reason.
const (
	CodeSyntax          = "M1"  // a syntax error
	CodeImport          = "M2"  // an import that will not resolve
	CodeHarnessImport   = "M3"  // an import of a harness package
	CodeDefaultExport   = "M4"  // no default export, or not a plain object
	CodeDescription     = "M5"  // description missing, not a string, empty
	CodeParameters      = "M6"  // parameters missing or not an object schema
	CodeRequired        = "M7"  // required names a property properties lacks
	CodePropDescription = "M8"  // a property without a description
	CodeExecute         = "M9"  // execute missing or not a function
	CodeOldShape        = "M10" // the standard harness's tool({ description, args, execute })
	CodeNotStatic       = "M11" // cannot be known statically (information)
	CodeNotInspected    = "M12" // too large, binary, too deeply nested, timed out
	CodeIgnoredPackage  = "M13" // resolves only through a node_modules git ignores
	CodeThrowsAtLoad    = "M14" // an error the module throws when it loads
)

// maxSyntaxErrors caps the syntax errors reported for one module.
const maxSyntaxErrors = 10

// migrationSteps are SPEC section 9's steps from the standard harness's
// tool() to a module both harnesses load.
const migrationSteps = "replace `tool({ description, args, execute })` with a plain object " +
	"`{ description, parameters, execute(args, context) }` whose `parameters` is JSON Schema (`type: 'object'`), " +
	"read secrets from `context.env`, stop importing the harness package, keep the module out of " +
	"`harnesses/opencode/tools/` and declare it under `tools:`"

// checker collects the findings of one inspection.
type checker struct {
	r      *Result
	module string
	lines  map[string]*diag.Lines
	ev     *jsvalue.Reader
	load   *loadtime.Facts // what the module surely does when it loads
	tree   *jsfront.Tree   // the module's syntax tree; nil when it does not parse
	res    *resolve.Resolver
	// seen holds the files whose loading is checked (the module and the
	// relative files it imports, transitively)
	seen map[string]bool
}

func (c *checker) linesOf(file string) *diag.Lines {
	if l, ok := c.lines[file]; ok {
		return l
	}
	var src []byte
	if c.ev != nil {
		if f := c.ev.Files[file]; f != nil {
			src = f.Src
		} else if d, ok := c.ev.Data[file]; ok {
			src = d
		}
	}
	l := diag.NewLines(src)
	c.lines[file] = l
	return l
}

func (c *checker) add(file string, start, end int, sev diag.Severity, code, msg string) *diag.Finding {
	if file == "" {
		file = c.module
	}
	c.r.Findings = append(c.r.Findings, diag.Finding{
		File: file, Range: c.linesOf(file).Range(start, end), Severity: sev, Code: code, Message: msg,
	})
	return &c.r.Findings[len(c.r.Findings)-1]
}

// fail marks the module as not loading; the first reason wins.
func (c *checker) fail(file string, start, end int, reason string) {
	if c.r.Loads {
		c.r.Loads = false
		c.r.Reason = reason
		if file == "" || file == c.module {
			c.r.ReasonRange = c.linesOf(c.module).Range(start, end)
		}
	}
}

// inspect runs one inspection of content (already read) with t recording
// what it reads.
func (in *Inspector) inspect(t *resolve.Tracker, repoRoot, module string, content []byte) *Result {
	lines := diag.NewLines(content)
	r := &Result{Module: module, Loads: true, Lines: lines}
	c := &checker{r: r, module: module, lines: map[string]*diag.Lines{module: lines}, seen: map[string]bool{module: true}}
	t.Record(resolve.Dep{Kind: resolve.DepFile, Path: module, Hash: sha256Sum(content), OK: true})

	if len(content) > in.opts.MaxBytes {
		c.add(module, 0, 0, diag.Warning, CodeNotInspected, tooLargeMessage(int64(len(content)), in.opts.MaxBytes))
		return r
	}
	if at := jsfront.BinaryAt(content); at >= 0 {
		what := "a NUL byte"
		if content[at] != 0 {
			what = "bytes that are not UTF-8"
		}
		msg := fmt.Sprintf("the module is not JavaScript or TypeScript text: %s at line %d", what, lines.Pos(at).Line+1)
		c.add(module, at, at+1, diag.Error, CodeNotInspected, msg)
		c.fail(module, at, at+1, msg)
		return r
	}
	toks, lexErr := jsfront.Lex(content)
	var lexFailure *jsfront.LexError
	if lexErr != nil {
		errors.As(lexErr, &lexFailure)
	}
	if lexFailure != nil && lexFailure.Limit {
		// esbuild's work grows faster than such input: it is not given to
		// it (a pathological module must not stall the server).
		c.add(module, lexFailure.Offset, lexFailure.Offset, diag.Warning, CodeNotInspected, "not inspected: "+lexFailure.Msg)
		return r
	}
	res := &resolve.Resolver{Files: t, RepoRoot: repoRoot, Harness: in.harness}
	c.res = res
	facts, tree := in.facts.Parse(module, content, res.RootJSX())
	c.tree = tree

	syntax := 0
	for _, m := range facts.Messages {
		if !m.Error {
			continue
		}
		syntax++
		if syntax > maxSyntaxErrors {
			break
		}
		start, end := m.Start, m.End
		msg := "syntax error: " + m.Text
		c.add(module, start, end, diag.Error, CodeSyntax, msg)
		c.fail(module, start, end, msg)
	}
	if syntax > 0 {
		return r
	}
	c.load = &facts.Load
	if facts.Unparsed != "" {
		r.Undecided = true
		c.add(module, 0, 0, diag.Information, CodeNotStatic,
			"whether the module loads cannot be known statically: its imports and what runs when it loads are not read ("+facts.Unparsed+")")
	}

	in.checkImports(c, res, facts.Imports)

	hasDefault := false
	for _, e := range facts.Exports {
		if e == "default" {
			hasDefault = true
		}
	}
	var mod *jsvalue.File
	if lexErr == nil && tree != nil {
		mod = jsvalue.NewFile(module, content, toks, tree)
	}
	if facts.Built && !hasDefault {
		// what throws when the module loads comes first
		c.reportLoadErrors(in.checkLinks(res, module, &facts), in.checkLoadTimeCalls(c, res, module, c.load))
		msg := "no default export: the daemon skips a module without `export default { description, parameters, execute }`"
		start, end := 0, 0
		if mod != nil && mod.TypeOnlyDefault() {
			msg = "no default export at run time: `export default` of a type is erased; export a plain object `{ description, parameters, execute }`"
		}
		c.add(module, start, end, diag.Error, CodeDefaultExport, msg)
		c.fail(module, start, end, "no default export")
		return r
	}
	if mod == nil {
		why := "the module uses syntax this inspector does not read"
		r.Undecided = true
		c.add(module, 0, 0, diag.Information, CodeNotStatic, "the default export cannot be known statically: "+why)
		return r
	}
	if mod.DefaultAt < 0 && mod.DefaultLocal == "" && mod.DefaultFrom == nil && mod.CJSPartial < 0 {
		r.Undecided = true
		c.add(module, 0, 0, diag.Information, CodeNotStatic,
			"the default export cannot be known statically (it is built when the module runs)")
		return r
	}
	if c.load.HasUnsureThrow {
		start, end := c.load.UnsureThrow[0], c.load.UnsureThrow[1]
		r.Undecided = true
		c.add(module, start, end, diag.Information, CodeNotStatic,
			"whether the module loads cannot be known statically: this `throw` runs when the module loads if its condition holds, which only running can tell (the environment, a file, a value)")
	}
	loadErr := in.checkLoadTimeCalls(c, res, module, c.load)
	ev := in.evaluateAtLoad(c, res, mod)
	v := ev.DefaultValue(mod)
	start := mod.Tok(mod.DefaultTok).Start
	end := v.End
	if v.File != module || end < start {
		end = mod.Tok(mod.DefaultTok).End
	}
	r.DefaultExport = lines.Range(start, end)
	thrown := c.reportLoadErrors(in.checkLinks(res, module, &facts), loadErr)
	in.checkDefault(c, mod, v)
	c.checkProcessEnv()
	if thrown != nil {
		c.dropNotStaticAt(thrown.File, thrown.Start, thrown.End)
	}
	return r
}

// evaluateAtLoad follows the values of the module's top-level const and
// let initializers, in source order (the default export's value is the
// caller's to follow after them).
func (in *Inspector) evaluateAtLoad(c *checker, res *resolve.Resolver, m *jsvalue.File) *jsvalue.Reader {
	ev := jsvalue.NewReader(res, m, func(file string, src []byte) *jsfront.Tree {
		_, t := in.facts.Parse(file, src, res.RootJSX())
		return t
	})
	c.ev = ev
	var vars []*js.Var
	for _, v := range m.Module {
		if b := m.Binds[v]; b != nil && (b.Kind == jsvalue.BindConst || b.Kind == jsvalue.BindLet) {
			vars = append(vars, v)
		}
	}
	sort.Slice(vars, func(i, j int) bool { return m.Binds[vars[i]].At < m.Binds[vars[j]].At })
	for _, v := range vars {
		b := m.Binds[v]
		t := m.Tok(b.At)
		ev.Declared(m, v, b, t.Start, t.End)
	}
	return ev
}

// reportLoadErrors reports what the module throws when it loads, and fails
// it with the error that runs first: an error of linking (linkErr) before
// any code runs; then the first in source order of the calls' error
// (loadErr) and the syntax tree's. It returns the error it reported, nil
// when none.
func (c *checker) reportLoadErrors(linkErr, loadErr *loadtime.Error) *loadtime.Error {
	t := c.load.StopError(c.module)
	if linkErr != nil {
		t = linkErr
	}
	if loadErr != nil && (t == nil || !t.Link && loadErr.Start < t.Start) {
		c.fail(loadErr.File, loadErr.Start, loadErr.End, loadErr.Msg) // it runs first
	}
	if t == nil {
		return nil
	}
	// the module stops at the throw: what follows never runs
	code := CodeThrowsAtLoad
	if t.Link {
		code = CodeImport
	}
	c.add(t.File, t.Start, t.End, diag.Error, code, t.Msg+t.Hint+
		" (thrown when the module loads: the daemon skips it)")
	c.fail(t.File, t.Start, t.End, t.Msg)
	return t
}

// dropNotStaticAt removes the M11 findings at exactly file:start-end, which
// an error at the same place says better.
func (c *checker) dropNotStaticAt(file string, start, end int) {
	rg := c.linesOf(file).Range(start, end)
	kept := c.r.Findings[:0]
	for _, f := range c.r.Findings {
		if f.Code == CodeNotStatic && f.File == file && f.Range == rg {
			continue
		}
		kept = append(kept, f)
	}
	c.r.Findings = kept
}

func (in *Inspector) checkImports(c *checker, res *resolve.Resolver, imps []jsfront.Import) {
	lines := c.r.Lines
	dir := filepath.Dir(c.module)
	for _, imp := range imps {
		start, end := imp.Start, imp.End
		rs := res.Resolve(imp.Path, dir)
		jsx := jsfront.IsJSXRuntime(imp.Path) && end == start
		if jsx {
			end = jsxTagEnd(lines.Content(), start)
		}
		out := Import{Path: imp.Path, Range: lines.Range(start, end), Resolved: rs.File}
		atLoad := imp.Kind == jsfront.ImportStatic || c.load.AtLoad[start]
		when := ""
		if !atLoad {
			when = " when this call runs"
		}
		switch rs.Outcome {
		case resolve.ResolvedBuiltin:
			out.OK = true
		case resolve.ResolvedFile:
			out.OK = true
			if f := in.checkImported(c, res, rs.File); f != nil {
				msg := fmt.Sprintf("'%s' will not load: %s (%s)", imp.Path, f.reason, f.where)
				if atLoad {
					out.OK = false
					c.add(c.module, start, end, diag.Error, CodeImport, msg)
					c.fail(c.module, start, end, fmt.Sprintf("%s, in %s", f.reason, f.where))
				} else {
					c.add(c.module, start, end, diag.Warning, CodeImport, msg+", when this call runs")
				}
			}
		case resolve.ResolvedPackage:
			out.OK = true
			in.checkIgnored(c, res, c.module, start, end, imp.Path, rs)
		case resolve.ResolveHarness:
			sev := diag.Error
			if !atLoad {
				sev = diag.Warning
			}
			msg := fmt.Sprintf("'%s' is a harness package: a tool module never imports one (the daemon runs the module for both harnesses); use `node:*` modules, Bun APIs and `fetch` instead", imp.Path)
			c.add(c.module, start, end, sev, CodeHarnessImport, msg)
			if atLoad {
				c.fail(c.module, start, end, fmt.Sprintf("it imports the harness package '%s'", imp.Path))
			}
		case resolve.ResolveMissing, resolve.ResolveOutside:
			if atLoad && jsx {
				c.add(c.module, start, end, diag.Error, CodeImport, rs.Message+jsxHint(imp.Path))
				c.fail(c.module, start, end, rs.Message)
			} else if atLoad {
				c.add(c.module, start, end, diag.Error, CodeImport, rs.Message+importHint(imp.Path, rs))
				c.fail(c.module, start, end, rs.Message)
			} else {
				c.add(c.module, start, end, diag.Warning, CodeImport, rs.Message+when+importHint(imp.Path, rs))
			}
		case resolve.ResolveUnknown:
			if atLoad {
				c.r.Undecided = true
			}
			msg := rs.Message
			if msg == "" {
				msg = fmt.Sprintf("'%s' cannot be checked statically: a module imports `node:*` modules, Bun APIs, relative files and packages from a node_modules", imp.Path)
			}
			c.add(c.module, start, end, diag.Information, CodeNotStatic, msg)
		}
		c.r.Imports = append(c.r.Imports, out)
	}
}

// jsxTagEnd is the end of the `<tag` of the JSX element at start.
func jsxTagEnd(src []byte, start int) int {
	end := start
	if end < len(src) && src[end] == '<' {
		end++
	}
	for end < len(src) && (src[end] == '.' || src[end] == '-' || src[end] == '_' || src[end] == '$' ||
		'a' <= src[end] && src[end] <= 'z' || 'A' <= src[end] && src[end] <= 'Z' || '0' <= src[end] && src[end] <= '9') {
		end++
	}
	return end
}

// jsxHint says why JSX imports a package and what to do.
func jsxHint(spec string) string {
	return fmt.Sprintf(": Bun compiles JSX with its automatic runtime, which imports '%s' (a `/** @jsx */` pragma is ignored); "+
		"vendor the package in a node_modules of the repository, or set `\"jsx\": \"react\"` and a `\"jsxFactory\"` of the module's own in the repository root's tsconfig.json", spec)
}

// importHint adds what to do about an import that does not resolve.
func importHint(spec string, rs resolve.Resolution) string {
	if resolve.IsRelative(spec) {
		return ""
	}
	name, _ := resolve.PackageName(spec)
	if rs.NodeModules != "" {
		return ""
	}
	return fmt.Sprintf(": no node_modules beside or above the module (inside the repository) provides it, and the sandbox installs nothing; add node_modules/%s to the repository, or use `node:*` modules, Bun APIs and `fetch` instead", name)
}
