package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/lsp/jsonrpcframe"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// pipelinedSession is what a test harness or `beeuni-lsp < session.jsonrpc`
// writes at once: requests 1 (initialize), 2 (hover) and 3 (shutdown),
// then exit when withExit.
func pipelinedSession(t *testing.T, withExit bool) []byte {
	t.Helper()
	msgs := []map[string]any{
		{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initParams(map[string]any{
			"rootUri": string(pathToURI("/ws")), "initializationOptions": map[string]any{"inspectModules": false}})},
		{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}},
		{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
			"uri": string(pathToURI("/ws/beeuni.yaml")), "languageId": "yaml", "version": 1, "text": pipelinedManifest}}},
		{"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": map[string]any{
			"textDocument": map[string]any{"uri": string(pathToURI("/ws/beeuni.yaml"))},
			"position":     map[string]any{"line": 1, "character": 4}}},
		{"jsonrpc": "2.0", "id": 3, "method": "shutdown"},
	}
	if withExit {
		msgs = append(msgs, map[string]any{"jsonrpc": "2.0", "method": "exit"})
	}
	var in []byte
	for _, m := range msgs {
		body, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		in = jsonrpcframe.Append(in, body)
	}
	return in
}

const pipelinedManifest = "tools:\n  web_search: beeuni:web_search\n  Bad: tools/missing.ts\n"

// scriptedConn is a connection whose input is fixed bytes: it ends there
// (EOF) when endsAfter, else it stays open (a read waits) until Close.
// Output is collected; Close ends a write the test holds (blockWrites: a
// client that never reads).
type scriptedConn struct {
	in          *bytes.Reader
	endsAfter   bool
	blockWrites bool
	closed      chan struct{}
	once        sync.Once
	mu          sync.Mutex
	out         bytes.Buffer
}

func newScriptedConn(in []byte, endsAfter, blockWrites bool) *scriptedConn {
	return &scriptedConn{in: bytes.NewReader(in), endsAfter: endsAfter, blockWrites: blockWrites, closed: make(chan struct{})}
}

func (c *scriptedConn) Read(p []byte) (int, error) {
	if n, err := c.in.Read(p); n > 0 || c.endsAfter {
		return n, err
	}
	<-c.closed
	return 0, io.ErrClosedPipe
}

func (c *scriptedConn) Write(p []byte) (int, error) {
	if c.blockWrites {
		<-c.closed
		return 0, io.ErrClosedPipe
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.Write(p)
}

func (c *scriptedConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *scriptedConn) output() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Clone(c.out.Bytes())
}

// answersIn returns the answers in a server's output by id, failing on
// misframed output.
func answersIn(t *testing.T, out []byte) map[string][]*wireMsg {
	t.Helper()
	answers := map[string][]*wireMsg{}
	r := bufio.NewReader(bytes.NewReader(out))
	for {
		body, err := jsonrpcframe.Read(r)
		if errors.Is(err, io.EOF) {
			return answers
		}
		if err != nil {
			t.Fatalf("misframed output: %v\n%s", err, out)
		}
		var m wireMsg
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("invalid JSON in the output: %v: %s", err, body)
		}
		if m.Method == "" {
			answers[string(m.ID)] = append(answers[string(m.ID)], &m)
		}
	}
}

// TestPipelinedSessionGetsEveryAnswer writes a whole session at once, as a
// test harness, socat or `beeuni-lsp < session.jsonrpc` does, then ends
// the input (or, after exit, leaves it open): every request has its one
// answer on the output, every run. The stream's close used to drop the
// frames still queued, so that most runs printed nothing. The hover may be
// answered RequestCancelled: shutdown cancels the requests still running.
func TestPipelinedSessionGetsEveryAnswer(t *testing.T) {
	fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+pipelinedManifest))
	cases := []struct {
		name      string
		withExit  bool
		endsAfter bool
	}{
		{"exit then EOF", true, true},
		{"exit, the input left open", true, false},
		{"EOF after shutdown", false, true},
	}
	const runs = 40
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := pipelinedSession(t, tc.withExit)
			for run := range runs {
				conn := newScriptedConn(in, tc.endsAfter, false)
				code := New(Options{FS: fsys}).Run(context.Background(), conn)
				if code != 0 {
					t.Fatalf("run %d: exit code %d, want 0", run, code)
				}
				answers := answersIn(t, conn.output())
				for _, id := range []string{"1", "2", "3"} {
					if len(answers[id]) != 1 {
						t.Fatalf("run %d: request %s has %d answers, want 1; output:\n%s", run, id, len(answers[id]), conn.output())
					}
				}
				for _, id := range []string{"1", "3"} {
					if e := answers[id][0].Error; e != nil {
						t.Fatalf("run %d: request %s answered error %d %s", run, id, e.Code, e.Message)
					}
				}
				if e := answers["2"][0].Error; e != nil && e.Code != codeCancelled {
					t.Fatalf("run %d: hover answered error %d %s", run, e.Code, e.Message)
				}
			}
		})
	}
}

// TestRunReturnsWhenTheClientNeverReads: a client that never reads what
// the server writes cannot keep the process alive at exit: Run writes what
// is queued for a bounded time, then closes the connection and returns.
// (The bound is a second; the guard here only catches a hang.)
func TestRunReturnsWhenTheClientNeverReads(t *testing.T) {
	fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+pipelinedManifest))
	for _, endsAfter := range []bool{true, false} {
		conn := newScriptedConn(pipelinedSession(t, true), endsAfter, true)
		done := make(chan int, 1)
		go func() { done <- New(Options{FS: fsys}).Run(context.Background(), conn) }()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("exit code %d, want 0", code)
			}
		case <-time.After(30 * time.Second):
			conn.Close()
			t.Fatalf("Run did not return (input ends: %v) while the client never read", endsAfter)
		}
		select {
		case <-conn.closed:
		default:
			t.Errorf("Run returned without closing the connection (input ends: %v)", endsAfter)
		}
	}
}
