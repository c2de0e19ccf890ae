package analysis

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"golang.org/x/tools/txtar"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// The fast paths below must give exactly what the general code gives.

func TestCleanRelFastPathMatchesJoin(t *testing.T) {
	if filepath.Separator != '/' {
		t.Skip("the fast path is for slash-separated systems")
	}
	rels := []string{
		"tools/a.ts", "a.ts", "x/y/z.yaml", "tools/./a.ts", "./a.ts", "tools//a.ts", "tools/", "tools/..",
		"tools/../a.ts", "..", "../a.ts", "..a/b.ts", "a..ts", ".hidden/a.ts", "a/.b/c.ts", "a\\b.ts", ".", "a/.",
	}
	for _, root := range []string{"/", "/repo", "/repo/sub", ".", "rel", "rel/dir"} {
		for _, rel := range rels {
			if !isCleanRel(rel) {
				continue
			}
			if clean := path.Clean(rel); clean != rel || clean == ".." || strings.HasPrefix(clean, "../") {
				t.Errorf("isCleanRel(%q) accepts a path that is not clean and inside", rel)
			}
			if got, want := joinClean(root, rel), filepath.Join(root, rel); got != want {
				t.Errorf("joinClean(%q, %q) = %q, want %q", root, rel, got, want)
			}
		}
	}
	for _, rel := range []string{"tools/./a.ts", "./a.ts", "tools//a.ts", "tools/", "..", "../a.ts", "a/.", ""} {
		if isCleanRel(rel) {
			t.Errorf("isCleanRel(%q) = true, want false", rel)
		}
	}
	for _, abs := range []string{"/", "/a", "/a/b", "/a/b/c.ts", "a", "a/b"} {
		dir, base := splitClean(abs)
		if dir != filepath.Dir(abs) || base != filepath.Base(abs) {
			t.Errorf("splitClean(%q) = %q, %q, want %q, %q", abs, dir, base, filepath.Dir(abs), filepath.Base(abs))
		}
	}
}

// TestNodeRangeMatchesLines checks, over every YAML file of the golden
// corpus, that nodeRange's line shortcut gives the ranges that a search of
// the line index gives.
func TestNodeRangeMatchesLines(t *testing.T) {
	archives, err := filepath.Glob(filepath.Join("testdata", "cases", "*.txtar"))
	if err != nil || len(archives) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	checked := 0
	for _, archive := range archives {
		data, err := os.ReadFile(archive)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range txtar.Parse(data).Files {
			if !strings.HasSuffix(f.Name, ".yaml") && !strings.HasSuffix(f.Name, ".yml") {
				continue
			}
			p := parseFile(nil, "/repo/"+f.Name, f.Data)
			if p.doc == nil {
				continue
			}
			stack := []*yaml.Node{p.doc}
			for len(stack) > 0 {
				n := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if n.Kind != yaml.AliasNode {
					stack = append(stack, n.Content...)
				}
				s := p.pos.start(n)
				want := p.pos.rng(s, p.pos.end(n, s))
				if got := p.pos.nodeRange(n); got != want {
					t.Errorf("%s %s line %d col %d: nodeRange = %+v, want %+v", archive, f.Name, n.Line, n.Column, got, want)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no node checked")
	}
}

// TestDirLookupMatchesMap checks the sorted listing's lookup (with its
// cursor) against a map of the same entries, in every order of queries.
func TestDirLookupMatchesMap(t *testing.T) {
	fsys := vfsMemWith(t, "/d/a.ts", "/d/b.ts", "/d/c/x.ts", "/d/e.ts", "/d/f.ts")
	list, err := fsys.ReadDir("/d")
	if err != nil || !namesIncrease(list) {
		t.Fatalf("listing not sorted: %v", err)
	}
	want := map[string]bool{"a.ts": true, "b.ts": true, "c": true, "e.ts": true, "f.ts": true}
	queries := []string{"a.ts", "b.ts", "c", "d.ts", "e.ts", "f.ts", "g.ts", "a.ts", "f.ts", "e.ts", "", "b.ts", "b.ts", "0"}
	di := &dirInfo{sorted: list}
	for _, q := range queries {
		mode, ok := di.lookup(q)
		if ok != want[q] {
			t.Errorf("lookup(%q) found = %v, want %v", q, ok, want[q])
		}
		if ok && (q == "c") != mode.IsDir() {
			t.Errorf("lookup(%q) mode = %v", q, mode)
		}
	}
}

func vfsMemWith(t *testing.T, files ...string) *vfs.Mem {
	t.Helper()
	m := vfs.NewMem()
	for _, f := range files {
		m.WriteFile(f, []byte("export default {}\n"))
	}
	return m
}
