package lsp

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// eventually waits until cond holds, failing after a few seconds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

const supersedeFiles = "-- beeuni.yaml --\ntools:\n  web_search: beeuni:web_search\n" +
	"-- slow.yaml --\ntools:\n  memory: beeuni:memory\n"

// A keystroke arriving while the analysis of the text before it runs does
// not cancel that analysis: it runs to its end and publishes, and the last
// text's findings are published after it. Throwing the superseded result
// away starves a burst of typing, where every analysis is superseded
// (docs/server.md, "Diagnostics pipeline").
func TestSupersededAnalysisIsStillPublished(t *testing.T) {
	fsys := &gatedFS{FS: vfs.MemFromTxtar("/ws", []byte(supersedeFiles)), path: "/ws/slow.yaml", reached: make(chan struct{}), gate: make(chan struct{})}
	s := editorSession(t, fsys, UTF16, "/ws")
	// Cleanups run last first: this one, before the session's waits for
	// the analysis the gate holds.
	var opened sync.Once
	openGate := func() { opened.Do(func() { close(fsys.gate) }) }
	t.Cleanup(openGate)
	const manifest = "/ws/beeuni.yaml"
	s.open(manifest, "tools:\n  web_search: beeuni:web_search\n")
	s.idle()

	// Version 2 imports slow.yaml, read for the first time: its analysis
	// waits there. It has an error that version 3 fixes.
	s.change(manifest, 2, "imports: [slow.yaml]\ntools:\n  Bad: tools/x.ts\n")
	<-fsys.reached
	final := "imports: [slow.yaml]\ntools:\n  web_search: beeuni:web_search\n"
	s.change(manifest, 3, final)
	w := s.srv.ws
	p := w.project("/ws")
	eventually(t, "version 3 waits for the analysis of version 2", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return p.dirty
	})
	openGate()
	s.idle()

	versions, last := s.publishedVersions(t, manifest)
	if !slices.Equal(versions, []uint32{1, 2, 3}) {
		t.Errorf("published versions %v, want [1 2 3]: version 2's analysis, superseded while it ran, published before version 3's", versions)
	}
	if last.Version != 3 {
		t.Fatalf("last published version %d, want 3 (published: %v)", last.Version, versions)
	}
	want := vfs.NewMem()
	want.WriteFile(manifest, []byte(final))
	want.WriteFile("/ws/slow.yaml", []byte("tools:\n  memory: beeuni:memory\n"))
	proj, err := analysis.Load(context.Background(), want, "/ws")
	if err != nil {
		t.Fatal(err)
	}
	if len(last.Diagnostics) != len(proj.Findings) {
		t.Errorf("last set has %d diagnostics, version 3 has %d findings: %+v", len(last.Diagnostics), len(proj.Findings), last.Diagnostics)
	}
}

// publishedVersions returns the versions of path's publishDiagnostics, in
// the order they were sent, and the last of them.
func (s *session) publishedVersions(t *testing.T, path string) (versions []uint32, last protocol.PublishDiagnosticsParams) {
	t.Helper()
	for _, n := range s.notesSnapshot() {
		if n.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var d protocol.PublishDiagnosticsParams
		if err := json.Unmarshal(n.Params, &d); err != nil {
			t.Fatal(err)
		}
		if d.URI == pathToURI(path) {
			versions = append(versions, d.Version)
			last = d
		}
	}
	return versions, last
}
