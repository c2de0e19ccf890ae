package modfacts

import (
	"github.com/evanw/esbuild/pkg/api"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/loadtime"
)

// Facts is what one esbuild transform and the syntax tree of its
// output tell about a file's content.
type Facts struct {
	Messages []jsfront.Message
	Imports  []jsfront.Import // in source order
	Exports  []string         // the export names; nil when the file does not parse
	Built    bool             // the file parsed: imports, exports and load are known
	// Unparsed says why the parser refused esbuild's JavaScript (esbuild
	// accepted the file): imports and load are then unknown
	Unparsed string
	Load     loadtime.Facts
	// Named are the names the file imports from relative modules
	// (checked by tsinspect's links.go); CommonJS and ReexportsAll say its
	// own names are known only when it runs
	Named                  []jsfront.NamedImport
	CommonJS, ReexportsAll bool
}

// parseFile transforms the file's content to JavaScript with esbuild
// (its syntax errors and warnings) and reads the facts off the syntax tree
// of the output (jsfront.Tree). The tree is nil when the file does not parse.
func parseFile(file string, content []byte, loader api.Loader, tsconfig string) (Facts, *jsfront.Tree) {
	r := jsfront.Transform(file, content, loader, tsconfig)
	var f Facts
	lines := diag.NewLinesFor(content, diag.JSBreaks)
	for _, m := range r.Errors {
		f.Messages = append(f.Messages, jsfront.ToMessage(lines, m, true))
	}
	for _, m := range r.Warnings {
		f.Messages = append(f.Messages, jsfront.ToMessage(lines, m, false))
	}
	if len(r.Errors) > 0 {
		return f, nil
	}
	t, err := jsfront.NewTree(file, content, r)
	if err != nil {
		f.Unparsed = err.Error()
		return f, nil
	}
	f.Built = true
	f.Imports = jsfront.ImportsOf(t)
	f.Exports, f.CommonJS = jsfront.ExportsOf(t)
	f.Named = jsfront.NamedImportsOf(t)
	f.ReexportsAll = jsfront.ReexportsAll(t)
	f.Load = loadtime.FactsOf(t, loadtime.Walk(t))
	return f, t
}
