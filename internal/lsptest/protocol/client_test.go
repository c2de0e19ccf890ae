package protocol

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/beeuni/beeuni-lsp/internal/lsp/jsonrpcframe"
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

// message is one JSON-RPC message, decoded loosely.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

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

// client is a raw LSP client over the server process's stdio. It frames
// what it is given, reads every message the server sends, answers the
// server's own requests (workspace/configuration and registrations), and
// keeps notifications for the test to wait on.
type client struct {
	t     testing.TB
	cmd   *exec.Cmd
	stdin io.WriteCloser

	writeMu sync.Mutex

	mu            sync.Mutex
	cond          *sync.Cond
	responses     map[string]message // by id (its JSON text)
	notifications []message
	readErr       error // set when the server's stdout ends or misframes
	stderr        bytes.Buffer

	exited   chan struct{}
	exitCode int
	nextID   int

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
	c := &client{t: t, cmd: cmd, responses: map[string]message{}, exited: make(chan struct{}), nextID: 1000}
	c.cond = sync.NewCond(&c.mu)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = &lockedWriter{mu: &c.mu, w: &c.stderr}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", cmd.Path, err)
	}
	c.stdin = stdin
	go c.readLoop(stdout)
	go func() {
		err := cmd.Wait()
		code := 0
		if err != nil {
			code = -1
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
		}
		c.mu.Lock()
		c.exitCode = code
		c.mu.Unlock()
		close(c.exited)
		c.cond.Broadcast()
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
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stderr.String()
}

// readLoop reads frames strictly: the server must always frame correctly.
func (c *client) readLoop(r io.Reader) {
	in := bufio.NewReaderSize(r, 1<<20)
	fail := func(err error) {
		c.mu.Lock()
		if c.readErr == nil {
			c.readErr = err
		}
		c.mu.Unlock()
		c.cond.Broadcast()
	}
	for {
		body, err := jsonrpcframe.Read(in)
		if err == io.EOF {
			fail(io.EOF)
			return
		}
		if err != nil {
			fail(fmt.Errorf("server stdout: %w", err))
			return
		}
		if !utf8.Valid(body) {
			fail(fmt.Errorf("server stdout: a message that is not valid UTF-8: %.200q", body))
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil || m.JSONRPC != "2.0" {
			fail(fmt.Errorf("server stdout: not a JSON-RPC 2.0 message (%v): %.200s", err, body))
			return
		}
		switch {
		case m.Method != "" && m.ID != nil:
			c.answerServerRequest(m)
		case m.Method != "":
			c.mu.Lock()
			c.notifications = append(c.notifications, m)
			c.mu.Unlock()
			c.cond.Broadcast()
		default:
			c.mu.Lock()
			c.responses[string(m.ID)] = m
			c.mu.Unlock()
			c.cond.Broadcast()
		}
	}
}

// answerServerRequest answers what a server asks of a client: settings
// (an empty object per item, so defaults apply), and null for the rest
// (registrations, progress tokens; applyEdit is refused unless
// acceptEdits).
func (c *client) answerServerRequest(m message) {
	var result any
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
		result = items
	case "workspace/applyEdit":
		result = map[string]any{"applied": false, "failureReason": "the test client applies nothing"}
		if c.acceptEdits.Load() {
			result = map[string]any{"applied": true}
		}
	}
	// This runs on the reading goroutine: it must not use c.t, which the
	// test goroutine may be switching to a subtest's.
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
	if err == nil {
		c.writeMu.Lock()
		_, err = c.stdin.Write(frame(body))
		c.writeMu.Unlock()
	}
	if err != nil {
		c.mu.Lock()
		if c.readErr == nil {
			c.readErr = fmt.Errorf("answering the server's %s: %v", m.Method, err)
		}
		c.mu.Unlock()
		c.cond.Broadcast()
	}
}

// writeRaw writes bytes to the server's stdin as they are.
func (c *client) writeRaw(data []byte) {
	c.t.Helper()
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := c.stdin.Write(data); err != nil {
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
	body, err := json.Marshal(msg)
	if err != nil {
		c.t.Fatal(err)
	}
	c.writeRaw(frame(body))
}

// newID returns a fresh request id (a number) as JSON.
func (c *client) newID() json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextID++
	return json.RawMessage(strconv.Itoa(c.nextID))
}

// start sends a request and returns its id without waiting.
func (c *client) start(method string, params any) json.RawMessage {
	c.t.Helper()
	id := c.newID()
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	c.send(msg)
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
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	c.send(msg)
}

// await waits for the answer to id (its JSON text) and removes it.
func (c *client) await(id json.RawMessage) message {
	c.t.Helper()
	key := string(id)
	deadline := time.Now().Add(answerWait)
	stop := time.AfterFunc(answerWait, c.cond.Broadcast)
	defer stop.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		if m, ok := c.responses[key]; ok {
			delete(c.responses, key)
			return m
		}
		if c.readErr != nil {
			c.t.Fatalf("waiting for the answer to %s: %v", key, c.readErr)
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("no answer to request %s within %v: the server hangs", key, answerWait)
		}
		c.cond.Wait()
	}
}

// waitNotification waits for a notification that satisfies ok, looking at
// those that came after the first `from` ones; it returns it and the count
// of notifications seen so far.
func (c *client) waitNotification(from int, what string, ok func(message) bool) (message, int) {
	c.t.Helper()
	deadline := time.Now().Add(answerWait)
	stop := time.AfterFunc(answerWait, c.cond.Broadcast)
	defer stop.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		for i := from; i < len(c.notifications); i++ {
			if ok(c.notifications[i]) {
				return c.notifications[i], i + 1
			}
		}
		from = len(c.notifications)
		if c.readErr != nil {
			c.t.Fatalf("waiting for %s: %v", what, c.readErr)
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("no %s within %v; the last notifications:\n%s", what, answerWait, lastNotifications(c.notifications, 6))
		}
		c.cond.Wait()
	}
}

// notificationCount returns how many notifications arrived so far.
func (c *client) notificationCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.notifications)
}

// waitExit waits for the process to end and returns its exit code.
func (c *client) waitExit() int {
	c.t.Helper()
	select {
	case <-c.exited:
	case <-time.After(answerWait):
		c.t.Fatalf("the server did not exit within %v", answerWait)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
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
func lastNotifications(ms []message, n int) string {
	var b strings.Builder
	for _, m := range ms[max(0, len(ms)-n):] {
		fmt.Fprintf(&b, "  %s %.1500s\n", m.Method, m.Params)
	}
	return b.String()
}
