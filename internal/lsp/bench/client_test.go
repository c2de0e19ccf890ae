package bench

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

// fakeServer answers initialize after asking the client for its settings,
// and publishes diagnostics tagged with each didChange's version, with one
// finding per "X" in the text.
func fakeServer(t *testing.T, r io.Reader, w io.Writer) {
	t.Helper()
	br := bufio.NewReader(r)
	send := func(v any) {
		body, _ := json.Marshal(v)
		if _, err := w.Write(jsonrpcframe.Append(nil, body)); err != nil {
			t.Errorf("fake server write: %v", err)
		}
	}
	for {
		body, err := jsonrpcframe.Read(br)
		if err != nil {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(body, &m); err != nil {
			t.Errorf("fake server: %v", err)
			return
		}
		switch m.Method {
		case "initialize":
			send(map[string]any{"jsonrpc": "2.0", "id": "cfg-1", "method": "workspace/configuration",
				"params": map[string]any{"items": []any{map[string]any{"section": "beeuni"}}}})
			// The answer to the configuration request comes next.
			body, err := jsonrpcframe.Read(br)
			if err != nil {
				t.Errorf("fake server: no configuration answer: %v", err)
				return
			}
			var answer struct {
				ID     string          `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			_ = json.Unmarshal(body, &answer)
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{
				"capabilities": map[string]any{"textDocumentSync": 2}, "settingsSeen": answer.Result, "answerID": answer.ID}})
		case "textDocument/didChange":
			var p struct {
				TextDocument struct {
					URI     string `json:"uri"`
					Version int    `json:"version"`
				} `json:"textDocument"`
				ContentChanges []struct {
					Text string `json:"text"`
				} `json:"contentChanges"`
			}
			_ = json.Unmarshal(m.Params, &p)
			diags := []any{}
			for range strings.Count(p.ContentChanges[0].Text, "X") {
				diags = append(diags, map[string]any{"range": Range{}, "severity": 1, "code": "T1", "message": "not snake_case"})
			}
			send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
				"params": map[string]any{"uri": p.TextDocument.URI, "version": p.TextDocument.Version, "diagnostics": diags}})
		case "shutdown":
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil})
		case "fail":
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
		case "exit":
			return
		}
	}
}

func TestClient(t *testing.T) {
	toServer, clientOut := io.Pipe()
	clientIn, fromServer := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fakeServer(t, toServer, fromServer)
		fromServer.Close()
		toServer.Close() // writes of a client to a stopped server fail

	}()
	c := NewClient(clientIn, clientOut, json.RawMessage(`{"inspectModules":true}`))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	var init struct {
		Capabilities struct {
			TextDocumentSync json.RawMessage `json:"textDocumentSync"`
		} `json:"capabilities"`
		SettingsSeen []json.RawMessage `json:"settingsSeen"`
		AnswerID     string            `json:"answerID"`
	}
	if _, err := c.Call(ctx, "initialize", map[string]any{}, &init); err != nil {
		t.Fatal(err)
	}
	if syncKind(init.Capabilities.TextDocumentSync) != 2 {
		t.Errorf("sync kind %s, want 2", init.Capabilities.TextDocumentSync)
	}
	if len(init.SettingsSeen) != 1 || string(init.SettingsSeen[0]) != `{"inspectModules":true}` || init.AnswerID != "cfg-1" {
		t.Errorf("server saw settings %s for request %q, want one item {\"inspectModules\":true} for cfg-1", init.SettingsSeen, init.AnswerID)
	}

	uri := "file:///w/beeuni.yaml"
	for v, text := range []string{"a", "aX", "aXX", "a"} {
		err := c.Notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": v + 1},
			"contentChanges": []any{map[string]any{"text": text}},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	ev, idx, err := c.WaitDiagnostics(ctx, uri, 0, func(ev DiagEvent) bool { return ev.Version != nil && *ev.Version == 3 })
	if err != nil {
		t.Fatal(err)
	}
	if idx != 2 || ev.Count("T1") != 2 || ev.Count("A1") != 0 {
		t.Errorf("version 3 at index %d with %d T1, want index 2 with 2 T1", idx, ev.Count("T1"))
	}
	if err := c.WaitFor(ctx, func(d map[string][]DiagEvent) bool { return len(d[uri]) == 4 }); err != nil {
		t.Fatal(err)
	}
	if got := c.Latest()[uri]; *got.Version != 4 || len(got.Diagnostics) != 0 {
		t.Errorf("latest = version %d with %d diagnostics, want version 4 with none", *got.Version, len(got.Diagnostics))
	}
	if c.Published() != 4 || len(c.Diagnostics(uri)) != 4 {
		t.Errorf("published %d, want 4", c.Published())
	}

	_, err = c.Call(ctx, "fail", nil, nil)
	var rpcErr *RPCError
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32601 {
		t.Errorf("Call(fail) = %v, want a -32601 RPCError", err)
	}
	if c.Written() == 0 {
		t.Error("Written() = 0 after writing")
	}
	if err := c.Close(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	<-done
	short, cancelShort := context.WithTimeout(context.Background(), time.Second)
	defer cancelShort()
	if _, err := c.Call(short, "shutdown", nil, nil); err == nil {
		t.Error("Call after the server stopped succeeded")
	}
}
