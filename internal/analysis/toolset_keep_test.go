package analysis

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// TestKeptToolSet types into the sections around the tools: of a manifest
// whose tools have findings (T1, T5, T6, T9 with the other declaration in
// an imported file, H1 pointing at a declaration), and requires every load
// to equal Load, the tool set to be taken whole when no tool declaration
// was parsed again (text typed in a key before tools:, which moves every
// offset after it, or in an agent), and built again when one was, when a
// line break moves every declaration, and after FilesChanged (a module
// created: T6 goes).
func TestKeptToolSet(t *testing.T) {
	var b strings.Builder
	b.WriteString("description: a project\nimports: [more.yaml]\ntools:\n  web_search: beeuni:web_search\n  Bad_name: tools/a.ts\n  twice: tools/a.ts\n")
	for i := range 400 {
		switch i % 50 {
		case 7:
			fmt.Fprintf(&b, "  tool_%03d: tools/missing_%03d.ts\n", i, i)
		case 9:
			fmt.Fprintf(&b, "  tool_%03d: ../outside.ts\n", i)
		default:
			fmt.Fprintf(&b, "  tool_%03d: tools/a.ts\n", i)
		}
	}
	b.WriteString("agents:\n  reviewer:\n    tools: [read, tool_001, nope]\n")
	content := []byte(b.String())
	fsys := vfs.NewMem()
	manifest := filepath.Join(testRoot, ManifestName)
	fsys.WriteFile(manifest, content)
	fsys.WriteFile(filepath.Join(testRoot, "more.yaml"), []byte("tools:\n  twice: tools/a.ts\n"))
	fsys.WriteFile(filepath.Join(testRoot, "tools", "a.ts"), []byte("export default {}\n"))
	// H1 points at tool_001's declaration.
	fsys.WriteFile(filepath.Join(testRoot, "harnesses", "opencode", "tools", "tool_001.ts"), []byte("export default {}\n"))
	cache := NewCache()
	cache.chunkLines = 8 // description and imports in their own chunk
	compareLoads(t, fsys, cache)
	at := func(s string) int { return bytes.Index(content, []byte(s)) + len(s) }
	steps := []struct {
		name  string
		edit  []byte
		files func()
		taken bool
	}{
		{"a letter before tools:", splice(content, at("a proj"), 0, "x"), nil, true},
		{"another", splice(content, at("a proj"), 0, "xy"), nil, true},
		{"a letter in an agent", splice(content, at("tool_001, no"), 0, "x"), nil, true},
		{"a line break before tools:", splice(content, at("a proj"), 0, "\n  x"), nil, false},
		{"taken back", content, nil, false},
		{"the same again", splice(content, at("a proj"), 0, "x"), nil, true},
		{"a tool renamed", splice(content, at("tool_2"), 0, "x"), nil, false},
		{"a module created", splice(content, at("tool_2"), 0, "x"), func() {
			fsys.WriteFile(filepath.Join(testRoot, "tools", "missing_007.ts"), []byte("export default {}\n"))
			cache.FilesChanged()
		}, false},
		{"then a letter before tools:", splice(splice(content, at("tool_2"), 0, "x"), at("a proj"), 0, "z"), nil, true},
	}
	for _, s := range steps {
		before := cache.memos[testRoot].kept
		fsys.WriteFile(manifest, s.edit)
		if s.files != nil {
			s.files()
		}
		compareLoads(t, fsys, cache)
		if taken := cache.memos[testRoot].kept == before; taken != s.taken {
			t.Fatalf("%s: tool set taken whole %v, want %v", s.name, taken, s.taken)
		}
	}
}
