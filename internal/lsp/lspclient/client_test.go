package lspclient

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/lsp/jsonrpcframe"
)

// fakeServer answers each request with its method as result, "fail" with
// an error; before answering "ask" it asks the client for its settings and
// sends a notification, and "bad" gets a frame that is not JSON-RPC 2.0.
func fakeServer(t *testing.T, r io.Reader, w io.Writer) {
	in := bufio.NewReader(r)
	write := func(v any) {
		body, _ := json.Marshal(v)
		_, _ = w.Write(jsonrpcframe.Append(nil, body))
	}
	for {
		body, err := jsonrpcframe.Read(in)
		if err != nil {
			return
		}
		var m Message
		if err := json.Unmarshal(body, &m); err != nil {
			t.Errorf("client sent %q: %v", body, err)
			return
		}
		switch m.Method {
		case "":
			write(map[string]any{"jsonrpc": "2.0", "method": "answered", "params": map[string]any{"id": m.ID, "result": m.Result}})
		case "ask":
			write(map[string]any{"jsonrpc": "2.0", "id": "s1", "method": "workspace/configuration", "params": map[string]any{"items": []any{1}}})
			write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": "ask"})
		case "fail":
			write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "no such method"}})
		case "bad":
			_, _ = w.Write(jsonrpcframe.Append(nil, []byte(`{"jsonrpc":"1.0","id":1}`)))
		default:
			if m.ID != nil {
				write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": m.Method})
			}
		}
	}
}

func start(t *testing.T, opts Options) *Client {
	toServerR, toServerW := io.Pipe()
	fromServerR, fromServerW := io.Pipe()
	go func() {
		fakeServer(t, toServerR, fromServerW)
		fromServerW.Close()
	}()
	t.Cleanup(func() { toServerW.Close(); toServerR.Close() })
	return New(fromServerR, toServerW, opts)
}

func TestCallsNotesAndServerRequests(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var seen []string
	c := start(t, Options{KeepNotes: true, OnNote: func(m *Message) { seen = append(seen, m.Method) }, Answer: func(m *Message) any {
		return []string{"settings for " + m.Method}
	}})
	var got string
	if _, err := c.Call(ctx, "hello", nil, &got); err != nil || got != "hello" {
		t.Fatalf("Call(hello) = %q, %v", got, err)
	}
	_, err := c.Call(ctx, "fail", nil, nil)
	var rpcErr *Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32601 {
		t.Errorf("Call(fail) = %v, want a -32601 *Error", err)
	}
	if _, err := c.Call(ctx, "ask", nil, nil); err != nil {
		t.Fatal(err)
	}
	// The server's request was answered by Answer: the fake server echoes
	// the answer as a notification.
	note, _, err := c.WaitNote(ctx, 0, func(m *Message) bool { return m.Method == "answered" })
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(note.Params), `"id":"s1"`) || !strings.Contains(string(note.Params), "settings for workspace/configuration") {
		t.Errorf("the answer to the server's request: %s", note.Params)
	}
	if reqs := c.Requests(); len(reqs) != 1 || reqs[0].Method != "workspace/configuration" {
		t.Errorf("requests from the server: %+v", reqs)
	}
	if len(seen) != 1 || seen[0] != "answered" || len(c.Notes()) != 1 {
		t.Errorf("OnNote saw %v, Notes %d", seen, len(c.Notes()))
	}
	// A request written raw, with an id the test chose, is answered too.
	id := c.NewID()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "raw"})
	if err := c.SendRaw(jsonrpcframe.Append(nil, body)); err != nil {
		t.Fatal(err)
	}
	if m, err := c.Await(ctx, id); err != nil || string(m.Result) != `"raw"` {
		t.Errorf("Await(raw) = %+v, %v", m, err)
	}
}

func TestAStrictReader(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := start(t, Options{})
	id, err := c.Start("bad", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Await(ctx, id); err == nil || !strings.Contains(err.Error(), "not a JSON-RPC 2.0 message") {
		t.Errorf("Await after a bad frame: %v, want the frame named", err)
	}
	<-c.Done()
	if c.Err() == nil {
		t.Error("Err is nil after a bad frame")
	}
}

func TestAwaitHonoursItsContext(t *testing.T) {
	c := start(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Await(ctx, json.RawMessage("424242")); !errors.Is(err, context.Canceled) {
		t.Errorf("Await on a cancelled context: %v", err)
	}
}
