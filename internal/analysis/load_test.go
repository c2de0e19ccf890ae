package analysis

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

func memWorkspace(files map[string]string) *vfs.Mem {
	m := vfs.NewMem()
	for name, content := range files {
		m.WriteFile(filepath.Join(testRoot, filepath.FromSlash(name)), []byte(content))
	}
	return m
}

func TestFindRoot(t *testing.T) {
	fsys := memWorkspace(map[string]string{
		"beeuni.yaml":                    "tools: {}\n",
		"tools/x.ts":                     "x",
		"services/api/beeuni.yaml":       "tools: {}\n",
		"services/api/tools/deep/y.ts":   "y",
		"services/api/beeuni.yaml.d/z":   "z",
		"docs/beeuni.yaml/not-a-file.md": "a folder named beeuni.yaml",
	})
	cases := []struct {
		path, root string
		ok         bool
	}{
		{"/repo", "/repo", true},
		{"/repo/beeuni.yaml", "/repo", true},
		{"/repo/tools/x.ts", "/repo", true},
		{"/repo/tools/not-yet-created.ts", "/repo", true},
		{"/repo/services/api/tools/deep/y.ts", "/repo/services/api", true},
		{"/repo/services/api", "/repo/services/api", true},
		{"/repo/docs/beeuni.yaml/not-a-file.md", "/repo", true},
		{"/elsewhere/file.yaml", "", false},
	}
	for _, c := range cases {
		root, ok := FindRoot(fsys, filepath.FromSlash(c.path))
		if root != filepath.FromSlash(c.root) || ok != c.ok {
			t.Errorf("FindRoot(%s) = %q, %v; want %q, %v", c.path, root, ok, c.root, c.ok)
		}
	}
}

func TestLoadErrorOnlyWhenTheRootManifestCannotBeRead(t *testing.T) {
	fsys := memWorkspace(map[string]string{"tools/x.ts": "x"})
	if _, err := Load(context.Background(), fsys, testRoot); err == nil {
		t.Fatal("Load without beeuni.yaml: want an error")
	}
	fsys.WriteFile(filepath.Join(testRoot, ManifestName), []byte("tools: [\n"))
	p, err := Load(context.Background(), fsys, testRoot)
	if err != nil {
		t.Fatalf("Load of a broken manifest: %v (want findings, not an error)", err)
	}
	if len(p.Findings) != 1 || p.Findings[0].Code != CodeSyntax || p.Files[0].SyntaxError == nil || p.Files[0].Doc != nil {
		t.Errorf("findings %v, file %+v: want one Y1 and no document", p.Findings, p.Files[0])
	}
}

func TestProjectFileAndRel(t *testing.T) {
	fsys := memWorkspace(map[string]string{
		"beeuni.yaml":         "imports: [config/more.yaml]\n",
		"config/more.yaml":    "tools: {web_search: beeuni:web_search}\n",
		"config/unused.yaml":  "tools: {}\n",
		"harnesses/x/y/z.txt": "",
	})
	p, err := Load(context.Background(), fsys, testRoot)
	if err != nil {
		t.Fatal(err)
	}
	more := filepath.Join(testRoot, "config", "more.yaml")
	if f := p.File(more); f == nil || !f.Imported || f.Rel != "config/more.yaml" || f.Doc == nil {
		t.Errorf("File(%s) = %+v", more, f)
	}
	if f := p.File(filepath.Join(testRoot, "config", "..", "beeuni.yaml")); f == nil || f.Imported {
		t.Errorf("File of the root manifest through a non-clean path = %+v", f)
	}
	if f := p.File(filepath.Join(testRoot, "config", "unused.yaml")); f != nil {
		t.Errorf("File of a file nobody imports = %+v, want nil", f)
	}
	for in, want := range map[string]string{
		more:                      "config/more.yaml",
		testRoot:                  ".",
		filepath.Join("/", "etc"): "/etc",
	} {
		if got := p.Rel(in); got != want {
			t.Errorf("Rel(%s) = %q, want %q", in, got, want)
		}
	}
}

// The cache must give exactly what an uncached load gives, parse a file
// again only when its content changed, and be safe for concurrent loads.
func TestLoadCachedReusesUnchangedFiles(t *testing.T) {
	files := map[string]string{
		"beeuni.yaml":      "imports: [config/more.yaml]\ntools:\n  web_search: beeuni:web_search\n  bad: beeuni:bad\n",
		"config/more.yaml": "tools:\n  lookup_order: tools/x.ts\nagents:\n  a: {tools: [lookup_ordr]}\n",
		"tools/x.ts":       "x",
	}
	fsys := memWorkspace(files)
	overlay := vfs.NewOverlay(fsys)
	cache := NewCache()
	ctx := context.Background()

	first, err := LoadCached(ctx, overlay, testRoot, cache)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := Load(ctx, overlay, testRoot)
	if !reflect.DeepEqual(first.Findings, plain.Findings) || !reflect.DeepEqual(first.Model, plain.Model) {
		t.Fatalf("cached and uncached loads differ:\n%v\n%v", first.Findings, plain.Findings)
	}

	second, _ := LoadCached(ctx, overlay, testRoot, cache)
	for i := range first.Files {
		if first.Files[i].Doc != second.Files[i].Doc {
			t.Errorf("%s was parsed again though it did not change", first.Files[i].Rel)
		}
	}

	// An unsaved edit of the import: only that file is parsed again.
	more := filepath.Join(testRoot, "config", "more.yaml")
	overlay.Set(more, []byte("tools:\n  lookup_order: tools/x.ts\nagents:\n  a: {tools: [lookup_order]}\n"))
	third, _ := LoadCached(ctx, overlay, testRoot, cache)
	if third.Files[0].Doc != first.Files[0].Doc {
		t.Error("the root manifest was parsed again though it did not change")
	}
	if third.Files[1].Doc == first.Files[1].Doc {
		t.Error("the edited import was not parsed again")
	}
	for _, f := range third.Findings {
		if f.Code == CodeUnknownTool {
			t.Errorf("A1 still reported after the fix: %v", f)
		}
	}
	fresh, _ := Load(ctx, overlay, testRoot)
	if !reflect.DeepEqual(third.Findings, fresh.Findings) {
		t.Errorf("cached load after an edit differs from a fresh load:\n%v\n%v", third.Findings, fresh.Findings)
	}

	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := LoadCached(ctx, overlay, testRoot, cache); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
}

func TestCatalog(t *testing.T) {
	if got := strings.Join(BeeuniTools(), " "); got != "web_search image_search scrape_webpage memory show" {
		t.Errorf("BeeuniTools = %s", got)
	}
	for name, want := range map[string][2]bool{
		"bash": {true, true}, "question": {true, true}, "apply_patch": {true, true}, "pty_read": {true, true},
		"pty_": {false, false}, "webfetch": {true, false}, "lsp": {true, false}, "web_search": {false, false},
		"lookup_order": {false, false},
	} {
		known, certain := HarnessTool(name)
		if [2]bool{known, certain} != want {
			t.Errorf("HarnessTool(%s) = %v, %v; want %v", name, known, certain, want)
		}
	}
	for name, want := range map[string]bool{
		"a": true, "lookup_order": true, "a1_b2": true, strings.Repeat("a", 64): true,
		strings.Repeat("a", 65): false, "": false, "1a": false, "_a": false, "A": false, "a-b": false, "a b": false, "é": false,
	} {
		if ValidToolName(name) != want {
			t.Errorf("ValidToolName(%q) = %v", name, !want)
		}
	}
	for in, want := range map[string]string{
		"LookupOrder": "lookup_order", "lookup-order": "lookup_order", "Lookup Order!": "lookup_order",
		"9lives": "", "ok": "", "___": "", "HTTPGet": "httpget",
	} {
		if got := SnakeCase(in); got != want {
			t.Errorf("SnakeCase(%q) = %q, want %q", in, got, want)
		}
	}
	for p, want := range map[string]bool{"a.ts": true, "a.cjs": true, "a.d.ts": true, "a.tsx": false, "a": false, "a.json": false} {
		if HasModuleExtension(p) != want {
			t.Errorf("HasModuleExtension(%s) = %v", p, !want)
		}
	}
}

// YAML breaks lines at a lone "\r" too (and yaml.v3 at NEL, LS, PS):
// marks after such a break must still land on the right byte.
func TestPositionsFollowYAMLLineBreaks(t *testing.T) {
	for _, c := range []struct {
		name, content, key string
	}{
		{"lf", "a: 1\nbad: beeuni:x\n", "bad"},
		{"crlf", "a: 1\r\nbad: beeuni:x\r\n", "bad"},
		{"cr", "a: 1\rbad: beeuni:x\r", "bad"},
		{"bom", "\ufeffbad: beeuni:x\n", "bad"},
		{"wide", "\"🐝\": 1\nx: {\"日本\": 2, bad: beeuni:x}\n", "bad"},
	} {
		t.Run(c.name, func(t *testing.T) {
			pr := parseFile(nil, "/repo/beeuni.yaml", []byte(c.content))
			if pr.root == nil {
				t.Fatalf("does not parse: %v", pr.findings)
			}
			var found bool
			stack := []*yaml.Node{pr.root}
			for len(stack) > 0 {
				n := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				stack = append(stack, n.Content...)
				if n.Value != c.key {
					continue
				}
				found = true
				r := pr.pos.nodeRange(n)
				if got := c.content[r.Start.Offset:r.End.Offset]; got != c.key {
					t.Errorf("range of %q covers %q", c.key, got)
				}
			}
			if !found {
				t.Fatal("key not found")
			}
		})
	}
}

func TestFindingsAreSorted(t *testing.T) {
	fsys := memWorkspace(map[string]string{
		"beeuni.yaml": "imports: [b.yaml]\nagents: {a: {tools: [zzz, yyy]}}\ntools:\n  Z: tools/x.ts\n  A: tools/x.ts\n",
		"b.yaml":      "tools: {Q: x.ts}\n",
	})
	p, _ := Load(context.Background(), fsys, testRoot)
	sorted := append([]diag.Finding(nil), p.Findings...)
	diag.Sort(sorted)
	if !reflect.DeepEqual(sorted, p.Findings) {
		t.Errorf("findings are not sorted: %v", p.Findings)
	}
}
