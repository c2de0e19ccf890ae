package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/bunload/buntest"
)

func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runtimeProject has a module that loads, and one that the static reader
// says loads while Bun fails: a callback that throws, run by a library call.
var runtimeProject = map[string]string{
	"beeuni.yaml": "tools:\n  web_search: beeuni:web_search\n  ok: tools/ok.ts\n  boom: tools/boom.ts\n",
	"tools/ok.ts": "export default { description: 'ok', parameters: { type: 'object', properties: {} }, execute() {} }\n",
	"tools/boom.ts": "// a callback the static reader does not run: only running it shows the throw\nconst x = [1].map((): never => { throw new Error('boom at load') })\n" +
		"export default { description: 'boom', parameters: { type: 'object', properties: {} }, execute() { return x } }\n",
}

func TestValidateRuntimeUsage(t *testing.T) {
	dir := writeProject(t, runtimeProject)
	tests := []struct {
		name string
		args []string
		says string
	}{
		{"another runtime", []string{"validate", "--runtime", "node", dir}, "the only runtime is bun"},
		{"no value", []string{"validate", dir, "--runtime"}, "--runtime needs a value"},
		{"with json", []string{"validate", "--runtime=bun", "--json", dir}, "drop --json"},
	}
	t.Setenv("PATH", os.Getenv("PATH")+string(os.PathListSeparator)+fakeBun(t))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(dir, tc.args...)
			if code != 2 || !strings.Contains(stderr, tc.says) {
				t.Errorf("exit %d, stderr %q; want exit 2 saying %q", code, stderr, tc.says)
			}
		})
	}
}

// fakeBun is a folder with an executable named bun (never run here).
func fakeBun(t *testing.T) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bun"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestValidateRuntimeWithoutBun(t *testing.T) {
	dir := writeProject(t, runtimeProject)
	t.Setenv("PATH", t.TempDir())
	stdout, stderr, code := runCLI(dir, "validate", "--runtime", "bun")
	if code != 2 || !strings.Contains(stderr, "bun is not on PATH") || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, nothing printed, and that bun is not on PATH", code, stdout, stderr)
	}
}

func TestValidateRuntimeBun(t *testing.T) {
	bun := buntest.Binary(t)
	dir := writeProject(t, runtimeProject)
	// An absolute link into the project: its copy would lead module code to
	// the real tree, so it is not copied, and the report says so.
	real := filepath.Join(dir, "tools")
	if err := os.Symlink(real, filepath.Join(dir, "real-tools")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", filepath.Dir(bun)+string(os.PathListSeparator)+os.Getenv("PATH"))
	stdout, stderr, code := runCLI(dir, "validate", "--runtime", "bun")
	for _, want := range []string{
		"real-tools -> " + real + ": symbolic link not copied",
		"No problems.\n",
		"tools/ok.ts: bun loads; static loads\n",
		"tools/boom.ts: bun fails runtime: boom at load; static loads  [disagreement]\n",
		"2 modules, 1 disagreements\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s%s", want, stdout, stderr)
		}
	}
	if code != 1 {
		t.Errorf("exit %d, want 1 (a disagreement)", code)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); !os.IsNotExist(err) {
		t.Errorf("the project was written to: %v", err)
	}
}
