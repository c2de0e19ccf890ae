package tsinspect

import (
	"github.com/evanw/esbuild/pkg/api"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// facts.go holds what one esbuild transform and the syntax tree of its
// output tell about a file's content, kept in the facts cache (cache.go)
// by content, loader and tsconfig.

// esbuildFacts is what one esbuild transform and the syntax tree of its
// output tell about a file's content.
type esbuildFacts struct {
	messages []esbuildMessage
	imports  []esbuildImport // in source order
	exports  []string        // the export names; nil when the file does not parse
	built    bool            // the file parsed: imports, exports and load are known
	// unparsed says why the parser refused esbuild's JavaScript (esbuild
	// accepted the file): imports and load are then unknown
	unparsed string
	load     loadFacts
	// named are the names the file imports from relative modules
	// (links.go); commonJS and reexportsAll say its own names are known
	// only when it runs
	named                  []namedImport
	commonJS, reexportsAll bool
}

// parseFile transforms the file's content to JavaScript with esbuild
// (its syntax errors and warnings) and reads the facts off the syntax tree
// of the output (jstree.go). The tree is nil when the file does not parse.
func parseFile(file string, content []byte, loader api.Loader, tsconfig string) (esbuildFacts, *jsTree) {
	r := transform(file, content, loader, tsconfig)
	var f esbuildFacts
	lines := diag.NewLinesFor(content, diag.JSBreaks)
	for _, m := range r.Errors {
		f.messages = append(f.messages, toMessage(lines, m, true))
	}
	for _, m := range r.Warnings {
		f.messages = append(f.messages, toMessage(lines, m, false))
	}
	if len(r.Errors) > 0 {
		return f, nil
	}
	t, err := newJSTree(file, content, r)
	if err != nil {
		f.unparsed = err.Error()
		return f, nil
	}
	f.built = true
	f.imports = importsOf(t)
	f.exports, f.commonJS = exportsOf(t)
	f.named = namedImportsOf(t)
	f.reexportsAll = reexportsAll(t)
	f.load = loadFactsOf(t, walkLoad(t))
	return f, t
}
