package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// lazySpec is the lazy.nvim spec the docs give: the plugin, and a build
// step that installs the server of the same commit.
const lazySpec = "{ 'beeuni/beeuni-lsp', build = 'go install ./cmd/beeuni-lsp', config = function() vim.lsp.enable('beeuni') end }"

// The lazy.nvim spec of docs/editors.md, the README and :help beeuni is
// one, and its build step, run as lazy.nvim runs it (a shell command in
// the plugin's clone), installs a beeuni-lsp that runs.
func TestLazyNvimSpecBuildsTheServer(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, doc := range []string{"docs/editors.md", "README.md", "editors/neovim/doc/beeuni.txt"} {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(doc)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), lazySpec) {
			t.Errorf("%s does not give the lazy.nvim spec %s", doc, lazySpec)
		}
	}
	build := regexp.MustCompile(`build = '([^']+)'`).FindStringSubmatch(lazySpec)[1]
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatalf("sh runs lazy.nvim's build command: %v", err)
	}
	gobin := t.TempDir()
	cmd := exec.Command(sh, "-c", build)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOBIN="+gobin, "GOFLAGS=-buildvcs=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", build, err, out)
	}
	out, err := exec.Command(filepath.Join(gobin, "beeuni-lsp"), "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "beeuni-lsp ") {
		t.Fatalf("the installed beeuni-lsp version: %q, %v", out, err)
	}
}
