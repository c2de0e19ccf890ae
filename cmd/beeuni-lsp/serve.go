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
	if _, help, err := serveCommand.parse(args); help {
		fmt.Fprint(e.stdout, serveCommand.help())
		return 0
	} else if err != nil {
		return serveCommand.usageError(e, err.Error())
	}
	if e.terminal {
		fmt.Fprint(e.stderr, terminalNotice)
	}
	tuneGC(os.Getenv)
	srv := lsp.New(lsp.Options{Log: e.stderr})
	return srv.Run(ctx, stdio{in: e.stdin, out: e.stdout})
}

// tuneGC sets the collector of the server's process (runtime/debug): a
// soft memory limit, which keeps the peak of a 10,000-tool project's cold
// module inspection within budget, and a GC percent above the default,
// which keeps collections rare while the heap is small, as during the
// initial module scan of a smaller project: esbuild allocates hundreds of
// KB for each module, and every collection it starts slows the requests
// answered meanwhile (docs/performance.md, "The collector settings").
// GOMEMLIMIT and GOGC, read with getenv, override each.
func tuneGC(getenv func(string) string) {
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
	}
	if getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
}

// serveMemoryLimit is the server's soft memory limit. At 10,000 tools the
// live heap is about 92 MiB and a keystroke allocates about 3.3 MiB, so
// typing meets the limit every few keystrokes: 140 MiB keeps the peak RSS
// near 148 MiB (budget 150), where 130 MiB held it near 139 MiB but made
// completion's p95 13 to 18 ms instead of 7 to 9 and the keystroke's 43 to
// 53 ms instead of 35 to 37 (docs/performance.md, "The collector settings").
const serveMemoryLimit = 140 << 20

// serveGCPercent is the server's GC percent (GOGC): the heap may grow to
// five times what the last collection left before the next, up to the
// memory limit, which rules from about 25 MB of live heap on.
const serveGCPercent = 400

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
