package tsinspect

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/*.txtar")

// The golden fixtures are txtar archives of a repository. Every file under
// tools/ (or named in a `-- modules --` section, one path a line) is
// inspected; the `-- want --` section holds the expected report.
const repoRoot = "/repo"

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	corpus, err := filepath.Glob("testdata/corpus/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, corpus...)
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, file := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(file), "testdata/"), ".txtar")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			ar := txtar.Parse(data)
			got := report(t, ar)
			var want string
			wantAt := -1
			for i, f := range ar.Files {
				if f.Name == "want" {
					want, wantAt = string(f.Data), i
				}
			}
			if *update {
				if wantAt < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "want"})
					wantAt = len(ar.Files) - 1
				}
				ar.Files[wantAt].Data = []byte(got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got != want {
				t.Errorf("report differs (run go test -update to accept)\n--- got\n%s--- want\n%s", got, want)
			}
		})
	}
}

// report inspects the fixture's modules and renders one line per fact.
func report(t *testing.T, ar *txtar.Archive) string {
	t.Helper()
	mem := vfs.NewMem()
	var modules []string
	for _, f := range ar.Files {
		switch {
		case f.Name == "want", f.Name == "bun":
		case f.Name == "modules":
			for _, l := range strings.Fields(string(f.Data)) {
				modules = append(modules, filepath.Join(repoRoot, l))
			}
		default:
			mem.WriteFile(filepath.Join(repoRoot, filepath.FromSlash(f.Name)), f.Data)
		}
	}
	if modules == nil {
		for _, f := range ar.Files {
			if strings.HasPrefix(f.Name, "tools/") {
				modules = append(modules, filepath.Join(repoRoot, filepath.FromSlash(f.Name)))
			}
		}
	}
	sort.Strings(modules)
	in := New(mem, Options{})
	var b strings.Builder
	for _, r := range in.InspectAll(context.Background(), repoRoot, modules) {
		b.WriteString(renderResult(r, mem))
	}
	return b.String()
}

func renderResult(r *Result, fsys vfs.FS) string {
	var b strings.Builder
	rel := func(p string) string {
		s, _ := filepath.Rel(repoRoot, p)
		return filepath.ToSlash(s)
	}
	fmt.Fprintf(&b, "module %s loads=%v", rel(r.Module), r.Loads)
	if !r.Loads {
		fmt.Fprintf(&b, " reason=%q", r.Reason)
		if !r.ReasonRange.IsZero() {
			fmt.Fprintf(&b, " at=%s", posString(r.Lines, r.ReasonRange))
		}
	}
	b.WriteString("\n")
	if r.DescriptionKnown {
		fmt.Fprintf(&b, "  description %q\n", r.Description)
	}
	if r.Parameters != nil {
		fmt.Fprintf(&b, "  parameters %s\n", r.Parameters)
	}
	fs := append([]diag.Finding(nil), r.Findings...)
	diag.Sort(fs)
	for _, f := range fs {
		data, _ := fsys.ReadFile(f.File)
		lines := r.Lines // compact: positions, no content
		if f.File != r.Module {
			lines = diag.NewLines(data)
		}
		// the range's text, so that a wrong position shows in the golden file
		text := string(data[f.Range.Start.Offset:f.Range.End.Offset])
		if len(text) > 40 {
			text = text[:37] + "..."
		}
		fmt.Fprintf(&b, "  %s:%s %s %s %q: %s\n", rel(f.File), posString(lines, f.Range), f.Severity, f.Code, text, f.Message)
	}
	return b.String()
}

func posString(l *diag.Lines, r diag.Range) string {
	return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line+1, l.CharColumn(r.Start)+1, r.End.Line+1, l.CharColumn(r.End)+1)
}
