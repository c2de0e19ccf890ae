package features

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/tools/txtar"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// FuzzCompletion feeds arbitrary text and cursor offsets to completion with
// no project: it must not panic, and every edit must replace a range of the
// cursor's line that holds the cursor, on character boundaries.
func FuzzCompletion(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txtar")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, tf := range txtar.Parse(data).Files {
			text := string(tf.Data)
			if i := strings.Index(text, cursorMark); i >= 0 {
				f.Add(strings.Replace(text, cursorMark, "", 1), i)
			}
		}
	}
	f.Add("tools:\n  web_se", 14)
	f.Add("agents:\n  a:\n    tools: { exclude: [b", 37)
	f.Fuzz(func(t *testing.T, text string, offset int) {
		repo := &RepoFiles{Root: "/r", Modules: []string{"tools/a.ts", "tools/Üb-er.ts"}, YAML: []string{"a.yaml"}}
		items := Completion(nil, repo, "/r/beeuni.yaml", []byte(text), offset)
		for _, it := range items {
			s, e := it.Edit.Start, it.Edit.End
			if s < 0 || e > len(text) || s > e || s > offset || e < offset {
				t.Fatalf("edit %d-%d around cursor %d in %d bytes", s, e, offset, len(text))
			}
			if strings.Contains(text[s:e], "\n") {
				t.Fatalf("edit %q spans lines", text[s:e])
			}
			for _, o := range []int{s, e} {
				if o != offset && insideRune([]byte(text), o) {
					t.Fatalf("edit %d-%d splits a character", s, e)
				}
			}
		}
	})
}

// insideRune reports whether offset o falls strictly inside a valid
// multi-byte UTF-8 sequence of b (a lone continuation byte is no character).
func insideRune(b []byte, o int) bool {
	for start := o - 1; start >= 0 && start >= o-3; start-- {
		if b[start]&0xC0 != 0x80 {
			r, size := utf8.DecodeRune(b[start:])
			return r != utf8.RuneError && start+size > o
		}
	}
	return false
}

// FuzzFeatures loads arbitrary text as a root manifest and runs every
// feature at an arbitrary offset: no panic, ranges inside the file.
func FuzzFeatures(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txtar")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, tf := range txtar.Parse(data).Files {
			if strings.HasSuffix(tf.Name, ".yaml") {
				text := string(tf.Data)
				f.Add(strings.ReplaceAll(text, cursorMark, ""), strings.Index(text, cursorMark))
			}
		}
	}
	f.Fuzz(func(t *testing.T, text string, offset int) {
		fsys := vfs.NewMem()
		fsys.WriteFile("/f/beeuni.yaml", []byte(text))
		fsys.WriteFile("/f/tools/a.ts", []byte("export default {}\n"))
		p, err := analysis.Load(context.Background(), fsys, "/f")
		if err != nil {
			t.Fatal(err)
		}
		file := p.File("/f/beeuni.yaml")
		if file == nil {
			t.Fatal("root not loaded")
		}
		repo := &RepoFiles{Root: "/f", Modules: []string{"tools/a.ts"}}
		checkEveryOffsetAt(t, p, repo, file, offset)
		DocumentSymbols(p, file.Path)
		DocumentLinks(p, file.Path)
		FoldingRanges(p, file.Path)
		InlayHints(p, nil, file.Path)
		WorkspaceSymbols([]*analysis.Project{p}, text)
	})
}
