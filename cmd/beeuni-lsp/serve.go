package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/beeuni/beeuni-lsp/internal/lsp"
)

// runServe speaks the Language Server Protocol on stdin and stdout until
// the client sends exit. The exit code is 0 after shutdown then exit, 1
// when the client exits (or the stream ends) without shutdown, 2 for a
// bad command line. Trace lines go to stderr.
func runServe(ctx context.Context, e env, args []string) int {
	for _, a := range args {
		switch a {
		case "--stdio", "-stdio":
			// Editors' clients pass it; stdio is the only transport.
		default:
			return usageError(e, "serve takes no arguments but --stdio, not "+a)
		}
	}
	if e.terminal {
		fmt.Fprint(e.stderr, terminalNotice)
	}
	// A soft memory limit makes the collector work harder before the heap
	// doubles, which keeps the peak of a 10,000-tool project's cold module
	// inspection within budget (docs/performance.md). GOMEMLIMIT overrides
	// it.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
	}
	srv := lsp.New(lsp.Options{Log: e.stderr})
	return srv.Run(ctx, stdio{in: e.stdin, out: e.stdout})
}

// serveMemoryLimit is the server's soft memory limit (runtime/debug). At
// 10,000 tools the live heap is 63 MB and a keystroke's analysis allocates
// about 20 MB: 150 MiB made the collector run all the time (twice the CPU
// per keystroke), no limit let the peak reach 300 MB; 170 MiB keeps the
// peak near 178 MB at a sixth more CPU.
const serveMemoryLimit = 170 << 20

// stdio joins the process's streams into one connection.
type stdio struct {
	in  io.Reader
	out io.Writer
}

func (s stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s stdio) Write(p []byte) (int, error) { return s.out.Write(p) }

// Close closes stdin when it can be closed, so that a pending read ends.
func (s stdio) Close() error {
	if c, ok := s.in.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
