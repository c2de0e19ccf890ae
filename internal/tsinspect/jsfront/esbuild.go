package jsfront

import (
	"encoding/json"
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

// ImportKind says when an import runs.
type ImportKind int

const (
	ImportStatic  ImportKind = iota // import / export ... from: runs when the module loads
	ImportRequire                   // require(): runs when the call runs
	ImportDynamic                   // import(): runs when the call runs
)

// Import is one runtime import esbuild kept (type-only and unused
// imports of TypeScript are already dropped, as Bun drops them).
type Import struct {
	Path       string
	Kind       ImportKind
	Start, End int  // the quoted path in the file's text
	known      bool // false when esbuild's JavaScript has no position for it
}

// Message is a syntax error or warning located in the input.
type Message struct {
	Text       string
	Start, End int // in the file's text; both 0 when esbuild gave no location
	Error      bool
}

func ToMessage(lines *diag.Lines, m api.Message, isErr bool) Message {
	out := Message{Text: m.Text, Error: isErr}
	if m.Location != nil {
		out.Start = esbuildOffsetIn(lines, m.Location.Line, m.Location.Column)
		out.End = min(out.Start+m.Location.Length, lines.Len())
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

// JSXOptions are the JSX settings given to esbuild for .js, .jsx and .tsx.
type JSXOptions struct {
	Mode         string `json:"jsx,omitempty"`
	Factory      string `json:"jsxFactory,omitempty"`
	Fragment     string `json:"jsxFragmentFactory,omitempty"`
	ImportSource string `json:"jsxImportSource,omitempty"`
}

// tsconfigRaw is esbuild's tsconfig for the options: Bun's default is the
// automatic runtime in development mode (react/jsx-dev-runtime).
func (o JSXOptions) tsconfigRaw() string {
	if o.Mode == "" || o.Mode == "preserve" { // Bun transforms JSX even with preserve
		o.Mode = "react-jsxdev"
	}
	b, _ := json.Marshal(struct {
		CompilerOptions JSXOptions `json:"compilerOptions"`
	}{o})
	return string(b)
}

// BuildOptions are the loader and tsconfig esbuild reads file with, as Bun
// does: by its extension, with the repository's JSX options for JSX.
func BuildOptions(file string, jsx JSXOptions) (api.Loader, string) {
	loader := loaderFor(file)
	tsconfig := "{}"
	if loader == api.LoaderJSX || loader == api.LoaderTSX {
		tsconfig = jsx.tsconfigRaw()
	}
	return loader, tsconfig
}

// ScriptFile reports whether a relative import names a script the runtime
// parses (a JSON or text file is data).
func ScriptFile(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx":
		return true
	}
	return false
}
