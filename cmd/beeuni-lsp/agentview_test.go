package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestAgentViewGolden runs each archive of testdata/agentview: its files
// are the project, `args` holds one command line per line, and `want` the
// exit code, stdout and stderr of each (go test -update rewrites it).
func TestAgentViewGolden(t *testing.T) {
	archives, err := filepath.Glob(filepath.Join("testdata", "agentview", "*.txtar"))
	if err != nil || len(archives) == 0 {
		t.Fatalf("no archives in testdata/agentview (%v)", err)
	}
	for _, name := range archives {
		t.Run(strings.TrimSuffix(filepath.Base(name), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(name)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			var args, want []byte
			wantAt := -1
			for i, f := range ar.Files {
				switch f.Name {
				case "args":
					args = f.Data
					continue
				case "want":
					want, wantAt = f.Data, i
					continue
				}
				p := filepath.Join(dir, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if wantAt < 0 || len(args) == 0 {
				t.Fatalf("%s needs an `args` and a `want` section", name)
			}
			var b strings.Builder
			for line := range strings.Lines(string(args)) {
				fields := strings.Fields(line)
				if len(fields) == 0 {
					continue
				}
				stdout, stderr, code := runCLI(dir, fields...)
				fmt.Fprintf(&b, "$ beeuni-lsp %s\nexit %d\n== stdout ==\n%s== stderr ==\n%s", strings.Join(fields, " "), code, stdout, stderr)
			}
			got := strings.ReplaceAll(b.String(), dir, "$DIR")
			if *updateCLI {
				ar.Files[wantAt].Data = []byte(got)
				if err := os.WriteFile(name, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !bytes.Equal([]byte(got), want) {
				t.Errorf("output differs from %s's want\n--- got\n%s\n--- want\n%s", name, got, want)
			}
		})
	}
}
