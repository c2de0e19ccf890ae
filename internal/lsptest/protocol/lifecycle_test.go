package protocol

import (
	"encoding/json"
	"testing"
)

// TestLifecycleOrder checks the answers out of lifecycle order: a request
// before initialize is ServerNotInitialized and a notification then is
// dropped; after shutdown every request but exit is InvalidRequest; exit
// after shutdown ends the process with code 0.
func TestLifecycleOrder(t *testing.T) {
	root := writeWorkspace(t, map[string]string{"beeuni.yaml": sentinelManifest})
	c := startServer(t, root)
	s := &session{client: c, root: root, manifest: root + "/beeuni.yaml"}

	s.expectError(s.start("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": fileURI(s.manifest)}}), codeServerNotInitialized)
	s.expectError(s.start("shutdown", nil), codeServerNotInitialized)
	s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": fileURI(s.manifest), "languageId": "yaml", "version": 1, "text": "x"}})
	s.notify("initialized", map[string]any{})

	s.initialize()
	second := s.call("initialize", initializeParams(root))
	if second.Error == nil {
		t.Errorf("a second initialize was answered %s; want an error", second.Result)
	}
	s.openSentinel()
	s.checkAlive()

	if m := s.call("shutdown", nil); m.Error != nil || string(m.Result) != "null" {
		t.Fatalf("shutdown: %s %+v; want null", m.Result, m.Error)
	}
	s.expectError(s.start("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": fileURI(s.manifest)}}), codeInvalidRequest)
	s.expectError(s.start("shutdown", nil), codeInvalidRequest)
	s.expectError(s.start("initialize", initializeParams(root)), codeInvalidRequest)
	s.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": fileURI(s.manifest), "version": 99}, "contentChanges": []map[string]any{{"text": "y"}}})
	s.notify("exit", nil)
	if code := c.waitExit(); code != 0 {
		t.Fatalf("exit after shutdown: exit code %d, want 0", code)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	for _, initialized := range []bool{false, true} {
		t.Run(map[bool]string{false: "before initialize", true: "after initialize"}[initialized], func(t *testing.T) {
			root := writeWorkspace(t, map[string]string{"beeuni.yaml": sentinelManifest})
			c := startServer(t, root)
			if initialized {
				s := &session{client: c, root: root, manifest: root + "/beeuni.yaml"}
				s.initialize()
				s.openSentinel()
			}
			c.notify("exit", nil)
			if code := c.waitExit(); code != 1 {
				t.Fatalf("exit without shutdown: exit code %d, want 1", code)
			}
		})
	}
}

// TestStreamEnds closes the server's stdin without exit, as a crashed
// editor does: the server ends, with code 1 before shutdown and 0 after.
func TestStreamEnds(t *testing.T) {
	for _, shutdown := range []bool{false, true} {
		t.Run(map[bool]string{false: "running", true: "after shutdown"}[shutdown], func(t *testing.T) {
			s := newSession(t)
			want := 1
			if shutdown {
				s.call("shutdown", nil)
				want = 0
			}
			// A request in flight and half a message when the stream ends.
			s.start("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": fileURI(s.manifest)}})
			s.writeRaw([]byte("Content-Length: 500\r\n\r\n{\"jsonrpc\":"))
			_ = s.stdin.Close()
			if code := s.waitExit(); code != want {
				t.Fatalf("exit code %d when the stream ended, want %d", code, want)
			}
		})
	}
}

// TestDuplicateRequestIDs sends the same id twice: each request gets an
// answer, and the server goes on.
func TestDuplicateRequestIDs(t *testing.T) {
	s := newSession(t)
	req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 4242, "method": "textDocument/documentSymbol", "params": map[string]any{"textDocument": map[string]any{"uri": fileURI(s.manifest)}}})
	s.writeRaw(append(frame(req), frame(req)...))
	s.await(json.RawMessage("4242"))
	s.checkAlive()
}
