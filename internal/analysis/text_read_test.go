package analysis

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// textBuffers is one editor buffer as vfs.Buffers: its content is the
// pieces an editor's keystrokes made (diag.Text.Edited).
type textBuffers struct {
	path string
	text *diag.Text
}

func (b *textBuffers) Buffer(path string) (int64, func() *diag.Text, bool) {
	if path != b.path {
		return 0, nil, false
	}
	t := b.text
	return int64(t.Len()), func() *diag.Text { return t }, true
}

func (b *textBuffers) BuffersIn(dir string, f func(name string, size int64)) {
	if filepath.Dir(b.path) == dir {
		f(filepath.Base(b.path), int64(b.text.Len()))
	}
}

// TestKeystrokeDoesNotCopyTheManifest types into a 10,000-tool manifest
// open in an editor (a 2.4 MB buffer whose versions share their pieces)
// and loads the project after each keystroke, as the server does. The
// engine must read the buffer's pieces (File.Text is the buffer's text),
// find it by chunks, and allocate per keystroke well under the file's
// size: a reader on the keystroke's path that made the content whole
// (Text.Bytes) would copy it on every keystroke.
func TestKeystrokeDoesNotCopyTheManifest(t *testing.T) {
	manifest, modules := generatedManifest(10000)
	// A comment on every tool's line: 2.4 MB of content, so that a copy
	// of it per keystroke stands out from the engine's own allocations.
	manifest = strings.ReplaceAll(manifest, ".ts\n", ".ts  # "+strings.Repeat("comment ", 23)+"\n")
	root := "/repo"
	disk := vfs.NewMem()
	for _, m := range modules {
		disk.WriteFile(filepath.Join(root, m), []byte("export default {}\n"))
	}
	path := filepath.Join(root, ManifestName)
	bufs := &textBuffers{path: path, text: diag.TextOf([]byte(manifest))}
	fsys := vfs.NewLayered(disk, bufs)
	cache := NewCache()
	ctx := context.Background()
	load := func() *Project {
		t.Helper()
		p, err := LoadCached(ctx, fsys, root, cache)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	load()
	// Typing in each place in turn (a character added, then removed):
	// each place's keystrokes are measured on their own.
	places := []struct {
		name string
		at   int
	}{
		{"a tool's key", strings.Index(manifest, "tool_00500:") + len("tool_00500")},
		{"a comment at the top", 2},
		{"an agent's flow list of tools", strings.Index(manifest, "[read, grep") + len("[read")},
	}
	const keystrokes = 20
	typeAt := func(at, i int) *Project {
		if i%2 == 0 {
			bufs.text = bufs.text.Edited(at, at, "x")
		} else {
			bufs.text = bufs.text.Edited(at, at+1, "")
		}
		return load()
	}
	var last *Project
	for _, place := range places {
		for i := range 2 { // warm the scratch and the memo
			typeAt(place.at, i)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range keystrokes {
			last = typeAt(place.at, i)
		}
		runtime.ReadMemStats(&after)
		perKey := int(after.TotalAlloc-before.TotalAlloc) / keystrokes
		if limit := len(manifest) / 2; perKey > limit {
			t.Errorf("typing in %s: a keystroke allocates %d bytes, want under %d (half the %d-byte manifest): something on the keystroke's path copies the content", place.name, perKey, limit, len(manifest))
		}
	}
	f := last.Files[0]
	if f.Text != bufs.text {
		t.Fatal("the engine's file is not the buffer's text: it read the buffer as bytes")
	}
	if !f.OneDocument() {
		t.Fatal("the manifest was parsed whole, not by chunks")
	}
	if string(f.Content()) != string(bufs.text.Bytes()) {
		t.Fatal("the file's content differs from the buffer's")
	}
}
