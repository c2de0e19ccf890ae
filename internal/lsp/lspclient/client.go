// Package lspclient is the one LSP client of the tests and the benchmark:
// it frames JSON-RPC messages (internal/lsp/jsonrpcframe), reads strictly
// what the server sends (every frame well formed, valid UTF-8, JSON-RPC 2.0),
// matches answers to requests by their id, answers the server's own
// requests, and keeps the notifications for a caller to wait on. The
// server's tests (internal/lsp), the protocol tests of the binary
// (internal/lsptest/protocol) and the end-to-end benchmark
// (internal/lsp/bench) each put a thin layer of their own on it.
package lspclient

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/beeuni/beeuni-lsp/internal/lsp/jsonrpcframe"
)

// Message is one JSON-RPC message as the client reads it.
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
	// At is when the client read it.
	At time.Time `json:"-"`
}

// Error is a JSON-RPC error answer.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("json-rpc error %d: %s", e.Code, e.Message) }

// Options says how the client answers the server and what it keeps.
type Options struct {
	// Answer gives the result of a request from the server (nil: null).
	// It runs on a goroutine of its own, so it may wait.
	Answer func(m *Message) any
	// OnNote sees each notification as it is read, on the reading
	// goroutine (it must not wait).
	OnNote func(m *Message)
	// KeepNotes keeps every notification for Notes and WaitNote (the tests);
	// the benchmark, whose publishes are large and many, keeps none.
	KeepNotes bool
}

// Client is a connection to a server.
type Client struct {
	w       io.Writer
	wmu     sync.Mutex
	written int64 // under wmu

	opts Options

	mu       sync.Mutex
	nextID   int64
	answers  map[string]*Message // by the id's JSON text, until taken
	notes    []*Message
	requests []*Message    // requests from the server, in order
	changed  chan struct{} // closed and replaced at each message read
	readErr  error         // why reading stopped: io.EOF when the server closed
	done     chan struct{} // closed when reading stops
}

// New starts a client on a connection: it writes to w and reads from r
// until r ends.
func New(r io.Reader, w io.Writer, opts Options) *Client {
	c := &Client{w: w, opts: opts, answers: map[string]*Message{}, changed: make(chan struct{}), done: make(chan struct{}), nextID: 1000}
	go c.readLoop(bufio.NewReaderSize(r, 1<<16))
	return c
}

func (c *Client) readLoop(r *bufio.Reader) {
	var err error
	defer func() {
		c.mu.Lock()
		c.readErr = err
		c.mu.Unlock()
		close(c.done)
	}()
	for {
		var body []byte
		body, err = jsonrpcframe.Read(r)
		if err != nil {
			if err != io.EOF {
				err = fmt.Errorf("the server's output: %w", err)
			}
			return
		}
		at := time.Now()
		if !utf8.Valid(body) {
			err = fmt.Errorf("the server's output: a message that is not valid UTF-8: %.200q", body)
			return
		}
		m := &Message{}
		if jerr := json.Unmarshal(body, m); jerr != nil || m.JSONRPC != "2.0" {
			err = fmt.Errorf("the server's output: not a JSON-RPC 2.0 message (%v): %.200s", jerr, body)
			return
		}
		m.At = at
		switch {
		case m.Method != "" && m.ID != nil:
			c.mu.Lock()
			c.requests = append(c.requests, m)
			c.mu.Unlock()
			go c.answer(m)
		case m.Method != "":
			if c.opts.OnNote != nil {
				c.opts.OnNote(m)
			}
			if c.opts.KeepNotes {
				c.mu.Lock()
				c.notes = append(c.notes, m)
				c.mu.Unlock()
			}
		default:
			c.mu.Lock()
			c.answers[string(m.ID)] = m
			c.mu.Unlock()
		}
		c.mu.Lock()
		close(c.changed)
		c.changed = make(chan struct{})
		c.mu.Unlock()
	}
}

// answer replies to a request from the server. The answer may race the end
// of the connection: that is no failure of the client's.
func (c *Client) answer(m *Message) {
	var result any
	if c.opts.Answer != nil {
		result = c.opts.Answer(m)
	}
	res, err := json.Marshal(result)
	if err != nil {
		res = []byte("null")
	}
	_ = c.Send(Message{JSONRPC: "2.0", ID: m.ID, Result: res})
}

// Send writes one message, framed.
func (c *Client) Send(msg any) error {
	body, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	return c.SendRaw(jsonrpcframe.Append(make([]byte, 0, len(body)+32), body))
}

// SendRaw writes bytes as they are: a test may send what no well-behaved
// client would.
func (c *Client) SendRaw(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	n, err := c.w.Write(data)
	c.written += int64(n)
	if err != nil {
		return fmt.Errorf("write to the server: %w", err)
	}
	return nil
}

// Written returns the number of bytes written to the server so far.
func (c *Client) Written() int64 {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.written
}

// NewID returns a request id (a number, as JSON) no other request of the
// client gets: for a request a caller writes itself.
func (c *Client) NewID() json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextID++
	return json.RawMessage(strconv.FormatInt(c.nextID, 10))
}

// Start sends a request and returns its id.
func (c *Client) Start(method string, params any) (json.RawMessage, error) {
	id := c.NewID()
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if err := c.Send(msg); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	return id, nil
}

// Await waits for the answer to id (its JSON text; any id, also one a
// caller sent raw) and takes it.
func (c *Client) Await(ctx context.Context, id json.RawMessage) (*Message, error) {
	key := string(id)
	for {
		c.mu.Lock()
		m, changed := c.answers[key], c.changed
		if m != nil {
			delete(c.answers, key)
		}
		c.mu.Unlock()
		if m != nil {
			return m, nil
		}
		select {
		case <-changed:
		case <-c.done:
			c.mu.Lock()
			m = c.answers[key]
			delete(c.answers, key)
			c.mu.Unlock()
			if m != nil {
				return m, nil
			}
			return nil, fmt.Errorf("waiting for the answer to %s: the connection ended: %w", key, c.Err())
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for the answer to %s: %w", key, ctx.Err())
		}
	}
}

// Call sends a request, waits for its answer and decodes its result into
// result (when not nil). It returns the time from the write to the read of
// the answer. An error answer is returned as an *Error (wrapped). When ctx
// ends first, the request is cancelled ($/cancelRequest).
func (c *Client) Call(ctx context.Context, method string, params, result any) (time.Duration, error) {
	start := time.Now()
	id, err := c.Start(method, params)
	if err != nil {
		return 0, err
	}
	m, err := c.Await(ctx, id)
	if err != nil {
		if ctx.Err() != nil {
			_ = c.Notify("$/cancelRequest", map[string]any{"id": id})
		}
		return 0, fmt.Errorf("%s: %w", method, err)
	}
	d := m.At.Sub(start)
	if m.Error != nil {
		return d, fmt.Errorf("%s: %w", method, m.Error)
	}
	if result != nil {
		if err := json.Unmarshal(m.Result, result); err != nil {
			return d, fmt.Errorf("%s: decode result %.200s: %w", method, m.Result, err)
		}
	}
	return d, nil
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) error {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	if err := c.Send(msg); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

// Notes returns the notifications read so far, in order (KeepNotes).
func (c *Client) Notes() []*Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*Message(nil), c.notes...)
}

// Requests returns the requests the server sent so far, in order.
func (c *Client) Requests() []*Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*Message(nil), c.requests...)
}

// Take takes the answer to id if it has been read, without waiting.
func (c *Client) Take(id json.RawMessage) (*Message, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, ok := c.answers[string(id)]
	delete(c.answers, string(id))
	return m, ok
}

// Answers returns the answers read and not yet taken by Await, by id.
func (c *Client) Answers() map[string]*Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]*Message, len(c.answers))
	for id, m := range c.answers {
		out[id] = m
	}
	return out
}

// WaitNote waits for a notification at index from or later that satisfies
// match (KeepNotes), and returns it with the index after it.
func (c *Client) WaitNote(ctx context.Context, from int, match func(*Message) bool) (*Message, int, error) {
	for {
		c.mu.Lock()
		notes, changed := c.notes, c.changed
		c.mu.Unlock()
		for i := from; i < len(notes); i++ {
			if match(notes[i]) {
				return notes[i], i + 1, nil
			}
		}
		from = max(from, len(notes))
		select {
		case <-changed:
		case <-c.done:
			return nil, from, fmt.Errorf("the connection ended while waiting for a notification: %w", c.Err())
		case <-ctx.Done():
			return nil, from, ctx.Err()
		}
	}
}

// Changed returns a channel closed at the next message read.
func (c *Client) Changed() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.changed
}

// Done is closed when reading stops; Err then says why (io.EOF: the server
// closed its output).
func (c *Client) Done() <-chan struct{} { return c.done }

// Err returns why reading stopped, or nil while it goes on.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.readErr
}
