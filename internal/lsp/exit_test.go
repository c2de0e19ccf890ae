package lsp

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// largeFlowManifest is a manifest of at least size bytes in flow style,
// the whole document on one line: tools of every kind, and agents naming
// tools none of which exists (an A1 each, with its "did you mean"). The
// engine took 45 s to check 10 MB of it, and published 600,000 findings
// after.
func largeFlowManifest(size int) string {
	var b strings.Builder
	b.WriteString("{tools: {web_search: beeuni:web_search")
	n := 0
	for ; b.Len() < size/2; n++ {
		if n%2 == 0 {
			fmt.Fprintf(&b, ", tool_%d: tools/t%d.ts", n, n)
		} else {
			fmt.Fprintf(&b, ", tool_%d: beeuni:web_search", n)
		}
	}
	b.WriteString("}, agents: {")
	for a := 0; b.Len() < size; a++ {
		fmt.Fprintf(&b, "agent_%d: {tools: [", a)
		for j := 0; j < 50; j++ {
			fmt.Fprintf(&b, "tol_%d, ", (a*50+j)%n)
		}
		b.WriteString("]}, ")
	}
	b.WriteString("}}\n")
	return b.String()
}

// waitAnalysing waits until the YAML worker of root has taken its latest
// change: it is analysing it (or has just published).
func waitAnalysing(t *testing.T, s *Server, root string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		w := s.ws
		p := w.project(root)
		w.mu.Lock()
		taken := p != nil && p.loading && !p.dirty
		w.mu.Unlock()
		if taken {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the YAML worker never took the document")
		}
		time.Sleep(time.Millisecond)
	}
}

// analysisGoroutines returns the stacks of the goroutines running the
// engine's work or a project's worker.
func analysisGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "beeuni-lsp/internal/analysis.") || strings.Contains(g, "yamlWorker") || strings.Contains(g, "moduleWorker") {
			out = append(out, g)
		}
	}
	return out
}

// exitBound is how long Run may take to return after exit while a large
// document is being analysed: generous (the stop takes milliseconds), an
// order of magnitude below what it took when Run waited for the analysis
// to end (52 s for issue 26's 10 MB manifest, 40 to 60 s for this one).
const exitBound = 5 * time.Second

// TestExitStopsTheAnalysisOfALargeDocument opens a 10 MB flow-style
// manifest and sends shutdown and exit while the server analyses it: Run
// returns within exitBound, and no goroutine of the analysis outlives it
// (tests run many servers in one process, an editor restarting runs two).
// The stopped load is not taken for a manifest that cannot be read: the
// project is not dropped (which would clear its diagnostics and warn the
// user).
func TestExitStopsTheAnalysisOfALargeDocument(t *testing.T) {
	text := largeFlowManifest(10 << 20)
	fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\ntools: {}\n"))
	s := editorSession(t, fsys, UTF16, "/ws")
	s.idle()
	s.open("/ws/beeuni.yaml", text)
	waitAnalysing(t, s.srv, "/ws")
	start := time.Now()
	if e := s.callErr("shutdown", nil); e != nil {
		t.Fatalf("shutdown: %+v", e)
	}
	s.notify("exit", nil)
	code := s.exitCode()
	elapsed := time.Since(start)
	left := analysisGoroutines()
	t.Logf("Run returned %v after exit", elapsed)
	if code != 0 {
		t.Errorf("exit code %d after shutdown and exit, want 0", code)
	}
	if elapsed > exitBound {
		t.Errorf("Run returned %v after exit, want within %v", elapsed, exitBound)
	}
	if len(left) > 0 {
		t.Errorf("%d goroutines of the analysis outlived Run:\n%s", len(left), strings.Join(left, "\n\n"))
	}
	if s.srv.ws.project("/ws") == nil {
		t.Error("the stopped load dropped the project, as if its manifest could not be read")
	}
}
