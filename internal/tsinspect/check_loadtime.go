package tsinspect

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/loadtime"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/resolve"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// check_loadtime.go reports, as findings, the calls that run at load and
// that esbuild does not report as imports (package loadtime finds them).

// checkLoadTimeCalls reports the require() calls through createRequire and
// the reads of missing files that run when file loads; it returns the
// first as the error that stops it.
func (in *Inspector) checkLoadTimeCalls(c *checker, res *resolve.Resolver, file string, f *loadtime.Facts) *loadtime.Error {
	var first *loadtime.Error
	note := func(e *loadtime.Error) {
		if first == nil || e.Start < first.Start {
			first = e
		}
	}
	dir := filepath.Dir(file)
	for _, call := range f.Requires {
		rs := res.Resolve(call.Spec, dir)
		if rs.Outcome != resolve.ResolveMissing && rs.Outcome != resolve.ResolveOutside {
			continue
		}
		msg := strings.Replace(rs.Message, "Cannot find package", "Cannot find module", 1)
		c.add(file, call.Start, call.End, diag.Error, CodeImport, msg+
			" (a require() through createRequire that runs when the module loads)"+importHint(call.Spec, rs))
		note(&loadtime.Error{File: file, Start: call.Start, End: call.End, Msg: msg})
	}
	for _, call := range f.Reads {
		p := filepath.Join(append([]string{dir}, call.Parts...)...)
		if !vfs.Within(res.RepoRoot, p) || res.Files.IsFile(p) || res.Files.IsDir(p) {
			continue
		}
		rel := filepath.ToSlash(res.Rel(p))
		msg := fmt.Sprintf("ENOENT: no such file or directory, open '%s'", rel)
		c.add(file, call.Start, call.End, diag.Error, CodeThrowsAtLoad, msg+
			" (read when the module loads: the daemon skips it); add the file to the repository, or read it in `execute`")
		note(&loadtime.Error{File: file, Start: call.Start, End: call.End, Msg: msg})
	}
	return first
}
