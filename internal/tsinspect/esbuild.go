package tsinspect

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
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
	path  string
	kind  importKind
	line  int // 1-based
	col   int // 0-based byte column of the quoted path
	len   int // bytes of the quoted path
	known bool
}

// esbuildMessage is a syntax error or warning located in the input.
type esbuildMessage struct {
	text  string
	line  int // 1-based; 0 when esbuild gave no location
	col   int
	len   int
	error bool
}

// esbuildFacts is what one esbuild build tells about a module.
type esbuildFacts struct {
	messages []esbuildMessage
	imports  []esbuildImport
	exports  []string // the entry's export names; nil when the build failed
	built    bool
}

const recorderPlugin = "beeuni-import-recorder"

// runEsbuild bundles the module alone: every import is marked external by a
// plugin that also emits a warning carrying the import's own location in the
// source (the Go API exposes no AST, but it locates plugin messages at the
// import path). The metafile then gives the export names.
func runEsbuild(module string, content []byte, loader api.Loader, tsconfig string) esbuildFacts {
	plugin := api.Plugin{Name: recorderPlugin, Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{
				Path:     a.Path,
				External: true,
				Warnings: []api.Message{{Text: a.Path, Detail: a.Kind}},
			}, nil
		})
	}}
	r := api.Build(api.BuildOptions{
		Stdin: &api.StdinOptions{
			Contents:   string(content),
			Loader:     loader,
			Sourcefile: filepath.Base(module),
		},
		Bundle:      true,
		Write:       false,
		Metafile:    true,
		Format:      api.FormatESModule,
		Platform:    api.PlatformNeutral,
		Target:      api.ESNext,
		TsconfigRaw: tsconfig,
		LogLevel:    api.LogLevelSilent,
		Outfile:     "out.js",
		Plugins:     []api.Plugin{plugin},
	})
	var f esbuildFacts
	for _, m := range r.Errors {
		f.messages = append(f.messages, toMessage(m, true))
	}
	for _, m := range r.Warnings {
		if m.PluginName == recorderPlugin {
			imp := esbuildImport{path: m.Text}
			if k, ok := m.Detail.(api.ResolveKind); ok {
				switch k {
				case api.ResolveJSRequireCall, api.ResolveJSRequireResolve:
					imp.kind = importRequire
				case api.ResolveJSDynamicImport:
					imp.kind = importDynamic
				}
			}
			if m.Location != nil {
				imp.line, imp.col, imp.len, imp.known = m.Location.Line, m.Location.Column, m.Location.Length, true
			}
			f.imports = append(f.imports, imp)
			continue
		}
		f.messages = append(f.messages, toMessage(m, false))
	}
	if len(r.Errors) == 0 && r.Metafile != "" {
		var meta struct {
			Outputs map[string]struct {
				Exports []string `json:"exports"`
			} `json:"outputs"`
		}
		if err := json.Unmarshal([]byte(r.Metafile), &meta); err == nil {
			f.built = true
			f.exports = []string{}
			for _, o := range meta.Outputs {
				f.exports = append(f.exports, o.Exports...)
			}
		}
	}
	return f
}

func toMessage(m api.Message, isErr bool) esbuildMessage {
	out := esbuildMessage{text: m.Text, error: isErr}
	if m.Location != nil {
		out.line, out.col, out.len = m.Location.Line, m.Location.Column, m.Location.Length
	}
	return out
}
