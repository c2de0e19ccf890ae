package bench

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/lsp"
)

// TestRunInProcess runs the whole scenario against the real server, in this
// process, on a small workspace: every answer is checked (Run fails on a
// missing or wrong one); no latency is asserted.
func TestRunInProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := Run(ctx, Options{
		Tools: 10, Dir: t.TempDir(), Edits: 40, Requests: 3, ModuleEdits: 1, FreshKeystrokes: 4,
		Timeout: time.Minute,
		Serve: func(ctx context.Context, conn io.ReadWriteCloser) int {
			return lsp.New(lsp.Options{Log: io.Discard}).Run(ctx, conn)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Keystroke.N != 40 || res.Completion.N != 3 || res.ModuleEdit.N != 2 {
		t.Errorf("samples: %d keystrokes, %d completions, %d module edits; want 40, 3, 2", res.Keystroke.N, res.Completion.N, res.ModuleEdit.N)
	}
	if res.FreshKeystroke.N != 4 || res.FreshCompletion.N != 4 || res.FreshHover.N != 4 || res.FreshScanDone <= 0 {
		t.Errorf("fresh server: %d keystrokes, %d completions, %d hovers, scan done at %v ms; want 4, 4, 4 and a time",
			res.FreshKeystroke.N, res.FreshCompletion.N, res.FreshHover.N, res.FreshScanDone)
	}
	if res.StartupCPU.N != 0 {
		// In process, the process's CPU is the test's and the client's too.
		t.Errorf("cold start CPU reported in process (%d samples): it would not be the server's", res.StartupCPU.N)
	}
	if res.ErrorsTyped != 4 {
		t.Errorf("%d finding-introducing keystrokes, want 4", res.ErrorsTyped)
	}
	if res.HeapAfterGC <= 0 {
		t.Errorf("heap after GC %d: beeuni/debugMemory did not answer", res.HeapAfterGC)
	}
	if res.PositionsUTF != "utf-16" || res.TextSync != "incremental" {
		t.Errorf("negotiated %s positions and %s sync, want utf-16 and incremental", res.PositionsUTF, res.TextSync)
	}
}
