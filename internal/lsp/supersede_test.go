package lsp

import (
	"context"
	"encoding/json"
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

// A keystroke arriving while the analysis of the text before it runs
// cancels that analysis: its findings are never published, and the last
// text's are.
func TestSupersededAnalysisIsCancelledAndNeverPublished(t *testing.T) {
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
	eventually(t, "the analysis of version 2 is cancelled as superseded", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		run := w.yamlRuns["/ws"]
		return run != nil && run.ctx != nil && context.Cause(run.ctx) == errSuperseded
	})
	openGate()
	s.idle()

	var versions []uint32
	var last protocol.PublishDiagnosticsParams
	for _, n := range s.notesSnapshot() {
		if n.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var d protocol.PublishDiagnosticsParams
		if err := json.Unmarshal(n.Params, &d); err != nil {
			t.Fatal(err)
		}
		if d.URI == pathToURI(manifest) {
			versions = append(versions, d.Version)
			last = d
		}
	}
	for _, v := range versions {
		if v == 2 {
			t.Errorf("the superseded analysis of version 2 was published (versions published: %v)", versions)
		}
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
