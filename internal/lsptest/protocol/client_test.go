package protocol

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/lsp/jsonrpcframe"
	"github.com/beeuni/beeuni-lsp/internal/lsp/lspclient"
)

// serverBinary is the path of the beeuni-lsp binary built once for the
// package's tests by TestMain.
var serverBinary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "beeuni-lsp-protocol-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	serverBinary = filepath.Join(dir, "beeuni-lsp")
	build := exec.Command("go", "build", "-o", serverBinary, "github.com/beeuni/beeuni-lsp/cmd/beeuni-lsp")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "building beeuni-lsp: %v\n", err)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// answerWait bounds how long the tests wait for an answer. It is no speed
// test: a server that has not answered by then is hung.
const answerWait = 60 * time.Second

// message is one JSON-RPC message as the client read it.
type message = lspclient.Message

type rpcError = lspclient.Error

// JSON-RPC and LSP error codes.
const (
	codeParseError           = -32700
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
	codeInternalError        = -32603
	codeServerNotInitialized = -32002
	codeRequestCancelled     = -32800
	codeContentModified      = -32801
	codeRequestFailed        = -32803 // a deliberate refusal, with its reason (prepareRename)
)

// client is the server process's stdio with lspclient.Client, the one LSP
// client of the tests and the benchmark, on it: it answers the server's own
// requests (workspace/configuration and registrations) and keeps the
// notifications for the test to wait on; its calls fail the test.
type client struct {
	*lspclient.Client
	t     testing.TB
	cmd   *exec.Cmd
	stdin io.WriteCloser

	stderrMu sync.Mutex
	stderr   bytes.Buffer

	exited   chan struct{}
	exitCode int // set before exited is closed

	// acceptEdits: workspace/applyEdit is answered applied (nothing is
	// applied: a test that needs the server to go on after the edit).
	acceptEdits atomic.Bool
}

// startServer starts the binary in dir with extra arguments ("serve" by
// default) and returns a client on its stdio. The process is killed at the
// end of the test if it is still running.
func startServer(t testing.TB, dir string, args ...string) *client {
	t.Helper()
	if len(args) == 0 {
		args = []string{"serve"}
	}
	return startCommand(t, exec.Command(serverBinary, args...), dir)
}

// startCommand starts cmd (the server, possibly under a tracer) in dir.
func startCommand(t testing.TB, cmd *exec.Cmd, dir string) *client {
	t.Helper()
	cmd.Dir = dir
	c := &client{t: t, cmd: cmd, exited: make(chan struct{})}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = &lockedWriter{mu: &c.stderrMu, w: &c.stderr}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", cmd.Path, err)
	}
	c.stdin = stdin
	c.Client = lspclient.New(stdout, stdin, lspclient.Options{KeepNotes: true, Answer: c.answerServerRequest})
	go func() {
		err := cmd.Wait()
		code := 0
		if err != nil {
			code = -1
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
		}
		c.exitCode = code
		close(c.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-c.exited:
		default:
			_ = c.stdin.Close()
			select {
			case <-c.exited:
			case <-time.After(5 * time.Second):
				_ = cmd.Process.Kill()
				<-c.exited
			}
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", c.stderrText())
		}
	})
	return c
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (c *client) stderrText() string {
	c.stderrMu.Lock()
	defer c.stderrMu.Unlock()
	return c.stderr.String()
}

// answerServerRequest answers what a server asks of a client: settings
// (an empty object per item, so defaults apply), and null for the rest
// (registrations, progress tokens; applyEdit is refused unless
// acceptEdits).
func (c *client) answerServerRequest(m *message) any {
	switch m.Method {
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(m.Params, &p)
		items := make([]any, len(p.Items))
		for i := range items {
			items[i] = map[string]any{}
		}
		return items
	case "workspace/applyEdit":
		if c.acceptEdits.Load() {
			return map[string]any{"applied": true}
		}
		return map[string]any{"applied": false, "failureReason": "the test client applies nothing"}
	}
	return nil
}

// writeRaw writes bytes to the server's stdin as they are.
func (c *client) writeRaw(data []byte) {
	c.t.Helper()
	if err := c.SendRaw(data); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

// frame returns body with a correct Content-Length header.
func frame(body []byte) []byte {
	return jsonrpcframe.Append(nil, body)
}

// send writes one message, framed.
func (c *client) send(msg any) {
	c.t.Helper()
	if err := c.Send(msg); err != nil {
		c.t.Fatal(err)
	}
}

// start sends a request and returns its id without waiting.
func (c *client) start(method string, params any) json.RawMessage {
	c.t.Helper()
	id, err := c.Start(method, params)
	if err != nil {
		c.t.Fatal(err)
	}
	return id
}

// call sends a request and waits for its answer.
func (c *client) call(method string, params any) message {
	c.t.Helper()
	return c.await(c.start(method, params))
}

// notify sends a notification.
func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.Notify(method, params); err != nil {
		c.t.Fatal(err)
	}
}

// await waits for the answer to id (its JSON text) and removes it.
func (c *client) await(id json.RawMessage) message {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), answerWait)
	defer cancel()
	m, err := c.Await(ctx, id)
	if err != nil {
		c.t.Fatalf("no answer to request %s within %v: %v", id, answerWait, err)
	}
	return *m
}

// waitNotification waits for a notification that satisfies ok, looking at
// those that came after the first `from` ones; it returns it and the count
// of notifications seen so far.
func (c *client) waitNotification(from int, what string, ok func(message) bool) (message, int) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), answerWait)
	defer cancel()
	m, next, err := c.WaitNote(ctx, from, func(m *message) bool { return ok(*m) })
	if err != nil {
		c.t.Fatalf("no %s within %v (%v); the last notifications:\n%s", what, answerWait, err, lastNotifications(c.Notes(), 6))
	}
	return *m, next
}

// notificationCount returns how many notifications arrived so far.
func (c *client) notificationCount() int { return len(c.Notes()) }

// waitExit waits for the process to end and returns its exit code.
func (c *client) waitExit() int {
	c.t.Helper()
	select {
	case <-c.exited:
	case <-time.After(answerWait):
		c.t.Fatalf("the server did not exit within %v", answerWait)
	}
	return c.exitCode
}

// fileURI returns the file: URI of an absolute path.
func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if runtime.GOOS == "windows" {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// lastNotifications renders the last n notifications, shortened, for a
// failure message.
func lastNotifications(ms []*message, n int) string {
	var b strings.Builder
	for _, m := range ms[max(0, len(ms)-n):] {
		fmt.Fprintf(&b, "  %s %.1500s\n", m.Method, m.Params)
	}
	return b.String()
}
