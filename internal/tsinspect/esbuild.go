package tsinspect

import (
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// loaderFor picks esbuild's loader from the module's extension, as Bun
// does: TypeScript for .ts, .mts and .cts; JavaScript with JSX for .js and
// .jsx (Bun parses JSX in a .js file); JavaScript for .mjs, .cjs and
// anything else (JSX there is a syntax error in Bun too); TSX for .tsx.
func loaderFor(module string) api.Loader {
	switch strings.ToLower(filepath.Ext(module)) {
	case ".ts", ".mts", ".cts":
		return api.LoaderTS
	case ".tsx": // only ever a file a module imports
		return api.LoaderTSX
	case ".jsx", ".js":
		return api.LoaderJSX
	}
	return api.LoaderJS
}

// importKind says when an import runs.
type importKind int

const (
	importStatic  importKind = iota // import / export ... from: runs when the module loads
	importRequire                   // require(): runs when the call runs
	importDynamic                   // import(): runs when the call runs
)

// esbuildImport is one runtime import esbuild kept (type-only and unused
// imports of TypeScript are already dropped, as Bun drops them).
type esbuildImport struct {
	path       string
	kind       importKind
	start, end int  // the quoted path in the file's text
	known      bool // false when esbuild's JavaScript has no position for it
}

// esbuildMessage is a syntax error or warning located in the input.
type esbuildMessage struct {
	text       string
	start, end int // in the file's text; both 0 when esbuild gave no location
	error      bool
}

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

func toMessage(lines *diag.Lines, m api.Message, isErr bool) esbuildMessage {
	out := esbuildMessage{text: m.Text, error: isErr}
	if m.Location != nil {
		out.start = esbuildOffsetIn(lines, m.Location.Line, m.Location.Column)
		out.end = min(out.start+m.Location.Length, lines.Len())
	}
	return out
}

// esbuildOffsetIn converts esbuild's 1-based line and 0-based byte column
// with the lines of a file as esbuild counts them, clamped to the end of
// the content.
func esbuildOffsetIn(lines *diag.Lines, line, col int) int {
	if line < 1 {
		return 0
	}
	if line > lines.Count() {
		return lines.Len()
	}
	return min(lines.LineStart(line-1)+col, lines.Len())
}
