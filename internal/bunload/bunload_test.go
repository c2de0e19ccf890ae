package bunload

import (
	"context"
	"os"
	"path/filepath"
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
	if err := CopyWorkspace(src, ws); err != nil {
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
	src := t.TempDir()
	write(t, src, map[string]string{"tools/a.ts": "a", ".git/HEAD": "ref", "node_modules/p/index.js": "p"})
	if err := os.Symlink("p", filepath.Join(src, "node_modules", "q")); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "copy")
	if err := CopyWorkspace(src, dst); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dst, "tools/a.ts")); err != nil || string(b) != "a" {
		t.Errorf("tools/a.ts: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dst, ".git")); !os.IsNotExist(err) {
		t.Errorf(".git copied: %v", err)
	}
	if l, err := os.Readlink(filepath.Join(dst, "node_modules/q")); err != nil || l != "p" {
		t.Errorf("symbolic link: %q, %v", l, err)
	}
}
