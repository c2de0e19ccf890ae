package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

func TestLocalPathOfFileURIs(t *testing.T) {
	for _, tc := range []struct {
		uri     string
		windows bool
		want    string // "" : refused
	}{
		{"file:///tmp/a/beeuni.yaml", false, "/tmp/a/beeuni.yaml"},
		{"file://localhost/tmp/a/beeuni.yaml", false, "/tmp/a/beeuni.yaml"},
		{"file://LOCALHOST/tmp/a", false, "/tmp/a"},
		{"file:///tmp/%c3%bc/beeuni.yaml", false, "/tmp/ü/beeuni.yaml"},
		{"file://otherhost/tmp/a/beeuni.yaml", false, ""},
		{"file://otherhost/tmp/a/beeuni.yaml", true, ""},
		{"file://C:/Users/x/beeuni.yaml", false, ""},
		{"file://C:/Users/x/beeuni.yaml", true, "C:/Users/x/beeuni.yaml"},
		{"file:///C:/Users/x/beeuni.yaml", true, "C:/Users/x/beeuni.yaml"},
		{"file:///c%3A/Users/x/beeuni.yaml", true, "c:/Users/x/beeuni.yaml"},
		{"file://localhost/C:/Users/x", true, "C:/Users/x"},
		{"file:///Users/x/beeuni.yaml", true, ""}, // no drive
		{"untitled:Untitled-1", false, ""},
		{"https://example.com/beeuni.yaml", false, ""},
	} {
		got, err := localPath(protocol.DocumentURI(tc.uri), tc.windows)
		if tc.want == "" {
			if err == nil {
				t.Errorf("localPath(%q, windows=%v) = %q, want a refusal", tc.uri, tc.windows, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("localPath(%q, windows=%v) = %q, %v; want %q", tc.uri, tc.windows, got, err, tc.want)
		}
	}
}

// publishedURIs returns the URI strings of every publishDiagnostics so far
// (as sent, not decoded), with the number of diagnostics of the last one.
func publishedURIs(s *session) map[string]int {
	out := map[string]int{}
	for _, n := range s.notesSnapshot() {
		if n.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p struct {
			URI         string            `json:"uri"`
			Diagnostics []json.RawMessage `json:"diagnostics"`
		}
		if err := json.Unmarshal(n.Params, &p); err == nil {
			out[p.URI] = len(p.Diagnostics)
		}
	}
	return out
}

// A document opened under a URI the server does not serve (another host,
// a drive letter on a machine without drives) gets nothing published for
// any file; one opened under another spelling of a local URI gets its
// diagnostics under that exact spelling.
func TestDiagnosticsUnderTheClientsURI(t *testing.T) {
	bad := "tools:\n  web_search: beeuni:image_search\n"
	for _, tc := range []struct {
		name, uri string
		served    bool
	}{
		{"another host", "file://otherhost/ws/beeuni.yaml", false},
		{"a drive letter as the host", "file://C:/ws/beeuni.yaml", false},
		{"localhost", "file://localhost/ws/beeuni.yaml", true},
		{"lower-case escapes", "file:///ws/%c3%bc/beeuni.yaml", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+bad+"-- ü/beeuni.yaml --\n"+bad))
			s := startSession(t, fsys, idleHook())
			s.initialize(initParams(map[string]any{"capabilities": clientCaps(UTF16)}))
			s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
				"uri": tc.uri, "languageId": "yaml", "version": 1, "text": bad,
			}})
			s.idle()
			got := publishedURIs(s)
			if !tc.served {
				if len(got) != 0 {
					t.Errorf("diagnostics published for a document the server does not serve: %v", got)
				}
				return
			}
			if got[tc.uri] == 0 {
				t.Errorf("no diagnostics under %s; published: %v", tc.uri, got)
			}
			for uri := range got {
				if uri != tc.uri {
					t.Errorf("diagnostics under %s, a spelling the client did not use (it opened %s)", uri, tc.uri)
				}
			}
			// Edited, then closed without saving: the disk's findings
			// under the server's spelling from now on, and nothing left
			// under the client's.
			s.notify("textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": tc.uri, "version": 2},
				"contentChanges": []any{map[string]any{"text": bad + "  memory: beeuni:web_search\n"}},
			})
			s.idle()
			if got := publishedURIs(s); got[tc.uri] != 2 {
				t.Errorf("after an edit: %v, want two diagnostics under %s", got, tc.uri)
			}
			s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": tc.uri}})
			s.idle()
			if got := publishedURIs(s); got[tc.uri] != 0 {
				t.Errorf("diagnostics left under %s after it closed: %v", tc.uri, got)
			}
		})
	}
}

func TestRefusedURIIsLogged(t *testing.T) {
	s := startSession(t, vfs.NewMem(), idleHook())
	s.initialize(initParams(nil))
	s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": "file://otherhost/ws/beeuni.yaml", "languageId": "yaml", "version": 1, "text": "tools: {}\n",
	}})
	s.idle()
	for _, n := range s.notesSnapshot() {
		if n.Method == "window/logMessage" && strings.Contains(string(n.Params), "otherhost") {
			return
		}
	}
	t.Errorf("no window/logMessage names the refused URI")
}
