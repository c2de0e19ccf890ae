package analysis_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// FuzzLoad loads arbitrary bytes as beeuni.yaml and as a file it imports
// (and that may import the root back): the engine never panics, never hangs,
// and every finding's range, and every related range, lies inside the file
// it names, with line and column agreeing with its offset.
func FuzzLoad(f *testing.F) {
	seeds := [][2]string{
		{"tools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\n", "tools:\n  memory: beeuni:memory\n"},
		{"imports: [lib/inc.yaml]\ntools: {a: tools/a.ts, a: 1}\n", "imports: [beeuni.yaml, lib/inc.yaml]\n"},
		{"agents:\n  beeuni:\n    tools: [bash, web_serch, '*']\n  x:\n    tools: {exclude: [show]}\n", "agents: {y: {tools: {bash: false}}}\n"},
		{"a: &a [x, x]\nb: &b [*a, *a]\nagents:\n  z:\n    tools: *b\n", "<<: {tools: {q: 1}}\n"},
		{"tools:\n  Bad-Name: beeuni:show\n  bash: x.ts\n  t: /abs.ts\n  u: ../up.ts\n  v: tools/link/x.ts\n", "---\n---\n"},
		{"\xef\xbb\xbftools:\r\n  日本: 😀\r\n\t\n", "\x00\xff"},
		{"tools: [\n", "{{{{"},
		{"tools:\n  x: &x {<<: *x}\n", "imports: {a: b}\n"},
	}
	for _, s := range seeds {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, manifest, imported []byte) {
		const root = "/repo"
		fsys := vfs.NewMem()
		fsys.WriteFile(filepath.Join(root, "beeuni.yaml"), manifest)
		fsys.WriteFile(filepath.Join(root, "lib/inc.yaml"), imported)
		fsys.WriteFile(filepath.Join(root, "tools/a.ts"), []byte("export default {}\n"))
		fsys.WriteFile(filepath.Join(root, "harnesses/opencode/tools/memory.ts"), []byte("x"))
		fsys.Symlink(filepath.Join(root, "tools/link"), "/outside")
		fsys.WriteFile("/outside/x.ts", []byte("x"))
		for _, rootContent := range [][]byte{manifest, append([]byte("imports: [lib/inc.yaml]\n"), manifest...)} {
			fsys.WriteFile(filepath.Join(root, "beeuni.yaml"), rootContent)
			p := loadGuarded(t, fsys, root)
			checkFindings(t, p, fsys)
		}
	})
}

// loadGuarded runs analysis.Load and fails if it has not returned after a
// generous bound: a hang guard, not a speed measurement.
func loadGuarded(t *testing.T, fsys vfs.FS, root string) *analysis.Project {
	t.Helper()
	type result struct {
		p   *analysis.Project
		err error
	}
	done := make(chan result, 1)
	go func() {
		p, err := analysis.Load(context.Background(), fsys, root)
		done <- result{p, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("Load(%s): %v", root, r.err)
		}
		return r.p
	case <-time.After(hangGuard):
		t.Fatalf("Load(%s) did not return within %v", root, hangGuard)
	}
	return nil
}

const hangGuard = 60 * time.Second

// checkFindings checks that every finding and related location points into
// the file it names, at a position consistent with that file's lines.
func checkFindings(t *testing.T, p *analysis.Project, fsys vfs.FS) {
	t.Helper()
	contents := map[string]*diag.Lines{}
	for _, f := range p.Files {
		contents[f.Path] = diag.NewLines(f.Content())
	}
	linesOf := func(path string) *diag.Lines {
		if l, ok := contents[path]; ok {
			return l
		}
		data, err := fsys.ReadFile(path)
		if err != nil {
			t.Fatalf("a finding names %s, which is neither loaded nor readable: %v", path, err)
		}
		contents[path] = diag.NewLines(data)
		return contents[path]
	}
	checkRange := func(what, path string, r diag.Range) {
		l := linesOf(path)
		n := len(l.Content())
		if r.Start.Offset < 0 || r.End.Offset > n || r.Start.Offset > r.End.Offset {
			t.Fatalf("%s: range [%d,%d) outside %s (%d bytes)", what, r.Start.Offset, r.End.Offset, path, n)
		}
		for _, pos := range []diag.Pos{r.Start, r.End} {
			if want := l.Pos(pos.Offset); pos != want {
				t.Fatalf("%s: position %+v in %s, but its offset is at %+v", what, pos, path, want)
			}
		}
	}
	for _, f := range p.Findings {
		what := f.Code + " " + f.Message
		if f.Code == "" || f.Message == "" {
			t.Fatalf("finding without code or message: %+v", f)
		}
		if f.Severity < diag.Error || f.Severity > diag.Hint {
			t.Fatalf("%s: severity %d", what, f.Severity)
		}
		checkRange(what, f.File, f.Range)
		for _, r := range f.Related {
			checkRange(what+" (related)", r.File, r.Range)
		}
	}
}
