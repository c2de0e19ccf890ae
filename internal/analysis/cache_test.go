package analysis

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// TestCacheConcurrentParses loads four projects at once through one Cache,
// each typed into (a comment character, a repeated tool name added and
// removed), and requires every load to equal Load (run with -race: the
// parses share the Cache and the chunks of each other's files).
func TestCacheConcurrentParses(t *testing.T) {
	cache := NewCache()
	cache.chunkLines = 8
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- typeConcurrently(cache, g)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// typeConcurrently is one of TestCacheConcurrentParses's projects.
func typeConcurrently(cache *Cache, g int) error {
	ctx := context.Background()
	root := filepath.FromSlash(fmt.Sprintf("/ws%d", g))
	manifest := filepath.Join(root, ManifestName)
	fsys := vfs.NewMem()
	for i := 0; i < 60; i++ {
		fsys.WriteFile(filepath.Join(root, "tools", fmt.Sprintf("tool_%05d.ts", i)), []byte("export default {}\n"))
	}
	base := memoManifest(60)
	dup := []byte("  tool_00007: tools/tool_00007.ts\n") // T10 in the tools: mapping
	for step := 0; step < 30; step++ {
		content := bytes.Replace(base, []byte("# a large"), []byte(fmt.Sprintf("# %d a large", step%3)), 1)
		if step%2 == 1 {
			at := bytes.Index(content, []byte("  tool_00030:"))
			content = append(content[:at:at], append(dup, content[at:]...)...)
		}
		fsys.WriteFile(manifest, content)
		want, err := Load(ctx, fsys, root)
		if err != nil {
			return err
		}
		got, err := LoadCached(ctx, fsys, root, cache)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(want.Findings, got.Findings) {
			return fmt.Errorf("%s step %d: findings differ:\nLoad %+v\nLoadCached %+v", root, step, want.Findings, got.Findings)
		}
		if !reflect.DeepEqual(want.Model, got.Model) {
			return fmt.Errorf("%s step %d: models differ", root, step)
		}
	}
	return nil
}

// TestModelToolsShared edits a manifest below its tools: mapping, so that
// no tool changes, and requires the new model to share the last one's
// Tools (sharedSlice), Load's results all the same, and the two models'
// Tools to stay apart when either is appended to: the shared slice's
// capacity is cut to its length, so an append copies. A character typed
// above the tools moves their offsets but not their Spans: the Tools are
// shared still, and so are the Agents; a line added above moves every
// Span, and none is.
func TestModelToolsShared(t *testing.T) {
	ctx := context.Background()
	fsys, content := memoWorkspace(100)
	manifest := filepath.Join(testRoot, ManifestName)
	cache := NewCache()
	first, err := LoadCached(ctx, fsys, testRoot, cache)
	if err != nil {
		t.Fatal(err)
	}
	fsys.WriteFile(manifest, bytes.Replace(content, []byte("team 3\n"), []byte("team 3 edited\n"), 1))
	compareLoads(t, fsys, cache)
	second, err := LoadCached(ctx, fsys, testRoot, cache)
	if err != nil {
		t.Fatal(err)
	}
	a, b := first.Model.Tools, second.Model.Tools
	if len(a) == 0 || len(a) != len(b) || &a[0] != &b[0] {
		t.Fatalf("the edit moved no tool, but the models' Tools are not shared (%d, %d tools)", len(a), len(b))
	}
	want := slices.Clone(b)
	a = append(a, &Tool{Name: "appended_to_the_first"})
	b = append(b, &Tool{Name: "appended_to_the_second"})
	if a[len(a)-1].Name != "appended_to_the_first" || b[len(b)-1].Name != "appended_to_the_second" ||
		!reflect.DeepEqual(second.Model.Tools, want) {
		t.Fatal("an append to one model's Tools wrote into the other's")
	}

	// A character typed above every tool: their lines stay.
	fsys.WriteFile(manifest, bytes.Replace(content, []byte("# a large"), []byte("# a larger"), 1))
	third, err := LoadCached(ctx, fsys, testRoot, cache)
	if err != nil {
		t.Fatal(err)
	}
	if &third.Model.Tools[0] != &second.Model.Tools[0] {
		t.Fatal("a character typed above the tools moved no tool's line, yet the Tools are not shared")
	}
	compareLoads(t, fsys, cache)
	// Another: no agent changed since the last load either.
	fsys.WriteFile(manifest, bytes.Replace(content, []byte("# a large"), []byte("# a largest"), 1))
	again, err := LoadCached(ctx, fsys, testRoot, cache)
	if err != nil {
		t.Fatal(err)
	}
	if ag := again.Model.Agents; len(ag) == 0 || &ag[0] != &third.Model.Agents[0] || &again.Model.Tools[0] != &third.Model.Tools[0] {
		t.Fatal("a character typed above the tools and agents moved none's line, yet they are not shared")
	}
	compareLoads(t, fsys, cache)

	// A line added above every tool moves them all.
	fsys.WriteFile(manifest, bytes.Replace(content, []byte("# a large"), []byte("#\n# a larger"), 1))
	fourth, err := LoadCached(ctx, fsys, testRoot, cache)
	if err != nil {
		t.Fatal(err)
	}
	if &fourth.Model.Tools[0] == &again.Model.Tools[0] || &fourth.Model.Agents[0] == &again.Model.Agents[0] {
		t.Fatal("every tool and agent moved down a line, yet they are shared")
	}
	compareLoads(t, fsys, cache)
}
