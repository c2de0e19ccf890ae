package tsinspect

import (
	"github.com/evanw/esbuild/pkg/api"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/loadtime"
)

// facts.go holds what one esbuild transform and the syntax tree of its
// output tell about a file's content, kept in the facts cache (cache.go)
// by content, loader and tsconfig.

// esbuildFacts is what one esbuild transform and the syntax tree of its
// output tell about a file's content.
type esbuildFacts struct {
	messages []jsfront.Message
	imports  []jsfront.Import // in source order
	exports  []string         // the export names; nil when the file does not parse
	built    bool             // the file parsed: imports, exports and load are known
	// unparsed says why the parser refused esbuild's JavaScript (esbuild
	// accepted the file): imports and load are then unknown
	unparsed string
	load     loadtime.Facts
	// named are the names the file imports from relative modules
	// (links.go); commonJS and ReexportsAll say its own names are known
	// only when it runs
	named                  []jsfront.NamedImport
	commonJS, reexportsAll bool
}

// parseFile transforms the file's content to JavaScript with esbuild
// (its syntax errors and warnings) and reads the facts off the syntax tree
// of the output (jsfront.Tree). The tree is nil when the file does not parse.
func parseFile(file string, content []byte, loader api.Loader, tsconfig string) (esbuildFacts, *jsfront.Tree) {
	r := jsfront.Transform(file, content, loader, tsconfig)
	var f esbuildFacts
	lines := diag.NewLinesFor(content, diag.JSBreaks)
	for _, m := range r.Errors {
		f.messages = append(f.messages, jsfront.ToMessage(lines, m, true))
	}
	for _, m := range r.Warnings {
		f.messages = append(f.messages, jsfront.ToMessage(lines, m, false))
	}
	if len(r.Errors) > 0 {
		return f, nil
	}
	t, err := jsfront.NewTree(file, content, r)
	if err != nil {
		f.unparsed = err.Error()
		return f, nil
	}
	f.built = true
	f.imports = jsfront.ImportsOf(t)
	f.exports, f.commonJS = jsfront.ExportsOf(t)
	f.named = jsfront.NamedImportsOf(t)
	f.reexportsAll = jsfront.ReexportsAll(t)
	f.load = loadtime.FactsOf(t, loadtime.Walk(t))
	return f, t
}
