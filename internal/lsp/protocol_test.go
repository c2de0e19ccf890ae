package lsp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/lsp/jsonrpcframe"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

const (
	codeParseError           = -32700
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
	codeInternalError        = -32603
	codeServerNotInitialized = -32002
	codeCancelled            = -32800
)

// initParams are the initialize params of a plain client (UTF-16).
func initParams(extra map[string]any) map[string]any {
	p := map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}
	for k, v := range extra {
		p[k] = v
	}
	return p
}

type initAnswer struct {
	Capabilities struct {
		PositionEncoding string          `json:"positionEncoding"`
		TextDocumentSync json.RawMessage `json:"textDocumentSync"`
	} `json:"capabilities"`
	ServerInfo struct {
		Name string `json:"name"`
	} `json:"serverInfo"`
}

func (s *session) initialize(params map[string]any) initAnswer {
	s.t.Helper()
	var res initAnswer
	s.call("initialize", params, &res)
	s.notify("initialized", map[string]any{})
	return res
}

func TestLifecycleErrorCodes(t *testing.T) {
	s := startSession(t, vfs.NewMem(), nil)
	if e := s.callErr("textDocument/hover", map[string]any{}); e == nil || e.Code != codeServerNotInitialized {
		t.Fatalf("request before initialize: got %+v, want code %d", e, codeServerNotInitialized)
	}
	s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file:///x/beeuni.yaml", "text": "", "version": 1}})
	res := s.initialize(initParams(nil))
	if res.ServerInfo.Name != "beeuni-lsp" {
		t.Errorf("serverInfo.name = %q, want beeuni-lsp", res.ServerInfo.Name)
	}
	if res.Capabilities.PositionEncoding != "utf-16" {
		t.Errorf("positionEncoding = %q, want utf-16", res.Capabilities.PositionEncoding)
	}
	if e := s.callErr("initialize", initParams(nil)); e == nil || e.Code != codeInvalidRequest {
		t.Errorf("second initialize: got %+v, want code %d", e, codeInvalidRequest)
	}
	if e := s.callErr("beeuni/noSuchMethod", map[string]any{}); e == nil || e.Code != codeMethodNotFound {
		t.Errorf("unknown method: got %+v, want code %d", e, codeMethodNotFound)
	}
	s.notify("beeuni/noSuchNotification", map[string]any{"x": 1})
	s.notify("$/setTrace", map[string]any{"value": "off"})
	if e := s.callErr("shutdown", nil); e != nil {
		t.Fatalf("shutdown: %+v", e)
	}
	if e := s.callErr("textDocument/hover", map[string]any{}); e == nil || e.Code != codeInvalidRequest {
		t.Errorf("request after shutdown: got %+v, want code %d", e, codeInvalidRequest)
	}
	if e := s.callErr("shutdown", nil); e == nil || e.Code != codeInvalidRequest {
		t.Errorf("second shutdown: got %+v, want code %d", e, codeInvalidRequest)
	}
	s.notify("exit", nil)
	if code := s.exitCode(); code != 0 {
		t.Errorf("exit after shutdown: exit code %d, want 0", code)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	s := startSession(t, vfs.NewMem(), nil)
	s.initialize(initParams(nil))
	s.notify("exit", nil)
	if code := s.exitCode(); code != 1 {
		t.Errorf("exit without shutdown: exit code %d, want 1", code)
	}
}

func TestExitBeforeInitialize(t *testing.T) {
	s := startSession(t, vfs.NewMem(), nil)
	s.notify("exit", nil)
	if code := s.exitCode(); code != 1 {
		t.Errorf("exit before initialize: exit code %d, want 1", code)
	}
}

func TestStreamEndWithoutExit(t *testing.T) {
	s := startSession(t, vfs.NewMem(), nil)
	s.initialize(initParams(nil))
	s.conn.Close()
	if code := s.exitCode(); code != 1 {
		t.Errorf("stream closed without shutdown: exit code %d, want 1", code)
	}
}

func TestPositionEncodingNegotiation(t *testing.T) {
	tests := []struct {
		offered []string
		want    string
	}{
		{nil, "utf-16"},
		{[]string{"utf-16"}, "utf-16"},
		{[]string{"utf-8", "utf-16"}, "utf-8"},
		{[]string{"utf-16", "utf-8"}, "utf-8"},
		{[]string{"utf-32"}, "utf-16"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.offered, ","), func(t *testing.T) {
			s := startSession(t, vfs.NewMem(), nil)
			caps := map[string]any{}
			if tt.offered != nil {
				caps["general"] = map[string]any{"positionEncodings": tt.offered}
			}
			res := s.initialize(initParams(map[string]any{"capabilities": caps}))
			if res.Capabilities.PositionEncoding != tt.want {
				t.Errorf("positionEncoding = %q, want %q", res.Capabilities.PositionEncoding, tt.want)
			}
		})
	}
}

// frame is a body with its correct Content-Length header.
func frame(body string) string {
	return string(jsonrpcframe.Append(nil, []byte(body)))
}

func TestMalformedMessagesAreAnsweredAndSurvived(t *testing.T) {
	const probe = `{"jsonrpc":"2.0","id":"probe","method":"beeuni/noSuchMethod"}`
	tests := []struct {
		name  string
		send  string
		codes []int    // error codes answered with id null, in order
		ids   []string // ids of error answers, by code order (empty: null)
	}{
		{name: "invalid JSON", send: frame(`{"jsonrpc":"2.0","id":1,"method":`), codes: []int{codeParseError}},
		{name: "NUL bytes as body", send: frame("\x00\x00\x00"), codes: []int{codeParseError}},
		{name: "NUL bytes between messages", send: "\x00\x00\r\n\x00"},
		{name: "batch", send: frame(`[{"jsonrpc":"2.0","id":1,"method":"shutdown"}]`), codes: []int{codeInvalidRequest}},
		{name: "not an object", send: frame(`"hello"`), codes: []int{codeInvalidRequest}},
		{name: "no method", send: frame(`{"jsonrpc":"2.0","id":7}`), codes: []int{codeInvalidRequest}, ids: []string{"7"}},
		{name: "method not a string", send: frame(`{"jsonrpc":"2.0","id":8,"method":3}`), codes: []int{codeInvalidRequest}, ids: []string{"8"}},
		{name: "wrong version", send: frame(`{"jsonrpc":"1.0","id":9,"method":"x"}`), codes: []int{codeInvalidRequest}, ids: []string{"9"}},
		{name: "id an object", send: frame(`{"jsonrpc":"2.0","id":{"a":1},"method":"x"}`), codes: []int{codeInvalidRequest}},
		{name: "id too large", send: frame(`{"jsonrpc":"2.0","id":99999999999,"method":"x"}`), codes: []int{codeInvalidRequest}},
		{name: "Content-Length not a number", send: "Content-Length: ten\r\n\r\n{}", codes: []int{codeParseError}},
		{name: "Content-Length negative", send: "Content-Length: -5\r\n\r\n", codes: []int{codeParseError}},
		{name: "Content-Length missing", send: "Content-Type: application/vscode-jsonrpc\r\n\r\n" + `{"jsonrpc":"2.0","id":5,"method":"x"}`, codes: []int{codeParseError}},
		{name: "Content-Length too small", send: "Content-Length: 20\r\n\r\n" + `{"jsonrpc":"2.0","id":5,"method":"x"}`, codes: []int{codeParseError}},
		{name: "Content-Length too large", send: "Content-Length: 200\r\n\r\n" + `{"jsonrpc":"2.0","id":5,"method":"beeuni/none"}`, codes: []int{codeMethodNotFound}, ids: []string{"5"}},
		{name: "Content-Length over the limit", send: "Content-Length: 99999999999\r\n\r\n", codes: []int{codeParseError}},
		{name: "header line without colon", send: "Content-Length: 2\r\nbogus\r\n\r\n{}", codes: []int{codeParseError}},
		{name: "answer to no request", send: frame(`{"jsonrpc":"2.0","id":99,"result":null}`)},
		{name: "notification with bad params", send: frame(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":[1,2]}`)},
		{name: "request with bad params", send: frame(`{"jsonrpc":"2.0","id":10,"method":"initialize","params":"x"}`), codes: []int{codeInvalidRequest}, ids: []string{"10"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startSession(t, vfs.NewMem(), nil)
			s.initialize(initParams(nil))
			s.sendRaw(tt.send)
			s.sendRaw(frame(probe))
			got := s.answer(`"probe"`)
			if got.Error == nil || got.Error.Code != codeMethodNotFound {
				t.Fatalf("probe after %s: got %+v, want MethodNotFound", tt.name, got.Error)
			}
			var codes []int
			var ids []string
			for id, a := range s.Answers() {
				if a.Error == nil {
					t.Errorf("unexpected success answer %s", id)
					continue
				}
				codes = append(codes, a.Error.Code)
				if id != "null" {
					ids = append(ids, id)
				}
			}
			if len(codes) != len(tt.codes) || len(codes) > 0 && codes[0] != tt.codes[0] {
				t.Errorf("error answers %v, want %v", codes, tt.codes)
			}
			if strings.Join(ids, ",") != strings.Join(tt.ids, ",") {
				t.Errorf("error answer ids %v, want %v", ids, tt.ids)
			}
		})
	}
}

func TestPanicInHandlerIsRecovered(t *testing.T) {
	extra := map[string]requestRoute{
		"beeuni/test.panic": {class: interactiveWork, handler: func(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
			var m map[string]int
			m["boom"]++ // a nil map write: a real runtime panic
			return nil, nil
		}},
	}
	s := startSession(t, vfs.NewMem(), extra)
	s.initialize(initParams(nil))
	if e := s.callErr("beeuni/test.panic", nil); e == nil || e.Code != codeInternalError {
		t.Fatalf("panicking handler: got %+v, want InternalError", e)
	}
	note, _ := s.waitNote(0, func(m *wireMsg) bool { return m.Method == "window/logMessage" })
	if !strings.Contains(string(note.Params), "beeuni/test.panic") {
		t.Errorf("log message %s does not name the method", note.Params)
	}
	if e := s.callErr("beeuni/noSuchMethod", nil); e == nil || e.Code != codeMethodNotFound {
		t.Errorf("after the panic: got %+v, want MethodNotFound", e)
	}
}

func TestCancelRequest(t *testing.T) {
	started := make(chan struct{})
	extra := map[string]requestRoute{
		"beeuni/test.wait": {class: interactiveWork, handler: func(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
			close(started)
			<-ctx.Done()
			return "finished", nil
		}},
	}
	s := startSession(t, vfs.NewMem(), extra)
	s.initialize(initParams(nil))
	id := s.start("beeuni/test.wait", nil)
	<-started
	s.notify("$/cancelRequest", map[string]any{"id": json.RawMessage(id)})
	got := s.answer(id)
	if got.Error == nil || got.Error.Code != codeCancelled {
		t.Fatalf("cancelled request: got %+v, want RequestCancelled", got.Error)
	}
	s.notify("$/cancelRequest", map[string]any{"id": 12345}) // unknown: ignored
	if e := s.callErr("beeuni/noSuchMethod", nil); e == nil || e.Code != codeMethodNotFound {
		t.Errorf("after the cancel: got %+v, want MethodNotFound", e)
	}
}
