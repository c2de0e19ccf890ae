package tsinspect_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
	"github.com/beeuni/beeuni-lsp/internal/vfs/vfstest"
)

// Hostile modules on the real disk: each inspection ends with a finding
// that says what is wrong, without blocking, and reads nothing outside the
// repository.

// inspectGuarded inspects one module and fails if Inspect has not returned
// after a generous bound (a hang guard, not a speed measurement).
func inspectGuarded(t *testing.T, in *tsinspect.Inspector, root, module string) *tsinspect.Result {
	t.Helper()
	done := make(chan *tsinspect.Result, 1)
	go func() { done <- in.Inspect(context.Background(), root, module) }()
	select {
	case r := <-done:
		return r
	case <-time.After(60 * time.Second):
		t.Fatalf("Inspect(%s) did not return within a minute", module)
	}
	return nil
}

func wantModuleFinding(t *testing.T, r *tsinspect.Result, code, inMessage string) diag.Finding {
	t.Helper()
	for _, f := range r.Findings {
		if f.Code == code && strings.Contains(f.Message, inMessage) {
			return f
		}
	}
	var b strings.Builder
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "  %s %s\n", f.Code, f.Message)
	}
	t.Fatalf("%s: no %s finding saying %q; findings:\n%s", r.Module, code, inMessage, b.String())
	return diag.Finding{}
}

const validModule = `export default {
  description: 'Look up an order.',
  parameters: { type: 'object', properties: { id: { type: 'string', description: 'id' } }, required: ['id'] },
  async execute(args) { return args.id },
}
`

func TestHostileModules(t *testing.T) {
	big := "// filler\n" + strings.Repeat("const x = 1;\n", (50<<20)/13) + validModule
	root := vfstest.WriteRepo(t, map[string]string{
		"tools/big.ts":             big,
		"tools/binary.ts":          "\x7fELF\x02\x01\x01\x00\x00\x00" + strings.Repeat("\x00\xff", 1000),
		"tools/utf8.ts":            "export default { description: '\xff\xfe' }\n",
		"tools/zero.ts":            "-> /dev/zero",
		"tools/folder.ts/index.ts": validModule,
	})
	if err := syscall.Mkfifo(filepath.Join(root, "tools/fifo.ts"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys := vfstest.NewRecordingFS(vfs.NewDisk())
	in := tsinspect.New(fsys, tsinspect.Options{})
	tests := []struct {
		module, code, says string
	}{
		{"tools/big.ts", "M12", "over the"},
		{"tools/binary.ts", "M12", "not JavaScript or TypeScript text: a NUL byte at line 1"},
		{"tools/utf8.ts", "M12", "not UTF-8"},
		{"tools/zero.ts", "M12", "character device"},
		{"tools/fifo.ts", "M12", "named pipe"},
		{"tools/folder.ts", "M12", "directory"},
	}
	for _, tc := range tests {
		t.Run(tc.module, func(t *testing.T) {
			r := inspectGuarded(t, in, root, filepath.Join(root, tc.module))
			wantModuleFinding(t, r, tc.code, tc.says)
			if r.Incomplete {
				t.Error("the inspection is marked incomplete; want a verdict")
			}
		})
	}
}

func TestHostileImportsStayInsideTheRepository(t *testing.T) {
	root := vfstest.WriteRepo(t, map[string]string{
		"tools/up.ts":   "import s from '../../outside/secret.ts'\nconsole.log(s)\n" + validModule,
		"tools/abs.ts":  "import '/etc/hostname'\n" + validModule,
		"tools/pkg.ts":  "import { z } from 'zod'\nconsole.log(z)\n" + validModule,
		"tools/link.ts": "import './linked/secret.ts'\n" + validModule,
		"tools/loop.ts": "import 'loop'\nimport 'loop/deeper/x'\n" + validModule,
		// node_modules that point out of the repository, or into themselves.
		"tools/node_modules":                   "-> ../../outside/node_modules",
		"tools/linked":                         "-> ../../outside",
		"other/node_modules/loop":              "-> ../node_modules",
		"other/loop.ts":                        "import 'loop'\nimport 'loop/loop/loop/x'\n" + validModule,
		"other/node_modules/.keep":             "",
		"third/node_modules/loop/package.json": `{"main": "../loop/../loop/index.js", "exports": {".": "./self/self/index.js"}}`,
		"third/node_modules/loop/self":         "-> .",
		"third/x.ts":                           "import 'loop'\n" + validModule,
	})
	outside := filepath.Join(filepath.Dir(root), "outside")
	for name, content := range map[string]string{
		"secret.ts":                     "export default 1\n",
		"node_modules/zod/package.json": `{"main": "index.js"}`,
		"node_modules/zod/index.js":     "export const z = 1\n",
	} {
		p := filepath.Join(outside, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fsys := vfstest.NewRecordingFS(vfs.NewDisk())
	in := tsinspect.New(fsys, tsinspect.Options{})
	tests := []struct{ module, code, says string }{
		{"tools/up.ts", "M2", "Cannot find module '../../outside/secret.ts': it is outside the repository"},
		{"tools/abs.ts", "M11", "'/etc/hostname' cannot be checked statically"},
		{"tools/pkg.ts", "M2", "Cannot find package 'zod'"}, // only through a node_modules linked from outside
		{"tools/link.ts", "M2", "Cannot find module './linked/secret.ts': it leaves the repository through a symbolic link"},
		{"tools/loop.ts", "M2", "Cannot find package 'loop'"},
		{"other/loop.ts", "M2", "Cannot find module 'loop/loop/loop/x'"},
		{"third/x.ts", "M2", "Cannot find module 'loop'"},
	}
	for _, tc := range tests {
		t.Run(tc.module, func(t *testing.T) {
			r := inspectGuarded(t, in, root, filepath.Join(root, tc.module))
			if r.Incomplete {
				t.Errorf("incomplete inspection: %+v", r.Findings)
			}
			wantModuleFinding(t, r, tc.code, tc.says)
		})
	}
	fsys.AssertReadsWithin(t, root)
}
