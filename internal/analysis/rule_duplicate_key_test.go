package analysis

import (
	"bytes"
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"unsafe"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// TestDuplicateKeyIndex types into a 1,000-tool manifest through one Cache,
// renaming tools so that keys repeat and stop repeating, near each other
// and far apart, and requires every load to give Load's T10 findings, and
// a keystroke in a manifest with no duplicate key to bring the last
// parse's index of the tools: mapping up to date (the same map, with the
// new mapping's keys) instead of building one.
func TestDuplicateKeyIndex(t *testing.T) {
	fsys := vfs.NewMem()
	manifest := filepath.Join(testRoot, ManifestName)
	base, _ := generatedManifest(1000)
	content := []byte(base)
	rename := func(c []byte, from, to string) []byte {
		if !bytes.Contains(c, []byte("  "+from+": ")) {
			t.Fatalf("no key %s", from)
		}
		return bytes.Replace(c, []byte("  "+from+": "), []byte("  "+to+": "), 1)
	}
	cache := NewCache()
	load := func(c []byte) *Project {
		t.Helper()
		fsys.WriteFile(manifest, c)
		compareLoads(t, fsys, cache)
		p, err := LoadCached(context.Background(), fsys, testRoot, cache)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	repeated := func(p *Project) int {
		n := 0
		for _, f := range p.Findings {
			if f.Code == CodeDuplicateKey {
				n++
			}
		}
		return n
	}
	// index returns the kept index of p's tools: mapping (the agents:
	// mapping has one too).
	index := func(p *Project) *keyIndex {
		tools := p.Files[0].tree.Tools.Value.Content
		for _, idx := range cache.scratch.indexes[manifest] {
			if &idx.content[0] == &tools[0] && len(idx.keys) == len(tools)/2 {
				return idx
			}
		}
		t.Fatal("no index of the tools: mapping of the last parse is kept")
		return nil
	}
	keys := func(idx *keyIndex) unsafe.Pointer { return reflect.ValueOf(idx.keys).UnsafePointer() }
	want := keys(index(load(content)))
	steps := []struct {
		name string
		edit func([]byte) []byte
		dups int
	}{
		{"a far key repeated", func(c []byte) []byte { return rename(c, "tool_00900", "tool_00100") }, 1},
		{"taken back", func(c []byte) []byte { return c }, 0},
		{"a neighbour repeated", func(c []byte) []byte { return rename(c, "tool_00500", "tool_00501") }, 1},
		{"a name freed", func(c []byte) []byte { return rename(c, "tool_00400", "tool_new") }, 0},
		{"the freed name taken", func(c []byte) []byte {
			return rename(rename(c, "tool_00400", "tool_new"), "tool_00410", "tool_00400")
		}, 0},
		{"the freed name taken back", func(c []byte) []byte {
			return rename(rename(c, "tool_00400", "tool_new"), "tool_00410", "tool_new")
		}, 1},
		{"a letter in a key", func(c []byte) []byte { return rename(c, "tool_00700", "tool_0070x") }, 0},
	}
	for _, s := range steps {
		p := load(s.edit(content))
		if got := repeated(p); got != s.dups {
			t.Fatalf("%s: %d duplicate keys, want %d", s.name, got, s.dups)
		}
		switch {
		case s.dups > 0:
			want = nil // the full pass reported them and kept no index
		case want == nil:
			want = keys(index(p)) // after repeated keys, indexed anew
		case keys(index(p)) != want:
			t.Fatalf("%s: the tools: mapping's keys were indexed anew, not brought up to date", s.name)
		}
	}
}
