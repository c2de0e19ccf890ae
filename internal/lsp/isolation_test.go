package lsp

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// gatedFS is a file system whose reads of one file wait until the test
// opens the gate: an analysis that reads it lasts exactly as long as the
// test wants, whatever the machine's speed.
type gatedFS struct {
	vfs.FS
	path    string
	reached chan struct{} // closed at the first read of path
	gate    chan struct{} // reads of path wait until it is closed
	once    sync.Once
}

func (g *gatedFS) ReadFile(p string) ([]byte, error) {
	if p == g.path {
		g.once.Do(func() { close(g.reached) })
		<-g.gate
	}
	return g.FS.ReadFile(p)
}

func (g *gatedFS) Stat(p string) (fs.FileInfo, error) { return g.FS.Stat(p) }

// hangGuard bounds a wait that fails the test instead of hanging it; it
// measures nothing.
const hangGuard = 60 * time.Second

// waitDiagnostics waits for a publication of path's diagnostics that
// match accepts, failing after the hang guard.
func waitDiagnostics(t *testing.T, s *session, path string, match func(protocol.PublishDiagnosticsParams) bool) protocol.PublishDiagnosticsParams {
	t.Helper()
	got := make(chan protocol.PublishDiagnosticsParams, 1)
	go func() {
		var p protocol.PublishDiagnosticsParams
		s.waitNote(0, func(m *wireMsg) bool {
			if m.Method != "textDocument/publishDiagnostics" {
				return false
			}
			p = protocol.PublishDiagnosticsParams{}
			return json.Unmarshal(m.Params, &p) == nil && p.URI == pathToURI(path) && match(p)
		})
		got <- p
	}()
	select {
	case p := <-got:
		return p
	case <-time.After(hangGuard):
		t.Fatalf("no such diagnostics for %s", path)
	}
	return protocol.PublishDiagnosticsParams{}
}

func hasCode(code string) func(protocol.PublishDiagnosticsParams) bool {
	return func(p protocol.PublishDiagnosticsParams) bool {
		for _, d := range p.Diagnostics {
			if d.Code == code {
				return true
			}
		}
		return false
	}
}

// Project A's analysis is still running (a read the test holds open) when
// project B's manifest is opened: B's diagnostics are published before
// A's analysis can end, since each project has workers of its own. With
// one worker for every project, B waited for A: 18 s behind a 400 KB flow
// line. Both workers are held in turn: A's YAML worker (on its import),
// then A's module worker (on its module).
func TestOneProjectsAnalysisNeverDelaysAnothers(t *testing.T) {
	var flow strings.Builder
	flow.WriteString("imports: [slow.yaml]\ntools: {")
	for i := 0; flow.Len() < 400<<10; i++ {
		fmt.Fprintf(&flow, "tool_%d: beeuni:web_search, ", i)
	}
	flow.WriteString("}\n")
	for _, tc := range []struct {
		name, held, bCode string
	}{
		{"YAML worker", "/ws/a/slow.yaml", "A1"},     // B's YAML finding
		{"module worker", "/ws/a/tools/x.ts", "T11"}, // B's module finding
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := vfs.NewMem()
			mem.WriteFile("/ws/a/beeuni.yaml", []byte(flow.String()))
			mem.WriteFile("/ws/a/slow.yaml", []byte("tools:\n  x: tools/x.ts\n"))
			mem.WriteFile("/ws/a/tools/x.ts", []byte("export default {}\n"))
			bText := "tools:\n  y: tools/y.ts\nagents:\n  b:\n    tools: [web_serch]\n"
			mem.WriteFile("/ws/b/beeuni.yaml", []byte(bText))
			mem.WriteFile("/ws/b/tools/y.ts", []byte("export const y = 1\n")) // no default export: T11
			fsys := &gatedFS{FS: mem, path: tc.held, reached: make(chan struct{}), gate: make(chan struct{})}
			release := sync.OnceFunc(func() { close(fsys.gate) })
			defer release()

			s := editorSession(t, fsys, UTF16, "/ws/a")
			select {
			case <-fsys.reached: // A's analysis is under way, and stays so
			case <-time.After(hangGuard):
				t.Fatalf("project A's analysis never read %s", tc.held)
			}
			s.open("/ws/b/beeuni.yaml", bText)
			waitDiagnostics(t, s, "/ws/b/beeuni.yaml", hasCode(tc.bCode))
			// A ends once the held file can be read.
			release()
			waitDiagnostics(t, s, "/ws/a/beeuni.yaml", hasCode("T4"))
		})
	}
}
