//go:build linux

package protocol

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs/vfstest"
)

// wantDiagnostic waits until the published diagnostics of path hold one
// whose message contains each of says, and returns them.
func (s *session) wantDiagnostic(from int, path string, says ...string) []diagnostic {
	s.t.Helper()
	return s.waitDiagnostics(from, path, -1, func(ds []diagnostic) bool {
		for _, want := range says {
			found := false
			for _, d := range ds {
				if strings.Contains(d.Message, want) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	})
}

// TestHostileWorkspaceOverLSP opens a manifest whose tools and imports
// point at everything a hostile repository can hold, and waits for the
// finding on each: the server neither hangs on a FIFO or a device nor
// reads outside the repository, and still answers afterwards.
func TestHostileWorkspaceOverLSP(t *testing.T) {
	var bomb strings.Builder
	bomb.WriteString("a0: &a0 [web_search, lol]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&bomb, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	bomb.WriteString("agents:\n  bomb:\n    tools: *a9\n")
	manifest := `imports: [bomb.yaml, nested.yaml, cycle/a.yaml, outside.yaml]
tools:
  web_search: beeuni:web_search
  fifo: tools/fifo.ts
  zero: tools/zero.ts
  big: tools/big.ts
  binary: tools/binary.ts
  looped: tools/looped.ts
  escape: ../escape.ts
`
	root := writeWorkspace(t, map[string]string{
		"beeuni.yaml":              manifest,
		"bomb.yaml":                bomb.String(),
		"nested.yaml":              "tools: " + strings.Repeat("[", 50_000) + strings.Repeat("]", 50_000) + "\n",
		"cycle/a.yaml":             "imports: [cycle/b.yaml]\n",
		"cycle/b.yaml":             "imports: [cycle/a.yaml]\n",
		"tools/big.ts":             "// " + strings.Repeat("x", 50<<20) + "\nexport default {}\n",
		"tools/binary.ts":          "\x7fELF\x02\x01\x01\x00" + strings.Repeat("\x00\xff", 512),
		"tools/looped.ts":          "import 'pkg'\nexport default { description: 'd', parameters: { type: 'object', properties: {} }, execute() {} }\n",
		"tools/node_modules/.keep": "",
	})
	mustSymlink(t, "/dev/zero", filepath.Join(root, "tools/zero.ts"))
	mustSymlink(t, "..", filepath.Join(root, "tools/node_modules/pkg"))
	mustSymlink(t, ".", filepath.Join(root, "tools/node_modules/self"))
	mustSymlink(t, "../..", filepath.Join(root, "deep/loop/up"))
	mustSymlink(t, "/etc/passwd", filepath.Join(root, "outside.yaml"))
	if err := syscall.Mkfifo(filepath.Join(root, "tools/fifo.ts"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &session{client: startServer(t, root), root: root, manifest: filepath.Join(root, "beeuni.yaml")}
	s.initialize()
	from := s.notificationCount()
	s.version, s.sent = 1, []int{1}
	s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": fileURI(s.manifest), "languageId": "yaml", "version": 1, "text": manifest}})
	s.wantDiagnostic(from, s.manifest,
		"`outside.yaml` leaves the repository through a symbolic link",
		"`tools/fifo.ts` is not a regular file",
		"`tools/zero.ts` leaves the repository through a symbolic link",
		"`../escape.ts` leaves the repository",
	)
	s.wantDiagnostic(from, filepath.Join(root, "cycle/b.yaml"), "import cycle: cycle/a.yaml → cycle/b.yaml → cycle/a.yaml")
	s.wantDiagnostic(from, filepath.Join(root, "nested.yaml"), "YAML syntax error")
	s.wantDiagnostic(from, filepath.Join(root, "tools/big.ts"), "over the")
	s.wantDiagnostic(from, filepath.Join(root, "tools/binary.ts"), "not JavaScript or TypeScript text")
	s.wantDiagnostic(from, filepath.Join(root, "tools/looped.ts"), "Cannot find")
	// Completion scans the repository for modules and YAML files, and
	// workspace symbols every project: through the link loops, both end.
	uri := fileURI(s.manifest)
	for _, pos := range [][2]int{{2, 2}, {3, 8}, {0, 11}} {
		m := s.call("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": pos[0], "character": pos[1]}})
		if m.Error != nil {
			t.Fatalf("completion at %v: %+v", pos, m.Error)
		}
	}
	if m := s.call("workspace/symbol", map[string]any{"query": ""}); m.Error != nil {
		t.Fatalf("workspace/symbol: %+v", m.Error)
	}
	s.checkAlive()
}

// TestFilesChangingUnderAnOpenProject deletes, renames and makes
// unreadable files of an open project, telling the server through
// workspace/didChangeWatchedFiles as an editor does, and checks that the
// server says what happened each time. Root reads any file whatever its
// mode, so when the tests run as root the server runs as nobody.
func TestFilesChangingUnderAnOpenProject(t *testing.T) {
	manifest := "imports: [lib/more.yaml]\ntools:\n  web_search: beeuni:web_search\n  lookup: tools/lookup.ts\n"
	root := writeWorkspace(t, map[string]string{
		"beeuni.yaml":     manifest,
		"lib/more.yaml":   "tools:\n  memory: beeuni:memory\n",
		"tools/lookup.ts": "export default { description: 'd', parameters: { type: 'object', properties: {} }, execute() { return '' } }\n",
	})
	cmd := exec.Command(serverBinary, "serve")
	if os.Geteuid() == 0 {
		openUp(t, root)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	s := &session{client: startCommand(t, cmd, root), root: root, manifest: filepath.Join(root, "beeuni.yaml")}
	s.initialize()
	s.openSentinelWith(manifest + "  Sentinel: tools/lookup.ts\n")
	watched := func(path string, kind int) {
		s.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": fileURI(path), "type": kind}}})
	}
	const created, changed, deleted = 1, 2, 3
	more, lookup := filepath.Join(root, "lib/more.yaml"), filepath.Join(root, "tools/lookup.ts")

	// Made unreadable.
	if err := os.Chmod(more, 0o000); err != nil {
		t.Fatal(err)
	}
	from := s.notificationCount()
	watched(more, changed)
	s.wantDiagnostic(from, s.manifest, "`lib/more.yaml` cannot be read", "permission denied")

	// Readable again, then deleted.
	if err := os.Chmod(more, 0o644); err != nil {
		t.Fatal(err)
	}
	from = s.notificationCount()
	watched(more, changed)
	s.waitDiagnostics(from, s.manifest, -1, func(ds []diagnostic) bool {
		for _, d := range ds {
			if strings.Contains(d.Message, "lib/more.yaml") {
				return false
			}
		}
		return true
	})
	if err := os.Remove(more); err != nil {
		t.Fatal(err)
	}
	from = s.notificationCount()
	watched(more, deleted)
	s.wantDiagnostic(from, s.manifest, "`lib/more.yaml` does not exist")

	// A module renamed away, and one made unreadable.
	if err := os.Rename(lookup, lookup+".bak"); err != nil {
		t.Fatal(err)
	}
	from = s.notificationCount()
	watched(lookup, deleted)
	watched(lookup+".bak", created)
	s.wantDiagnostic(from, s.manifest, "`tools/lookup.ts` does not exist")
	if err := os.Rename(lookup+".bak", lookup); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(lookup, 0o000); err != nil {
		t.Fatal(err)
	}
	from = s.notificationCount()
	watched(lookup, created)
	s.wantDiagnostic(from, lookup, "permission denied")

	// The open manifest itself deleted on disk: its buffer goes on.
	if err := os.Remove(s.manifest); err != nil {
		t.Fatal(err)
	}
	watched(s.manifest, deleted)
	s.checkAlive()
}

// openUp lets another user read and enter the test's folders (t.TempDir()
// makes them 0700), root (from t.TempDir()) and the server binary's.
func openUp(t *testing.T, root string) {
	t.Helper()
	if err := vfstest.OpenTempDir(root); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(serverBinary), 0o755); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.Chmod(p, 0o777)
		}
		return os.Chmod(p, 0o666)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
