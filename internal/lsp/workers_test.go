package lsp

import (
	"io/fs"
	"runtime"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// projectWorkers counts the goroutines running a project's worker, of
// every server in the process.
func projectWorkers() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "lsp.(*workspace).yamlWorker") || strings.Contains(g, "lsp.(*workspace).moduleWorker") {
			n++
		}
	}
	return n
}

// Each project has two workers, a YAML worker and a module worker, from
// its registration until it is removed; the server's exit stops the rest.
func TestEachProjectHasItsWorkersUntilRemoved(t *testing.T) {
	eventually(t, "the servers of earlier tests have stopped their workers", func() bool { return projectWorkers() == 0 })
	s := editorSession(t, vfs.MemFromTxtar("/", []byte(foldersWorkspace)), UTF16, "/a")
	s.idle()
	if n := projectWorkers(); n != 2 {
		t.Fatalf("%d worker goroutines for one project, want 2", n)
	}
	s.notify("workspace/didChangeWorkspaceFolders", folderEvent([]string{"/b"}, nil))
	s.idle()
	if n := projectWorkers(); n != 4 {
		t.Fatalf("%d worker goroutines for two projects, want 4", n)
	}
	// Keystrokes start no goroutine: the project's worker takes them.
	s.open("/a/beeuni.yaml", "tools:\n  web_search: beeuni:web_search\n")
	for v := 2; v < 20; v++ {
		s.change("/a/beeuni.yaml", v, "tools:\n  web_search: beeuni:web_search\n# "+strings.Repeat("x", v)+"\n")
	}
	s.idle()
	if n := projectWorkers(); n != 4 {
		t.Fatalf("%d worker goroutines for two projects after typing, want 4", n)
	}
	s.notify("workspace/didChangeWorkspaceFolders", folderEvent(nil, []string{"/b"}))
	s.idle()
	eventually(t, "the removed project's workers have ended", func() bool { return projectWorkers() == 2 })
	if e := s.callErr("shutdown", nil); e != nil {
		t.Fatalf("shutdown: %+v", e)
	}
	s.notify("exit", nil)
	s.exitCode()
	if n := projectWorkers(); n != 0 {
		t.Fatalf("%d worker goroutines outlived the server", n)
	}
}

// panicFS panics at the first read of path.
type panicFS struct {
	vfs.FS
	path string
	once sync.Once
}

func (p *panicFS) ReadFile(name string) ([]byte, error) {
	if name == p.path {
		p.once.Do(func() { panic("read of " + name) })
	}
	return p.FS.ReadFile(name)
}

func (p *panicFS) Stat(name string) (fs.FileInfo, error) { return p.FS.Stat(name) }

// A panic in a load is recovered: the project's YAML worker goes on and
// analyses the next change.
func TestAPanicInALoadLeavesTheWorkerAtWork(t *testing.T) {
	fsys := &panicFS{FS: vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\ntools: {}\n-- boom.yaml --\ntools: {}\n")), path: "/ws/boom.yaml"}
	s := editorSession(t, fsys, UTF16, "/ws")
	const manifest = "/ws/beeuni.yaml"
	s.open(manifest, "imports: [boom.yaml]\ntools: {}\n")
	s.waitNote(0, func(m *wireMsg) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "internal error in diagnostics")
	})
	s.change(manifest, 2, "tools:\n  Bad: tools/x.ts\n")
	waitDiagnostics(t, s, manifest, func(p protocol.PublishDiagnosticsParams) bool { return p.Version == 2 && len(p.Diagnostics) > 0 })
}
