package bunload

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/bunload/buntest"
)

// bunBinary is BEEUNI_BUN (see buntest.Binary).
func bunBinary(t *testing.T) string { t.Helper(); return buntest.Binary(t) }

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoad(t *testing.T) {
	bun := bunBinary(t)
	src := t.TempDir()
	write(t, src, map[string]string{
		"tools/ok.ts":         "export default { description: 'ok', parameters: { type: 'object', properties: {} }, execute() { throw new Error('never called') } }\n",
		"tools/undeclared.ts": "export default { description: 'x', parameters: schema, execute() {} }\n",
		"tools/no_type.mjs":   "export default { description: 'x', parameters: { properties: {} }, execute() {} }\n",
		"tools/missing.ts":    "import { z } from 'zod'\nexport default { description: 'x', parameters: z, execute() {} }\n",
	})
	ws := filepath.Join(t.TempDir(), "copy")
	if _, err := CopyWorkspace(src, ws); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ module, want string }{
		{"tools/ok.ts", "loads"},
		{"tools/undeclared.ts", "fails runtime: schema is not defined"},
		{"tools/no_type.mjs", "fails parameters: `parameters` is not an object schema"},
		{"tools/missing.ts", "fails resolve: Cannot find package 'zod' imported from tools/missing.ts"},
	}
	for _, tc := range tests {
		v, err := Load(context.Background(), bun, ws, filepath.Join(ws, tc.module))
		if err != nil {
			t.Fatal(err)
		}
		if v.String() != tc.want {
			t.Errorf("%s: %s, want %s", tc.module, v, tc.want)
		}
	}
	if _, err := Load(context.Background(), filepath.Join(t.TempDir(), "no-bun"), ws, filepath.Join(ws, "tools/ok.ts")); err == nil {
		t.Error("Load with a missing bun binary: no error")
	}
}

func TestCopyWorkspace(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, map[string]string{"secret.txt": "real"})
	src := filepath.Join(t.TempDir(), "project")
	write(t, src, map[string]string{"tools/a.ts": "a", ".git/HEAD": "ref", "node_modules/p/index.js": "p"})
	links := []struct {
		path, target string
		kept         bool
	}{
		{"node_modules/q", "p", true},
		{"node_modules/r", "q/index.js", true}, // through another kept link
		{"tools/lib", "../node_modules/p", true},
		{"self", ".", true},
		{"abs-inside", filepath.Join(src, "tools"), false}, // a copy would point at the real tools/
		{"abs-outside", filepath.Join(outside, "secret.txt"), false},
		{"up", "../../" + filepath.Base(outside) + "/secret.txt", false},
		{"by-name", "../project/tools", false}, // resolves inside, but not in a copy of another name
		{"escape", "self/..", false},           // inside as written, out as resolved
		{"dangling", "nowhere", false},
		{"loop", "loop", false},
	}
	for _, l := range links {
		if err := os.Symlink(l.target, filepath.Join(src, filepath.FromSlash(l.path))); err != nil {
			t.Fatal(err)
		}
	}
	dst := filepath.Join(t.TempDir(), "copy")
	skipped, err := CopyWorkspace(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dst, "tools/a.ts")); err != nil || string(b) != "a" {
		t.Errorf("tools/a.ts: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dst, ".git")); !os.IsNotExist(err) {
		t.Errorf(".git copied: %v", err)
	}
	var wantSkipped []string
	for _, l := range links {
		got, err := os.Readlink(filepath.Join(dst, filepath.FromSlash(l.path)))
		switch {
		case l.kept && (err != nil || got != l.target):
			t.Errorf("%s -> %s: not copied as it is (%q, %v)", l.path, l.target, got, err)
		case !l.kept && !os.IsNotExist(err):
			t.Errorf("%s -> %s: copied (%q, %v), want it skipped", l.path, l.target, got, err)
		}
		if !l.kept {
			wantSkipped = append(wantSkipped, l.path+" -> "+l.target)
		}
	}
	sort.Strings(wantSkipped)
	sort.Strings(skipped)
	if strings.Join(skipped, "\n") != strings.Join(wantSkipped, "\n") {
		t.Errorf("skipped:\n%s\nwant:\n%s", strings.Join(skipped, "\n"), strings.Join(wantSkipped, "\n"))
	}
}
