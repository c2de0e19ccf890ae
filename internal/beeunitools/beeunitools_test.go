package beeunitools

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

func TestEveryNameHasASourceAndNoOtherSourceIsEmbedded(t *testing.T) {
	embedded, err := fs.Glob(sources, "tools/*.ts")
	if err != nil {
		t.Fatal(err)
	}
	if len(embedded) != len(Names()) {
		t.Fatalf("embedded %v, want one source per name in %v", embedded, Names())
	}
	for _, name := range Names() {
		src, ok := Source(name)
		if !ok || len(src) == 0 {
			t.Errorf("Source(%q) = %d bytes, %v", name, len(src), ok)
		}
		if Digest(name) == "" {
			t.Errorf("Digest(%q) is empty", name)
		}
	}
	for _, bad := range []string{"", "bash", "Web_search", "../beeunitools", "tools/web_search"} {
		if _, ok := Source(bad); ok {
			t.Errorf("Source(%q) found a source", bad)
		}
	}
}

// TestSourcesImportOnlyNodeModules resolves every import of each source with
// esbuild: a copy must run in a checkout with no node_modules.
func TestSourcesImportOnlyNodeModules(t *testing.T) {
	for _, name := range Names() {
		src, _ := Source(name)
		var imports []string
		record := api.Plugin{Name: "record", Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
				if a.Kind == api.ResolveEntryPoint {
					return api.OnResolveResult{}, nil
				}
				imports = append(imports, a.Path)
				return api.OnResolveResult{Path: a.Path, External: true}, nil
			})
		}}
		res := api.Build(api.BuildOptions{
			Stdin:    &api.StdinOptions{Contents: string(src), Loader: api.LoaderTS, Sourcefile: name + ".ts"},
			Bundle:   true,
			Write:    false,
			Format:   api.FormatESModule,
			Platform: api.PlatformNode,
			Plugins:  []api.Plugin{record},
			LogLevel: api.LogLevelSilent,
		})
		if len(res.Errors) > 0 {
			t.Fatalf("%s: %s", name, res.Errors[0].Text)
		}
		for _, imp := range imports {
			if !strings.HasPrefix(imp, "node:") {
				t.Errorf("%s imports %q; a Beeuni source may import node:* modules only", name, imp)
			}
		}
	}
}

func TestNamesReturnsACopy(t *testing.T) {
	n := Names()
	n[0] = "changed"
	if Names()[0] != "web_search" {
		t.Fatal("Names exposes the package's array")
	}
}
