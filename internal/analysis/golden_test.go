package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/cases from the current output")

// testRoot is where txtar workspaces are laid out in memory.
var testRoot = filepath.FromSlash("/repo")

// The golden corpus: testdata/cases/NAME.txtar is a workspace (its files
// laid out under /repo); NAME.golden is what the engine says about it: every
// finding with its full range (line:column, 1-based, column in characters),
// related places and data, then the `tools ls` text and JSON, then what each
// agent's model sees.
func TestGolden(t *testing.T) {
	archives, err := filepath.Glob(filepath.Join("testdata", "cases", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(archives) == 0 {
		t.Fatal("no golden cases")
	}
	for _, archive := range archives {
		name := strings.TrimSuffix(filepath.Base(archive), ".txtar")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(archive)
			if err != nil {
				t.Fatal(err)
			}
			fsys := vfs.MemFromTxtar(testRoot, data)
			got := describe(t, fsys, testRoot)
			goldenPath := strings.TrimSuffix(archive, ".txtar") + ".golden"
			if *update {
				if err := os.WriteFile(goldenPath, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(goldenPath)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (go test -update rewrites it)\n--- got\n%s\n--- want\n%s", goldenPath, got, want)
			}
		})
	}
}

func describe(t *testing.T, fsys vfs.FS, root string) string {
	t.Helper()
	p, err := Load(context.Background(), fsys, root)
	if err != nil {
		return "load error: " + err.Error() + "\n"
	}
	var b strings.Builder
	b.WriteString("== findings\n")
	for _, f := range p.Findings {
		fmt.Fprintf(&b, "%s:%s: %s: %s [%s]\n", p.Rel(f.File), span(p, f.File, f.Range), f.Severity, f.Message, f.Code)
		for _, r := range f.Related {
			fmt.Fprintf(&b, "    related %s:%s: %s\n", p.Rel(r.File), span(p, r.File, r.Range), r.Message)
		}
		if len(f.Data) > 0 {
			keys := make([]string, 0, len(f.Data))
			for k := range f.Data {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			b.WriteString("    data")
			for _, k := range keys {
				fmt.Fprintf(&b, " %s=%q", k, f.Data[k])
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("== tools ls\n")
	b.WriteString(FormatToolsLs(p.Model, NotLoadedTools(p, p.Findings)))
	b.WriteString("== tools ls --json\n")
	js, err := json.MarshalIndent(ToolsLsJSON(p, NotLoadedTools(p, p.Findings)), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b.Write(js)
	b.WriteString("\n")
	if len(p.Model.Agents) > 0 {
		b.WriteString("== agents\n")
		for _, a := range p.Model.Agents {
			sees := "(invalid)"
			if a.Sees.Valid() {
				sees = strings.Join(a.Sees.Names(), " ")
			}
			fmt.Fprintf(&b, "%s (%s, %s): %s\n", a.Name, p.Rel(a.File), formName(a.Form), sees)
		}
	}
	return b.String()
}

func formName(f AgentForm) string {
	return [...]string{"all", "none", "list", "exclude", "legacy", "invalid"}[f]
}

// span prints a range as line:col-line:col, 1-based, columns in characters.
func span(p *Project, file string, r diag.Range) string {
	f := p.File(file)
	if f == nil {
		return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line+1, r.Start.Col+1, r.End.Line+1, r.End.Col+1)
	}
	return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line+1, CharColumn(f.Lines, r.Start)+1, r.End.Line+1, CharColumn(f.Lines, r.End)+1)
}

// TestOffsetsMatchText checks, for every case, that each finding's range
// lies on the text it names: the byte offsets agree with the line/column
// pairs, and a range is never empty unless it marks a missing value.
func TestOffsetsMatchText(t *testing.T) {
	archives, _ := filepath.Glob(filepath.Join("testdata", "cases", "*.txtar"))
	for _, archive := range archives {
		data, err := os.ReadFile(archive)
		if err != nil {
			t.Fatal(err)
		}
		fsys := vfs.MemFromTxtar(testRoot, data)
		p, err := Load(context.Background(), fsys, testRoot)
		if err != nil {
			continue
		}
		for _, f := range p.Findings {
			file := p.File(f.File)
			if file == nil {
				continue
			}
			for _, pos := range []diag.Pos{f.Range.Start, f.Range.End} {
				if got := file.Lines.Pos(pos.Offset); got != pos {
					t.Errorf("%s: %s [%s]: position %+v disagrees with its offset (%+v)", archive, f.Message, f.Code, pos, got)
				}
			}
			if f.Range.End.Offset < f.Range.Start.Offset {
				t.Errorf("%s: %s: range ends before it starts", archive, f.Message)
			}
			if bytes.ContainsAny(file.Content()[f.Range.Start.Offset:f.Range.End.Offset], "\n") && f.Code != CodeAgentShape && f.Code != CodeNotString && f.Code != CodeShape && f.Code != CodeImportShape {
				t.Errorf("%s: %s [%s]: range spans lines", archive, f.Message, f.Code)
			}
		}
	}
}
