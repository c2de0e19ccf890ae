package tsinspect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/resolve"
)

// maxImportedFiles bounds the relative files checked for one module.
const maxImportedFiles = 64

// loadFailure is why a file a module imports would not load.
type loadFailure struct {
	reason string // in the daemon's words where it has them
	where  string // repository-relative path:line:column of the cause
}

// checkImported checks a relative file the module imports, as the runtime
// loads it with the module: its syntax and the imports that run at load,
// transitively. Its findings are in that file. It returns why it would not
// load, or nil when it loads or cannot be known.
func (in *Inspector) checkImported(c *checker, res *resolve.Resolver, file string) *loadFailure {
	if c.seen[file] || len(c.seen) >= maxImportedFiles {
		return nil
	}
	if strings.EqualFold(filepath.Ext(file), ".json") {
		c.seen[file] = true
		return in.checkJSON(c, res, file)
	}
	if !jsfront.ScriptFile(file) {
		return nil
	}
	c.seen[file] = true
	content, err := res.Files.ReadFile(file)
	if err != nil || len(content) > in.opts.MaxBytes || jsfront.BinaryAt(content) >= 0 {
		return nil
	}
	_, lexErr := jsfront.Lex(content)
	var lexFailure *jsfront.LexError
	if errors.As(lexErr, &lexFailure) && lexFailure.Limit {
		return nil // not given to esbuild: unknown
	}
	lines := diag.NewLines(content)
	c.lines[file] = lines
	where := func(off int) string {
		p := lines.Pos(off)
		return fmt.Sprintf("%s:%d:%d", filepath.ToSlash(res.Rel(file)), p.Line+1, lines.CharColumn(p)+1)
	}

	facts := in.facts.Of(file, content, res.RootJSX())
	var first *loadFailure
	syntax := 0
	for _, m := range facts.Messages {
		if !m.Error || syntax >= maxSyntaxErrors {
			continue
		}
		syntax++
		start := m.Start
		c.add(file, start, m.End, diag.Error, CodeSyntax, "syntax error: "+m.Text)
		if first == nil {
			first = &loadFailure{reason: "syntax error: " + m.Text, where: where(start)}
		}
	}
	if syntax > 0 {
		return first
	}
	dir := filepath.Dir(file)
	if !facts.Built {
		return nil // its imports and load are not read: unknown
	}
	load := &facts.Load
	for _, imp := range facts.Imports {
		start, end := imp.Start, imp.End
		atLoad := imp.Kind == jsfront.ImportStatic || load.AtLoad[start]
		rs := res.Resolve(imp.Path, dir)
		var failure *loadFailure
		switch rs.Outcome {
		case resolve.ResolvedFile:
			if f := in.checkImported(c, res, rs.File); f != nil {
				sev, msg := diag.Error, fmt.Sprintf("'%s' will not load: %s (%s)", imp.Path, f.reason, f.where)
				if !atLoad {
					sev, msg = diag.Warning, msg+", when this call runs"
				}
				c.add(file, start, end, sev, CodeImport, msg)
				failure = f
			}
		case resolve.ResolvedPackage:
			in.checkIgnored(c, res, file, start, end, imp.Path, rs)
		case resolve.ResolveHarness:
			sev := diag.Error
			if !atLoad {
				sev = diag.Warning
			}
			c.add(file, start, end, sev, CodeHarnessImport, fmt.Sprintf(
				"'%s' is a harness package: a tool module never imports one, nor do the files it imports", imp.Path))
			failure = &loadFailure{reason: fmt.Sprintf("it imports the harness package '%s'", imp.Path), where: where(start)}
		case resolve.ResolveMissing, resolve.ResolveOutside:
			sev, msg := diag.Error, rs.Message+importHint(imp.Path, rs)
			if !atLoad {
				sev, msg = diag.Warning, rs.Message+" when this call runs"+importHint(imp.Path, rs)
			}
			c.add(file, start, end, sev, CodeImport, msg)
			failure = &loadFailure{reason: rs.Message, where: where(start)}
		}
		if failure != nil && atLoad && first == nil {
			first = failure
		}
	}
	if first != nil {
		return first // the imports run before the file's own code
	}
	if e := in.checkLinks(res, file, &facts); e != nil {
		c.add(file, e.Start, e.End, diag.Error, CodeImport, e.Msg+e.Hint+" (thrown when the module loads: the daemon skips it)")
		return &loadFailure{reason: e.Msg, where: where(e.Start)}
	}
	// then the file's own code: the first in source order of a failing
	// load-time call and the error the syntax tree shows
	stop := load.StopError(file)
	if e := in.checkLoadTimeCalls(c, res, file, load); e != nil && (stop == nil || e.Start < stop.Start) {
		return &loadFailure{reason: e.Msg, where: where(e.Start)}
	}
	if stop != nil {
		c.add(file, stop.Start, stop.End, diag.Error, CodeThrowsAtLoad, stop.Msg+" (thrown when the module loads: the daemon skips it)")
		return &loadFailure{reason: stop.Msg, where: where(stop.Start)}
	}
	return nil
}

// checkJSON checks a JSON file a module imports (and uses: an unused
// import is elided, and Bun never parses the file): Bun parses it when the
// module loads and fails on anything but strict JSON (comments and trailing
// commas included); a byte order mark is accepted.
func (in *Inspector) checkJSON(c *checker, res *resolve.Resolver, file string) *loadFailure {
	content, err := res.Files.ReadFile(file)
	if err != nil || len(content) > in.opts.MaxBytes {
		return nil
	}
	body := bytes.TrimPrefix(content, []byte("\xef\xbb\xbf"))
	var v any
	err = json.Unmarshal(body, &v)
	if err == nil {
		return nil
	}
	off := len(content)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = int(se.Offset) + len(content) - len(body)
		if off > 0 {
			off-- // the offset is after the byte that failed
		}
	}
	lines := diag.NewLines(content)
	c.lines[file] = lines
	msg := "JSON Parse error: " + strings.TrimPrefix(err.Error(), "json: ")
	end := off + 1
	if end > len(content) {
		end = len(content)
	}
	c.add(file, off, end, diag.Error, CodeSyntax, msg+": a JSON import must be strict JSON (no comments, no trailing commas)")
	p := lines.Pos(off)
	return &loadFailure{reason: msg, where: fmt.Sprintf("%s:%d:%d", filepath.ToSlash(res.Rel(file)), p.Line+1, lines.CharColumn(p)+1)}
}

// checkIgnored warns when a package resolves only through a node_modules
// folder that git ignores (SPEC section 8's decision hint).
func (in *Inspector) checkIgnored(c *checker, res *resolve.Resolver, file string, start, end int, spec string, rs resolve.Resolution) {
	if in.opts.NoGitignore || !resolve.IgnoredByGit(res.Files, res.RepoRoot, rs.NodeModules) {
		return
	}
	c.add(file, start, end, diag.Warning, CodeIgnoredPackage, fmt.Sprintf(
		"'%s' resolves only from %s, which git ignores: a config release carries only tracked files and the sandbox installs nothing, so the daemon will not find it",
		spec, filepath.ToSlash(res.Rel(rs.NodeModules))))
}
