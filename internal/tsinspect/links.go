package tsinspect

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/loadtime"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/modfacts"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/resolve"
)

// links.go checks what Bun checks when it links a file to the ES modules it
// imports, before any code runs: every named import (and re-export) of a
// relative module is one that module exports. Only the imports esbuild
// keeps count (TypeScript's type-only and unused ones are dropped, as Bun
// drops them), whether the name is read at load or only in `execute`.

// checkLinks finds the first named import of file (facts f) that the
// relative ES module it names does not export, as Bun says it. A module
// whose names are known only when it runs (CommonJS, `export * from`) is
// not held to a list.
func (in *Inspector) checkLinks(res *resolve.Resolver, file string, f *modfacts.Facts) *loadtime.Error {
	dir := filepath.Dir(file)
	for _, imp := range f.Named {
		rs := res.Resolve(imp.Spec, dir)
		if rs.Outcome != resolve.ResolvedFile || !jsfront.ScriptFile(rs.File) {
			continue
		}
		switch strings.ToLower(filepath.Ext(rs.File)) {
		case ".cjs", ".cts":
			continue
		}
		content, err := res.Files.ReadFile(rs.File)
		if err != nil || !jsfront.TextLike(content) {
			continue
		}
		other := in.facts.Of(rs.File, content, res.RootJSX())
		if !other.Built || other.CommonJS || other.ReexportsAll || len(other.Exports) == 0 {
			continue
		}
		found := false
		for _, e := range other.Exports {
			found = found || e == imp.Name
		}
		if found {
			continue
		}
		rel := filepath.ToSlash(res.Rel(rs.File))
		return &loadtime.Error{File: file, Start: imp.Start, End: imp.End, Link: true,
			Msg:  fmt.Sprintf("Export named '%s' not found in module '%s'", imp.Name, rel),
			Hint: exportsHint(other.Exports)}
	}
	return nil
}

// exportsHint lists what a module does export.
func exportsHint(names []string) string {
	var named []string
	for _, n := range names {
		if n != "default" {
			named = append(named, "`"+n+"`")
		}
	}
	sort.Strings(named)
	if len(named) > 8 {
		named = append(named[:8], "…")
	}
	if len(named) == 0 {
		return ""
	}
	return "; it exports " + strings.Join(named, ", ")
}
