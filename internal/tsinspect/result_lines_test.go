package tsinspect

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// TestResultKeepsNoContent: a result is kept for its positions (the
// language server holds one per tool module), so its index holds no text
// when the text needs none to convert a position (ASCII, "\n" breaks), and
// the whole text otherwise.
func TestResultKeepsNoContent(t *testing.T) {
	root := filepath.FromSlash("/repo")
	for _, tc := range []struct {
		name, src string
		kept      bool
	}{
		{"ascii.ts", "import { z } from 'zod'\nexport default { description: 'd', z }\n", false},
		{"accents.ts", "// caf\u00e9\nimport { z } from 'zod'\nexport default { description: 'd', z }\n", true},
		{"crlf.ts", "import { z } from 'zod'\r\nexport default { description: 'd', z }\r\n", true},
	} {
		mem := vfs.NewMem()
		path := filepath.Join(root, "tools", tc.name)
		mem.WriteFile(path, []byte(tc.src))
		r := New(mem, Options{}).Inspect(context.Background(), root, path)
		if got := r.Lines.Content() != nil; got != tc.kept {
			t.Errorf("%s: content kept %v, want %v", tc.name, got, tc.kept)
		}
		f, ok := findCode(r, CodeImport)
		if !ok {
			t.Fatalf("%s: no %s finding: %+v", tc.name, CodeImport, r.Findings)
		}
		want := 0
		if tc.kept && tc.name == "accents.ts" {
			want = 1
		}
		if f.Range.Start.Line != want || r.Lines.CharColumn(f.Range.Start) != 18 {
			t.Errorf("%s: %s at line %d, column %d; want %d, 18", tc.name, f.Code, f.Range.Start.Line, r.Lines.CharColumn(f.Range.Start), want)
		}
	}
}
