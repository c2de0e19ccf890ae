package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/lsp/lspclient"
)

// Client is the benchmark's LSP client, as an editor is one:
// lspclient.Client (framing, requests matched to their answers by id, the
// server's own requests answered as an editor would) recording every
// publishDiagnostics with the time it was read, and the server it runs
// (a process, or a server in this process).
type Client struct {
	*lspclient.Client // Call, Notify, Written

	mu        sync.Mutex
	diags     map[string][]DiagEvent // by document URI, in arrival order
	changed   chan struct{}          // closed and replaced at each publish
	settings  json.RawMessage        // the answer to workspace/configuration items
	published int                    // publishDiagnostics count

	cmd    *exec.Cmd
	stderr *bytes.Buffer
	stdin  io.WriteCloser
	// inProcess is closed when an in-process server's Serve returns;
	// closeConn ends its pipes.
	inProcess chan struct{}
	closeConn func()
}

// DiagEvent is one publishDiagnostics notification as the client read it.
type DiagEvent struct {
	At          time.Time
	Version     *int
	Diagnostics []Diagnostic
}

// Count returns how many diagnostics carry the given code.
func (e DiagEvent) Count(code string) int {
	n := 0
	for _, d := range e.Diagnostics {
		if d.CodeString() == code {
			n++
		}
	}
	return n
}

// Diagnostic is the part of an LSP diagnostic the benchmark checks.
type Diagnostic struct {
	Range    Range           `json:"range"`
	Severity int             `json:"severity"`
	Code     json.RawMessage `json:"code,omitempty"`
	Message  string          `json:"message"`
}

// CodeString returns the diagnostic's code as text (codes may be numbers or
// strings in LSP).
func (d Diagnostic) CodeString() string {
	var s string
	if json.Unmarshal(d.Code, &s) == nil {
		return s
	}
	return string(d.Code)
}

// Position is an LSP position (0-based line, character in the negotiated
// encoding).
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is an LSP range.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// RPCError is a JSON-RPC error answer.
type RPCError = lspclient.Error

// NewClient starts a client on a connection: it writes to w and reads from
// r until r ends. settings answers each item of workspace/configuration
// (nil: null).
func NewClient(r io.Reader, w io.Writer, settings json.RawMessage) *Client {
	c := &Client{
		diags:    map[string][]DiagEvent{},
		changed:  make(chan struct{}),
		settings: settings,
	}
	c.Client = lspclient.New(r, w, lspclient.Options{Answer: c.answer, OnNote: c.recordDiagnostics})
	return c
}

// Spawn starts the server binary with args in dir and connects a client to
// its stdin and stdout. The process's stderr is kept for error reports.
func Spawn(ctx context.Context, binary string, args []string, dir string, settings json.RawMessage) (*Client, error) {
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("spawn %s: %w", binary, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("spawn %s: %w", binary, err)
	}
	stderr := &bytes.Buffer{}
	cmd.Stderr = &lockedWriter{w: stderr}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("spawn %s: %w", binary, err)
	}
	c := NewClient(stdout, stdin, settings)
	c.cmd, c.stderr, c.stdin = cmd, stderr, stdin
	return c, nil
}

// ServeInProcess runs serve on a pair of pipes in this process and
// connects a client to it.
func ServeInProcess(ctx context.Context, serve func(context.Context, io.ReadWriteCloser) int, settings json.RawMessage) *Client {
	toServerR, toServerW := io.Pipe()
	fromServerR, fromServerW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		serve(ctx, pipeConn{toServerR, fromServerW})
		fromServerW.Close()
	}()
	c := NewClient(fromServerR, toServerW, settings)
	c.inProcess = done
	c.closeConn = func() {
		toServerW.Close()
		toServerR.Close()
	}
	return c
}

// pipeConn is the server's end of an in-process connection.
type pipeConn struct {
	r *io.PipeReader
	w *io.PipeWriter
}

func (p pipeConn) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipeConn) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipeConn) Close() error                { return p.r.Close() }

// Pid returns the server's process id: this process for an in-process
// server, 0 for a client on a plain connection.
func (c *Client) Pid() int {
	if c.inProcess != nil {
		return os.Getpid()
	}
	if c.cmd == nil || c.cmd.Process == nil {
		return 0
	}
	return c.cmd.Process.Pid
}

// Stderr returns what the server wrote to stderr so far (last 4 KB).
func (c *Client) Stderr() string {
	if c.stderr == nil {
		return ""
	}
	lw := c.cmd.Stderr.(*lockedWriter)
	lw.mu.Lock()
	defer lw.mu.Unlock()
	s := c.stderr.String()
	if len(s) > 4096 {
		s = s[len(s)-4096:]
	}
	return s
}

// answer replies to a request from the server as an editor would.
func (c *Client) answer(m *lspclient.Message) any {
	switch m.Method {
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(m.Params, &p)
		items := make([]json.RawMessage, len(p.Items))
		for i := range items {
			items[i] = c.settings
			if items[i] == nil {
				items[i] = json.RawMessage("null")
			}
		}
		return items
	case "workspace/applyEdit":
		return map[string]any{"applied": false, "failureReason": "the benchmark client applies no edit"}
	case "window/showDocument":
		return map[string]any{"success": false}
	}
	return nil // client/registerCapability, window/workDoneProgress/create, window/showMessageRequest, …
}

func (c *Client) recordDiagnostics(m *lspclient.Message) {
	if m.Method != "textDocument/publishDiagnostics" {
		return
	}
	var p struct {
		URI         string       `json:"uri"`
		Version     *int         `json:"version"`
		Diagnostics []Diagnostic `json:"diagnostics"`
	}
	if json.Unmarshal(m.Params, &p) != nil {
		return
	}
	c.mu.Lock()
	c.diags[p.URI] = append(c.diags[p.URI], DiagEvent{At: m.At, Version: p.Version, Diagnostics: p.Diagnostics})
	c.published++
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

// Diagnostics returns the publishDiagnostics events of a URI so far.
func (c *Client) Diagnostics(uri string) []DiagEvent {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]DiagEvent(nil), c.diags[uri]...)
}

// Published returns the number of publishDiagnostics read so far.
func (c *Client) Published() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.published
}

// Latest returns the last diagnostics published for every URI.
func (c *Client) Latest() map[string]DiagEvent {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]DiagEvent, len(c.diags))
	for uri, evs := range c.diags {
		out[uri] = evs[len(evs)-1]
	}
	return out
}

// WaitFor blocks until cond, called under the client's lock with every
// URI's events, returns true, or ctx ends.
func (c *Client) WaitFor(ctx context.Context, cond func(diags map[string][]DiagEvent) bool) error {
	for {
		c.mu.Lock()
		ok := cond(c.diags)
		changed := c.changed
		c.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-changed:
		case <-c.Done():
			return fmt.Errorf("connection closed while waiting for diagnostics: %v", c.Err())
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// WaitDiagnostics waits for the first event of uri at index from or later
// that satisfies match, and returns it with its index.
func (c *Client) WaitDiagnostics(ctx context.Context, uri string, from int, match func(DiagEvent) bool) (DiagEvent, int, error) {
	var got DiagEvent
	idx := -1
	err := c.WaitFor(ctx, func(diags map[string][]DiagEvent) bool {
		evs := diags[uri]
		for i := from; i < len(evs); i++ {
			if match(evs[i]) {
				got, idx = evs[i], i
				return true
			}
		}
		return false
	})
	return got, idx, err
}

// Close ends the session politely (shutdown, exit) and waits for the
// process; it kills the process if it does not exit within the timeout.
func (c *Client) Close(timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, serr := c.Call(ctx, "shutdown", nil, nil)
	_ = c.Notify("exit", nil)
	if c.inProcess != nil {
		select {
		case <-c.inProcess:
		case <-time.After(timeout):
			serr = errors.Join(serr, fmt.Errorf("in-process server did not stop within %v after shutdown and exit", timeout))
		}
		c.closeConn()
		return serr
	}
	if c.cmd == nil {
		return serr
	}
	_ = c.stdin.Close()
	waited := make(chan error, 1)
	go func() { waited <- c.cmd.Wait() }()
	select {
	case err := <-waited:
		if serr != nil {
			return serr
		}
		if err != nil {
			return fmt.Errorf("server exit: %w", err)
		}
		return nil
	case <-time.After(timeout):
		_ = c.cmd.Process.Kill()
		<-waited
		return fmt.Errorf("server did not exit within %v after shutdown and exit", timeout)
	}
}

// Kill stops the server process at once (after a failure).
func (c *Client) Kill() {
	if c.closeConn != nil {
		c.closeConn()
	}
	if c.cmd != nil && c.cmd.Process != nil {
		_ = c.cmd.Process.Kill()
		_ = c.cmd.Wait()
	}
}

// ProcStatus reads a "VmHWM"-style field (in kB) of /proc/<pid>/status and
// returns it in bytes.
func ProcStatus(pid int, field string) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("read process status: %w", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		name, value, ok := strings.Cut(line, ":")
		if !ok || name != field {
			continue
		}
		fields := strings.Fields(value)
		if len(fields) == 0 {
			break
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("process status %s: %w", field, err)
		}
		return kb * 1024, nil
	}
	return 0, fmt.Errorf("process status has no %s", field)
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
