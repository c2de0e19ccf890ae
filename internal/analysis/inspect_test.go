package analysis

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
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

var updateInspect = flag.Bool("update-inspect", false, "rewrite the want sections of testdata/inspect/*.txtar")

// TestInspectModules checks T11 on the manifest's path values and the
// module findings, against the want section of each fixture.
func TestInspectModules(t *testing.T) {
	files, err := filepath.Glob("testdata/inspect/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			ar := txtar.Parse(data)
			const root = "/repo"
			src := &txtar.Archive{}
			wantAt := -1
			for i, f := range ar.Files {
				if f.Name == "want" {
					wantAt = i
					continue
				}
				src.Files = append(src.Files, f)
			}
			mem := vfs.MemFromTxtar(root, txtar.Format(src))
			p, err := Load(context.Background(), mem, root)
			if err != nil {
				t.Fatal(err)
			}
			insp := InspectModules(context.Background(), p, tsinspect.New(mem, tsinspect.Options{}))
			got := renderInspection(p, mem, insp)
			if *updateInspect {
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
			if wantAt < 0 || string(ar.Files[wantAt].Data) != got {
				want := ""
				if wantAt >= 0 {
					want = string(ar.Files[wantAt].Data)
				}
				t.Errorf("inspection differs (go test -update-inspect to accept)\n--- got\n%s--- want\n%s", got, want)
			}
		})
	}
}

func renderInspection(p *Project, fsys vfs.FS, in *Inspection) string {
	var b strings.Builder
	for _, f := range in.Findings {
		content, _ := fsys.ReadFile(f.File)
		l := diag.NewLines(content)
		text := string(content[f.Range.Start.Offset:f.Range.End.Offset])
		fmt.Fprintf(&b, "%s:%d:%d %s %s %q: %s", p.Rel(f.File), f.Range.Start.Line+1, l.CharColumn(f.Range.Start)+1, f.Severity, f.Code, text, f.Message)
		if f.Data != nil {
			fmt.Fprintf(&b, " data=%v", f.Data)
		}
		b.WriteString("\n")
	}
	var mods []string
	for m := range in.Results {
		mods = append(mods, p.Rel(m))
	}
	sort.Strings(mods)
	fmt.Fprintf(&b, "inspected: %s\n", strings.Join(mods, " "))
	return b.String()
}

// TestInspectModulesNil covers a project without a model and a nil
// inspector: no findings, no panic.
func TestInspectModulesNil(t *testing.T) {
	if got := InspectModules(context.Background(), &Project{}, nil); len(got.Findings) != 0 || len(got.Results) != 0 {
		t.Fatalf("got %+v", got)
	}
}

// TestInspectModulesCancelled: a cancelled context yields no verdicts.
func TestInspectModulesCancelled(t *testing.T) {
	mem := vfs.MemFromTxtar("/repo", []byte("-- beeuni.yaml --\ntools:\n  a: tools/a.ts\n-- tools/a.ts --\nexport default 1\n"))
	p, err := Load(context.Background(), mem, "/repo")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := InspectModules(ctx, p, tsinspect.New(mem, tsinspect.Options{}))
	if len(got.Findings) != 0 {
		t.Fatalf("cancelled inspection reported %v", got.Findings)
	}
}
