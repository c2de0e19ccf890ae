package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"strconv"
	"sync"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/lsp/jsonrpcframe"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// wireMsg is any JSON-RPC message as the test client sees it.
type wireMsg struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *wireError      `json:"error,omitempty"`
}

type wireError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// client is a test LSP client speaking raw frames, so that tests can also
// send what no well-behaved client would. A reader goroutine sorts what
// the server sends: answers to the client's calls, notifications (kept in
// order), and requests from the server (answered by serverCalls).
type client struct {
	t  testing.TB
	w  io.Writer
	wm sync.Mutex

	mu       sync.Mutex
	cond     *sync.Cond
	answers  map[string]*wireMsg
	notes    []*wireMsg
	requests []*wireMsg // requests from the server, in order
	closed   bool
	nextID   int

	// serverCalls answers requests from the server by method; a missing
	// method is answered with null.
	serverCalls map[string]func(params json.RawMessage) any
}

func newClient(t testing.TB, r io.Reader, w io.Writer) *client {
	c := &client{t: t, w: w, answers: map[string]*wireMsg{}, serverCalls: map[string]func(json.RawMessage) any{}}
	c.cond = sync.NewCond(&c.mu)
	go c.readLoop(bufio.NewReader(r))
	return c
}

func (c *client) readLoop(r *bufio.Reader) {
	defer func() {
		c.mu.Lock()
		c.closed = true
		c.cond.Broadcast()
		c.mu.Unlock()
	}()
	for {
		body, err := jsonrpcframe.Read(r)
		if err != nil {
			return
		}
		var m wireMsg
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("server sent invalid JSON: %v: %s", err, body)
			return
		}
		switch {
		case m.Method != "" && m.ID != nil:
			c.mu.Lock()
			c.requests = append(c.requests, &m)
			h := c.serverCalls[m.Method]
			c.mu.Unlock()
			var result any
			if h != nil {
				result = h(m.Params)
			}
			// The answer may race the end of the test (a closed pipe):
			// that is not the test's failure.
			if data, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result}); err == nil {
				c.wm.Lock()
				_, _ = c.w.Write(jsonrpcframe.Append(nil, data))
				c.wm.Unlock()
			}
		case m.Method != "":
			c.mu.Lock()
			c.notes = append(c.notes, &m)
			c.cond.Broadcast()
			c.mu.Unlock()
		default:
			c.mu.Lock()
			c.answers[string(m.ID)] = &m
			c.cond.Broadcast()
			c.mu.Unlock()
		}
	}
}

// sendRaw writes bytes as they are.
func (c *client) sendRaw(data string) {
	c.wm.Lock()
	defer c.wm.Unlock()
	if _, err := io.WriteString(c.w, data); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// sendBody frames body with a correct Content-Length.
func (c *client) sendBody(body []byte) {
	c.sendRaw(string(jsonrpcframe.Append(nil, body)))
}

func (c *client) sendJSON(v any) {
	data, err := json.Marshal(v)
	if err != nil {
		c.t.Fatalf("marshal: %v", err)
	}
	c.sendBody(data)
}

// start sends a request and returns its id.
func (c *client) start(method string, params any) string {
	c.mu.Lock()
	c.nextID++
	id := strconv.Itoa(c.nextID)
	c.mu.Unlock()
	msg := map[string]any{"jsonrpc": "2.0", "id": c.nextIDRaw(id), "method": method}
	if params != nil {
		msg["params"] = params
	}
	c.sendJSON(msg)
	return id
}

func (c *client) nextIDRaw(id string) json.RawMessage { return json.RawMessage(id) }

// answer waits for the answer to id.
func (c *client) answer(id string) *wireMsg {
	c.t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.answers[id] == nil {
		if c.closed {
			c.t.Fatalf("connection closed before the answer to request %s", id)
		}
		c.cond.Wait()
	}
	m := c.answers[id]
	delete(c.answers, id)
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
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	c.sendJSON(msg)
}

// waitNote waits until a notification satisfies match and returns it.
// Notifications already seen are matched too; from is the index to start
// at, and the index after the match is returned.
func (c *client) waitNote(from int, match func(*wireMsg) bool) (*wireMsg, int) {
	c.t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := from; ; i++ {
		for i >= len(c.notes) {
			if c.closed {
				c.t.Fatalf("connection closed while waiting for a notification")
			}
			c.cond.Wait()
		}
		if match(c.notes[i]) {
			return c.notes[i], i + 1
		}
	}
}

func (c *client) notesSnapshot() []*wireMsg {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*wireMsg(nil), c.notes...)
}

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
