package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/lsp/jsonrpcframe"
	"github.com/beeuni/beeuni-lsp/internal/lsp/lspclient"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// wireMsg is any JSON-RPC message as the test client sees it.
type wireMsg = lspclient.Message

type wireError = lspclient.Error

// answerWait bounds how long a test waits for an answer or a notification.
// It is no speed test: a server that has not answered by then is hung.
const answerWait = 2 * time.Minute

// client is the tests' view of lspclient.Client, the one LSP client of the
// tests and the benchmark: calls that fail the test instead of returning
// errors, and serverCalls, which answers the server's requests by method
// (a missing method is answered with null). It speaks raw frames, so that
// tests can also send what no well-behaved client would.
type client struct {
	*lspclient.Client
	t testing.TB

	mu          sync.Mutex
	serverCalls map[string]func(params json.RawMessage) any // under mu while the client runs
}

func newClient(t testing.TB, r io.Reader, w io.Writer) *client {
	c := &client{t: t, serverCalls: map[string]func(json.RawMessage) any{}}
	c.Client = lspclient.New(r, w, lspclient.Options{KeepNotes: true, Answer: func(m *lspclient.Message) any {
		c.mu.Lock()
		h := c.serverCalls[m.Method]
		c.mu.Unlock()
		if h == nil {
			return nil
		}
		return h(m.Params)
	}})
	return c
}

// handle sets the answer to the server's requests of a method.
func (c *client) handle(method string, h func(params json.RawMessage) any) {
	c.mu.Lock()
	c.serverCalls[method] = h
	c.mu.Unlock()
}

// requests returns the requests the server sent so far.
func (c *client) requests() []*wireMsg { return c.Requests() }

// sendRaw writes bytes as they are.
func (c *client) sendRaw(data string) {
	if err := c.SendRaw([]byte(data)); err != nil {
		c.t.Fatal(err)
	}
}

// sendBody frames body with a correct Content-Length.
func (c *client) sendBody(body []byte) {
	c.sendRaw(string(jsonrpcframe.Append(nil, body)))
}

func (c *client) sendJSON(v any) {
	if err := c.Send(v); err != nil {
		c.t.Fatal(err)
	}
}

// start sends a request and returns its id.
func (c *client) start(method string, params any) string {
	id, err := c.Start(method, params)
	if err != nil {
		c.t.Fatal(err)
	}
	return string(id)
}

// answer waits for the answer to id (its JSON text).
func (c *client) answer(id string) *wireMsg {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), answerWait)
	defer cancel()
	m, err := c.Await(ctx, json.RawMessage(id))
	if err != nil {
		c.t.Fatal(err)
	}
	return m
}

// call sends a request and decodes its result into result (if not nil).
// An error answer fails the test.
func (c *client) call(method string, params, result any) {
	c.t.Helper()
	m := c.answer(c.start(method, params))
	if m.Error != nil {
		c.t.Fatalf("%s: error %d: %s", method, m.Error.Code, m.Error.Message)
	}
	if result != nil {
		if err := json.Unmarshal(m.Result, result); err != nil {
			c.t.Fatalf("%s: decoding result %s: %v", method, m.Result, err)
		}
	}
}

// callErr sends a request and returns its error answer (nil on success).
func (c *client) callErr(method string, params any) *wireError {
	c.t.Helper()
	return c.answer(c.start(method, params)).Error
}

func (c *client) notify(method string, params any) {
	if err := c.Notify(method, params); err != nil {
		c.t.Fatal(err)
	}
}

// waitNote waits until a notification satisfies match and returns it.
// Notifications already seen are matched too; from is the index to start
// at, and the index after the match is returned.
func (c *client) waitNote(from int, match func(*wireMsg) bool) (*wireMsg, int) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), answerWait)
	defer cancel()
	m, next, err := c.WaitNote(ctx, from, match)
	if err != nil {
		c.t.Fatal(err)
	}
	return m, next
}

func (c *client) notesSnapshot() []*wireMsg { return c.Notes() }

// session is a server running in-process on a pipe, with its client.
type session struct {
	*client
	srv  *Server
	done chan int
	conn net.Conn
}

// startSession runs a server over fsys on an in-process pipe.
func startSession(t testing.TB, fsys vfs.FS, extra map[string]requestRoute) *session {
	t.Helper()
	serverEnd, clientEnd := net.Pipe()
	srv := New(Options{FS: fsys, Log: testLog{t}, extraRequests: extra})
	done := make(chan int, 2)
	go func() { done <- srv.Run(context.Background(), serverEnd) }()
	s := &session{client: newClient(t, clientEnd, clientEnd), srv: srv, done: done, conn: clientEnd}
	t.Cleanup(func() {
		clientEnd.Close()
		<-done // Run must return once its connection is gone
	})
	return s
}

// exitCode waits for Run to return and gives its result back to the
// cleanup.
func (s *session) exitCode() int {
	code := <-s.done
	s.done <- code
	return code
}

type testLog struct{ t testing.TB }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Logf("%s", bytes.TrimRight(p, "\n"))
	return len(p), nil
}
