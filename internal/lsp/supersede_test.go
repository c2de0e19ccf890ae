package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// gated is a gatedFS over fsys holding the reads of path (gate closed
// when open is true).
func gated(fsys vfs.FS, path string, open bool) *gatedFS {
	g := &gatedFS{FS: fsys, path: path, reached: make(chan struct{}), gate: make(chan struct{})}
	if open {
		close(g.gate)
	}
	return g
}

func closed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

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

// supersedeImports are the files a manifest imports: slow.yaml, which
// imports after.yaml (the engine looks at its context before each file's
// imports).
const supersedeImports = "-- slow.yaml --\nimports: [after.yaml]\ntools:\n  memory: beeuni:memory\n" +
	"-- after.yaml --\ntools:\n  show: beeuni:show\n"

const supersedeFiles = "-- beeuni.yaml --\ntools:\n  web_search: beeuni:web_search\n" + supersedeImports

// A keystroke arriving while the analysis of the text before it runs
// cancels that analysis: its findings are never published, and the last
// text's are.
func TestSupersededAnalysisIsCancelledAndNeverPublished(t *testing.T) {
	fsys := gated(vfs.MemFromTxtar("/ws", []byte(supersedeFiles)), "/ws/slow.yaml", false)
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
	// stops there. It has an error that version 3 fixes.
	s.change(manifest, 2, "imports: [slow.yaml]\ntools:\n  Bad: tools/x.ts\n")
	<-fsys.reached
	final := "imports: [slow.yaml]\ntools:\n  web_search: beeuni:web_search\n"
	s.change(manifest, 3, final)
	p := s.srv.ws.project("/ws")
	eventually(t, "the analysis of version 2 is cancelled", func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.loading != nil && p.loading.ctx.Err() != nil
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
	want.WriteFile("/ws/slow.yaml", []byte("imports: [after.yaml]\ntools:\n  memory: beeuni:memory\n"))
	want.WriteFile("/ws/after.yaml", []byte("tools:\n  show: beeuni:show\n"))
	proj, err := analysis.Load(context.Background(), want, "/ws")
	if err != nil {
		t.Fatal(err)
	}
	if len(last.Diagnostics) != len(proj.Findings) {
		t.Errorf("last set has %d diagnostics, version 3 has %d findings: %+v", len(last.Diagnostics), len(proj.Findings), last.Diagnostics)
	}
}

// loadResult is what one loadAt call returned.
type loadResult struct {
	proj *analysis.Project
	err  error
}

// A load shared by several callers goes on while one of them still waits
// for it; given up by all, it is cancelled: the engine stops at its next
// look at the context (it reads no import of the file it was reading) and
// nothing is kept.
func TestSharedLoadRunsUntilItsLastCallerGivesUp(t *testing.T) {
	for _, keepOne := range []bool{true, false} {
		name := map[bool]string{true: "one caller still waits", false: "every caller gave up"}[keepOne]
		t.Run(name, func(t *testing.T) {
			fsys := gated(vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\nimports: [slow.yaml]\n"+supersedeImports)), "/ws/slow.yaml", false)
			after := gated(fsys, "/ws/after.yaml", true) // tells whether after.yaml is read
			s := New(Options{FS: after})
			var opened sync.Once
			openGate := func() { opened.Do(func() { close(fsys.gate) }) }
			defer openGate()
			w, v, p := s.ws, s.currentView(), &project{root: "/ws"}
			first, cancelFirst := context.WithCancel(context.Background())
			second, cancelSecond := context.WithCancel(context.Background())
			defer cancelSecond()
			results := make(chan loadResult, 2)
			call := func(ctx context.Context) {
				proj, err := w.loadAt(ctx, v, p)
				results <- loadResult{proj, err}
			}
			go call(first) // runs the load, and stops at slow.yaml
			<-fsys.reached
			go call(second) // joins it
			eventually(t, "the second caller joins the load", func() bool {
				p.mu.Lock()
				defer p.mu.Unlock()
				return p.loading != nil && p.loading.waiters == 2
			})
			cancelFirst()
			if !keepOne {
				cancelSecond()
			}
			eventually(t, "the cancelled callers leave", func() bool {
				p.mu.Lock()
				defer p.mu.Unlock()
				return p.loading.waiters == map[bool]int{true: 1, false: 0}[keepOne]
			})
			p.mu.Lock()
			cancelled := p.loading.ctx.Err() != nil
			p.mu.Unlock()
			if cancelled == keepOne {
				t.Errorf("load cancelled: %v, want %v", cancelled, !keepOne)
			}
			openGate()
			var got []loadResult
			for range 2 {
				got = append(got, <-results)
			}
			var loaded *analysis.Project
			for _, r := range got {
				switch {
				case r.err == nil && r.proj != nil:
					loaded = r.proj
				case !errors.Is(r.err, context.Canceled):
					t.Errorf("loadAt answered %v, %v: want a project or the context's error", r.proj, r.err)
				}
			}
			kept, _ := p.latest()
			if keepOne {
				if loaded == nil || len(loaded.Files) != 3 || kept != loaded {
					t.Errorf("the caller still waiting got %v (kept %v), want the whole project kept", loaded, kept)
				}
				return
			}
			if loaded != nil || kept != nil {
				t.Errorf("a load every caller gave up was answered (%v) or kept (%v)", loaded, kept)
			}
			if closed(after.reached) {
				t.Error("the cancelled load went on to read the next import")
			}
		})
	}
}
