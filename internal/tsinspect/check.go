package tsinspect

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/diag"
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
	ev     *evaluator
	toks   []token // the module's tokens; nil when the lexer failed
	// seen holds the files whose loading is checked (the module and the
	// relative files it imports, transitively)
	seen map[string]bool
	// esLines are the line starts as esbuild counts lines (a lone "\r",
	// U+2028 and U+2029 end a line too), built on first use.
	esLines []int
}

// esbuildOffset converts esbuild's 1-based line and 0-based byte column to
// a byte offset in the module.
func (c *checker) esbuildOffset(line, col int) int {
	content := c.r.Lines.Content()
	if c.esLines == nil {
		c.esLines = esbuildLineStarts(content)
	}
	return offsetIn(c.esLines, len(content), line, col)
}

// offsetIn converts esbuild's line and column with the line starts of a
// file of size bytes.
func offsetIn(starts []int, size, line, col int) int {
	if line < 1 {
		return 0
	}
	if line > len(starts) {
		return size
	}
	off := starts[line-1] + col
	if off > size {
		off = size
	}
	return off
}

func esbuildLineStarts(content []byte) []int {
	starts := []int{0}
	for i := 0; i < len(content); i++ {
		switch content[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(content) && content[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		case 0xE2: // U+2028 and U+2029 are E2 80 A8 and E2 80 A9
			if i+2 < len(content) && content[i+1] == 0x80 && (content[i+2] == 0xA8 || content[i+2] == 0xA9) {
				i += 2
				starts = append(starts, i+1)
			}
		}
	}
	return starts
}

func (c *checker) linesOf(file string) *diag.Lines {
	if l, ok := c.lines[file]; ok {
		return l
	}
	var src []byte
	if c.ev != nil {
		if f := c.ev.files[file]; f != nil {
			src = f.src
		} else if d, ok := c.ev.data[file]; ok {
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
func (in *Inspector) inspect(t *tracker, repoRoot, module string, content []byte) *Result {
	lines := diag.NewLines(content)
	r := &Result{Module: module, Loads: true, Lines: lines}
	c := &checker{r: r, module: module, lines: map[string]*diag.Lines{module: lines}, seen: map[string]bool{module: true}}
	t.record(dep{kind: depFile, path: module, hash: sha256Sum(content), ok: true})

	if len(content) > in.opts.MaxBytes {
		c.add(module, 0, 0, diag.Warning, CodeNotInspected, tooLargeMessage(int64(len(content)), in.opts.MaxBytes))
		return r
	}
	if at := binaryAt(content); at >= 0 {
		what := "a NUL byte"
		if content[at] != 0 {
			what = "bytes that are not UTF-8"
		}
		msg := fmt.Sprintf("the module is not JavaScript or TypeScript text: %s at line %d", what, lines.Pos(at).Line+1)
		c.add(module, at, at+1, diag.Error, CodeNotInspected, msg)
		c.fail(module, at, at+1, msg)
		return r
	}
	toks, lexErr := lex(content)
	var lexFailure *lexError
	if lexErr != nil {
		errors.As(lexErr, &lexFailure)
	}
	if lexFailure != nil && lexFailure.limit {
		// esbuild's work grows faster than such input: it is not given to
		// it (a pathological module must not stall the server).
		c.add(module, lexFailure.offset, lexFailure.offset, diag.Warning, CodeNotInspected, "not inspected: "+lexFailure.msg)
		return r
	}
	res := &resolver{t: t, repoRoot: repoRoot, harness: in.harness}
	facts := in.esbuildFacts(module, content, res.rootJSX())

	syntax := 0
	for _, m := range facts.messages {
		if !m.error {
			continue
		}
		syntax++
		if syntax > maxSyntaxErrors {
			break
		}
		start, end := 0, 0
		if m.line > 0 {
			start = c.esbuildOffset(m.line, m.col)
			end = start + m.len
		}
		msg := "syntax error: " + m.text
		c.add(module, start, end, diag.Error, CodeSyntax, msg)
		c.fail(module, start, end, msg)
	}
	if syntax > 0 {
		return r
	}

	if lexErr == nil {
		c.toks = toks
	}
	in.checkImports(c, res, facts.imports)

	hasDefault := false
	for _, e := range facts.exports {
		if e == "default" {
			hasDefault = true
		}
	}
	var mod *modFile
	if lexErr == nil {
		mod = scanModule(module, content, toks)
	}
	if facts.built && !hasDefault {
		msg := "no default export: the daemon skips a module without `export default { description, parameters, execute }`"
		start, end := 0, 0
		if mod != nil && mod.typeOnlyDefault {
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
	if mod.defaultAt < 0 && mod.defaultLocal == "" && mod.defaultFrom == nil && mod.cjsPartial < 0 {
		r.Undecided = true
		c.add(module, 0, 0, diag.Information, CodeNotStatic,
			"the default export cannot be known statically (it is built when the module runs)")
		return r
	}
	var loadErr *loadError
	if c.toks != nil {
		loadErr = in.checkLoadTimeCalls(c, res, mod)
		if i := throwAtLoad(c.toks); i >= 0 {
			t := c.toks[i]
			r.Undecided = true
			c.add(module, t.start, t.end, diag.Information, CodeNotStatic,
				"whether the module loads cannot be known statically: this `throw` runs when the module loads if its condition holds, which only running can tell (the environment, a file, a value)")
		}
	}
	ev := newEvaluator(res, mod)
	ev.exportsOf = func(file string, src []byte) ([]string, bool) {
		f := in.esbuildFacts(file, src, res.rootJSX())
		return f.exports, f.built
	}
	c.ev = ev
	v := ev.defaultValue(mod)
	start := mod.tok(mod.defaultTok).start
	end := v.end
	if v.file != module || end < start {
		end = mod.tok(mod.defaultTok).end
	}
	r.DefaultExport = lines.Range(start, end)
	if t := ev.thrown; loadErr != nil && (t == nil || !t.link && t.file == module && loadErr.start < t.start) {
		c.fail(loadErr.file, loadErr.start, loadErr.end, loadErr.msg) // it runs first
	}
	if t := ev.thrown; t != nil {
		// the module stops at the throw: what follows never runs
		code := CodeThrowsAtLoad
		if t.link {
			code = CodeImport
		}
		c.add(t.file, t.start, t.end, diag.Error, code, t.msg+t.hint+
			" (thrown when the module loads: the daemon skips it)")
		c.fail(t.file, t.start, t.end, t.msg)
	}
	in.checkDefault(c, mod, v)
	c.checkProcessEnv(mod)
	if t := ev.thrown; t != nil {
		c.dropNotStaticAt(t.file, t.start, t.end)
	}
	return r
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

func (in *Inspector) checkImports(c *checker, res *resolver, imps []esbuildImport) {
	lines := c.r.Lines
	dir := filepath.Dir(c.module)
	var loadCalls map[int]bool
	for _, imp := range imps {
		start, end := 0, 0
		if imp.known {
			start = c.esbuildOffset(imp.line, imp.col)
			end = start + imp.len
		}
		rs := res.resolve(imp.path, dir)
		jsx := isJSXRuntime(imp.path) && end == start
		if jsx {
			end = jsxTagEnd(lines.Content(), start)
		}
		out := Import{Path: imp.path, Range: lines.Range(start, end), Resolved: rs.file}
		if imp.kind != importStatic && loadCalls == nil {
			loadCalls = loadTimeCalls(c.toks)
		}
		atLoad := imp.kind == importStatic || loadCalls[start]
		when := ""
		if !atLoad {
			when = " when this call runs"
		}
		switch rs.outcome {
		case resolvedBuiltin:
			out.OK = true
		case resolvedFile:
			out.OK = true
			if f := in.checkImported(c, res, rs.file); f != nil {
				msg := fmt.Sprintf("'%s' will not load: %s (%s)", imp.path, f.reason, f.where)
				if atLoad {
					out.OK = false
					c.add(c.module, start, end, diag.Error, CodeImport, msg)
					c.fail(c.module, start, end, fmt.Sprintf("%s, in %s", f.reason, f.where))
				} else {
					c.add(c.module, start, end, diag.Warning, CodeImport, msg+", when this call runs")
				}
			}
		case resolvedPackage:
			out.OK = true
			in.checkIgnored(c, res, c.module, start, end, imp.path, rs)
		case resolveHarness:
			sev := diag.Error
			if !atLoad {
				sev = diag.Warning
			}
			msg := fmt.Sprintf("'%s' is a harness package: a tool module never imports one (the daemon runs the module for both harnesses); use `node:*` modules, Bun APIs and `fetch` instead", imp.path)
			c.add(c.module, start, end, sev, CodeHarnessImport, msg)
			if atLoad {
				c.fail(c.module, start, end, fmt.Sprintf("it imports the harness package '%s'", imp.path))
			}
		case resolveMissing, resolveOutside:
			if atLoad && jsx {
				c.add(c.module, start, end, diag.Error, CodeImport, rs.message+jsxHint(imp.path))
				c.fail(c.module, start, end, rs.message)
			} else if atLoad {
				c.add(c.module, start, end, diag.Error, CodeImport, rs.message+importHint(imp.path, rs))
				c.fail(c.module, start, end, rs.message)
			} else {
				c.add(c.module, start, end, diag.Warning, CodeImport, rs.message+when+importHint(imp.path, rs))
			}
		case resolveUnknown:
			if atLoad {
				c.r.Undecided = true
			}
			msg := rs.message
			if msg == "" {
				msg = fmt.Sprintf("'%s' cannot be checked statically: a module imports `node:*` modules, Bun APIs, relative files and packages from a node_modules", imp.path)
			}
			c.add(c.module, start, end, diag.Information, CodeNotStatic, msg)
		}
		c.r.Imports = append(c.r.Imports, out)
	}
}

// isJSXRuntime reports whether spec is the import esbuild (like Bun) adds
// for JSX with the automatic runtime.
func isJSXRuntime(spec string) bool {
	return strings.HasSuffix(spec, "/jsx-dev-runtime") || strings.HasSuffix(spec, "/jsx-runtime")
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
func importHint(spec string, rs resolution) string {
	if isRelative(spec) {
		return ""
	}
	name, _ := packageName(spec)
	if rs.nodeModules != "" {
		return ""
	}
	return fmt.Sprintf(": no node_modules beside or above the module (inside the repository) provides it, and the sandbox installs nothing; add node_modules/%s to the repository, or use `node:*` modules, Bun APIs and `fetch` instead", name)
}

// checkDefault checks the default export's value against the module
// contract of SPEC section 8.
func (in *Inspector) checkDefault(c *checker, mod *modFile, v *value) {
	module := c.module
	switch v.kind {
	case vObject:
	case vCall:
		if isOldTool(v, mod, in.harness) {
			msg := "the default export is the standard harness's `tool({ description, args, execute })`, which the daemon does not load: " + migrationSteps
			c.add(v.file, v.start, v.end, diag.Error, CodeOldShape, msg)
			c.fail(v.file, v.start, v.end, "the default export is the standard harness's tool({ ... }), not a plain object")
			return
		}
		c.r.Undecided = true
		c.add(v.file, v.start, v.end, diag.Information, CodeNotStatic,
			fmt.Sprintf("the default export is computed by a call to %s(...) when the module runs: its description, parameters and execute cannot be known statically", v.callee))
		return
	case vUnknown, vNamespace:
		why := v.why
		if why == "" {
			why = "computed when the module runs"
		}
		c.r.Undecided = true
		c.add(v.file, v.start, v.end, diag.Information, CodeNotStatic, "the default export cannot be known statically: "+why)
		return
	default:
		start, end := v.start, v.end
		if v.file == module && end <= start {
			start, end = mod.tok(mod.defaultTok).start, mod.tok(mod.defaultTok).end
		}
		c.add(v.file, start, end, diag.Error, CodeDefaultExport, fmt.Sprintf(
			"the default export is %s, not a plain object `{ description, parameters, execute }`: the daemon skips the module", v.kind.name()))
		c.fail(v.file, start, end, fmt.Sprintf("the default export is %s, not a plain object", v.kind.name()))
		return
	}
	obj := v
	brace := [2]int{obj.start, obj.start + 1}
	incompleteNoted := false
	missing := func(field string) bool {
		if obj.complete {
			return true
		}
		if !incompleteNoted {
			incompleteNoted = true
			c.add(obj.file, brace[0], brace[1], diag.Information, CodeNotStatic,
				"the default export has keys that cannot be known statically (a spread or a computed key): fields it lacks are not reported")
		}
		return false
	}

	// description
	if p := obj.get("description"); p == nil {
		if missing("description") {
			c.add(obj.file, brace[0], brace[1], diag.Error, CodeDescription,
				"the default export has no `description`: a non-empty string the model reads to decide when to call the tool")
		}
	} else {
		d := p.val
		switch d.kind {
		case vString:
			if strings.TrimSpace(d.str) == "" {
				c.add(d.file, d.start, d.end, diag.Error, CodeDescription,
					"`description` is empty: the model reads it to decide when to call the tool")
			} else {
				c.r.Description, c.r.DescriptionKnown = d.str, true
			}
		case vUnknown, vCall, vNamespace:
			c.add(d.file, d.start, d.end, diag.Information, CodeNotStatic,
				"`description` cannot be known statically: "+whyOf(d))
		default:
			c.add(d.file, d.start, d.end, diag.Error, CodeDescription,
				fmt.Sprintf("`description` is %s, not a string: it must be a non-empty string the model reads to decide when to call the tool", d.kind.name()))
		}
	}

	// parameters
	if p := obj.get("parameters"); p == nil {
		if !obj.complete {
			c.r.Undecided = true // a spread may bring it
		}
		if missing("parameters") {
			msg := "the default export has no `parameters`: the daemon skips a module whose `parameters` is not an object schema; add `parameters: { type: 'object', properties: { ... } }`"
			if a := obj.get("args"); a != nil {
				msg += "; `args` is the standard harness's field: " + migrationSteps
			}
			c.add(obj.file, brace[0], brace[1], diag.Error, CodeParameters, msg)
			c.fail(obj.file, brace[0], brace[1], "no `parameters` (the daemon needs an object schema)")
		}
	} else {
		in.checkParameters(c, p)
	}

	// execute
	if p := obj.get("execute"); p == nil {
		if missing("execute") {
			c.add(obj.file, brace[0], brace[1], diag.Error, CodeExecute,
				"the default export has no `execute(args, context)`: the function the daemon calls to run the tool")
		}
	} else {
		e := p.val
		switch e.kind {
		case vFunction:
			if x, ok := c.ev.findExecute(e); ok {
				c.checkFetchSignal(x)
				if pp := obj.get("parameters"); pp != nil {
					c.checkArgs(x, pp.val)
				}
			}
		case vUnknown, vCall, vNamespace:
			if e.accessor {
				c.add(p.file, p.start, p.end, diag.Information, CodeNotStatic, "`execute` is a getter: its value cannot be known statically")
			}
		default:
			c.add(e.file, e.start, e.end, diag.Error, CodeExecute,
				fmt.Sprintf("`execute` is %s, not a function: write `async execute(args, context) { ... }`", e.kind.name()))
		}
	}
}

func whyOf(v *value) string {
	if v.why != "" {
		return v.why
	}
	return "computed when the module runs"
}

// isOldTool recognises `tool({ ... })` of the standard harness: the callee
// is `tool` imported from a harness package, or a `tool` call whose object
// has `args`.
func isOldTool(v *value, mod *modFile, harness map[string]bool) bool {
	if v.calleeRef != nil {
		name, _ := packageName(v.calleeRef.spec)
		if harness[name] && v.calleeRef.name == "tool" {
			return true
		}
	}
	// an undeclared `tool` (its import deleted) with the old fields; a
	// `tool` the module declares or imports from its own files may well
	// build a plain object
	if v.callee == "tool" && !declares(mod, "tool") && len(v.args) == 1 && v.args[0].kind == vObject && v.args[0].get("args") != nil {
		return true
	}
	return false
}

// declares reports whether m binds name at the top level.
func declares(m *modFile, name string) bool {
	if m == nil {
		return false
	}
	_, isConst := m.consts[name]
	_, isImport := m.imports[name]
	_, isClass := m.classes[name]
	_, isEnum := m.enums[name]
	_, isNamespace := m.namespaces[name]
	return isConst || isImport || isClass || isEnum || isNamespace || m.mutable[name] || m.funcs[name]
}

func (in *Inspector) checkParameters(c *checker, p *prop) {
	v := p.val
	switch v.kind {
	case vObject:
	case vUnknown, vCall, vNamespace:
		msg := "`parameters` cannot be known statically: " + whyOf(v)
		if v.kind == vCall {
			msg = fmt.Sprintf("`parameters` is computed by %s(...) when the module runs: the schema cannot be known statically (its imports are checked)", v.callee)
		}
		c.r.Undecided = true
		c.add(v.file, v.start, v.end, diag.Information, CodeNotStatic, msg)
		return
	default:
		msg := fmt.Sprintf("`parameters` is %s, not an object schema: the daemon skips the module; write `{ type: 'object', properties: { ... } }`", v.kind.name())
		c.add(v.file, v.start, v.end, diag.Error, CodeParameters, msg)
		c.fail(v.file, v.start, v.end, "`parameters` is not an object schema")
		return
	}
	typ := v.get("type")
	switch {
	case typ == nil && v.complete:
		c.add(p.file, p.start, p.end, diag.Error, CodeParameters,
			"`parameters` has no `type: 'object'`: the daemon skips a module whose `parameters` is not an object schema")
		c.fail(p.file, p.start, p.end, "`parameters` is not an object schema (no `type: 'object'`)")
	case typ == nil:
		c.r.Undecided = true // a spread may bring it
	case typ.val.kind == vString && typ.val.str == "object":
	case typ.val.kind == vUnknown || typ.val.kind == vCall:
		c.r.Undecided = true
		c.add(typ.val.file, typ.val.start, typ.val.end, diag.Information, CodeNotStatic,
			"`parameters.type` cannot be known statically: "+whyOf(typ.val))
	default:
		what := typ.val.kind.name()
		if typ.val.kind == vString {
			what = fmt.Sprintf("'%s'", typ.val.str)
		}
		c.add(typ.val.file, typ.val.start, typ.val.end, diag.Error, CodeParameters,
			fmt.Sprintf("`parameters.type` is %s: a tool's parameters must be an object schema, `type: 'object'`", what))
		c.fail(typ.val.file, typ.val.start, typ.val.end, "`parameters` is not an object schema (its type is not 'object')")
	}

	props := v.get("properties")
	var propsObj *value
	if props != nil && props.val.kind == vObject {
		propsObj = props.val
		for _, pp := range propsObj.props {
			if pp.key == "" {
				continue
			}
			s := pp.val
			if s.kind == vObject && s.complete && s.get("description") == nil {
				c.add(pp.file, pp.start, pp.end, diag.Hint, CodePropDescription,
					fmt.Sprintf("property `%s` has no `description`: the model reads it to know what to pass", pp.key))
			}
		}
	}
	if req := v.get("required"); req != nil && req.val.kind == vArray && propsObj != nil && propsObj.complete {
		for _, it := range req.val.items {
			if it.kind != vString {
				continue
			}
			if propsObj.get(it.str) == nil {
				c.add(it.file, it.start, it.end, diag.Warning, CodeRequired,
					fmt.Sprintf("`required` names `%s`, which `properties` does not define", it.str))
			}
		}
	}
	j, parts, ok := toJSON(v)
	if ok {
		c.r.Parameters = j
	}
	for _, u := range parts {
		if u.path == "" && u.keys {
			continue // said for the default export's fields already, when it matters
		}
		c.r.ParametersUnknown = append(c.r.ParametersUnknown, UnknownValue{Path: u.path, Why: u.why})
		if u.path == "type" {
			continue // reported above
		}
		what := "`parameters." + u.path + "`"
		if u.path == "" {
			what = "`parameters`"
		}
		c.add(u.file, u.start, u.end, diag.Information, CodeNotStatic, what+" cannot be known statically: "+u.why+
			"; the rest of the schema is checked and shown")
	}
}

// loadTimeCalls finds the require() and import() calls that run when the
// module loads, by the byte offset of their quoted path: in module scope,
// outside any braces and parentheses other than the call's own, with no
// function or arrow started since the statement began; an import() must be
// awaited. Anything else answers false: a warning, not an error. One pass.
func loadTimeCalls(toks []token) map[int]bool {
	at := map[int]bool{}
	braces, parens := 0, 0
	fn := false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == tokString && i >= 3 && braces == 0 && parens == 1 && !fn &&
			toks[i-1].kind == tokPunct && toks[i-1].text == "(" && toks[i-2].kind == tokIdent {
			switch toks[i-2].text {
			case "require":
				at[t.start] = true
			case "import":
				if toks[i-3].kind == tokIdent && toks[i-3].text == "await" {
					at[t.start] = true
				}
			}
		}
		switch {
		case t.kind == tokPunct:
			switch t.text {
			case "{":
				braces++
			case "}":
				braces--
			case "(", "[":
				parens++
			case ")", "]":
				parens--
			case "=>":
				fn = true
			case ";":
				if braces == 0 && parens == 0 {
					fn = false
				}
			}
		case t.kind == tokIdent && braces == 0 && parens == 0:
			switch t.text {
			case "function", "class":
				fn = true
			case "const", "let", "var", "import", "export":
				fn = false
				// skip a type annotation (`const f: (s: string) => string =`)
				if i+2 < len(toks) && toks[i+1].kind == tokIdent && toks[i+2].kind == tokPunct && toks[i+2].text == ":" {
					i = skipType(toks, i+3) - 1
				}
			}
		}
	}
	return at
}
