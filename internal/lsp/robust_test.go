package lsp

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

const robustManifest = "tools:\n  web_search: beeuni:web_search\n  Bad: tools/x.ts\n"

// checkAlive asks for a hover on web_search and for the diagnostics of
// beeuni.yaml: the server must still answer both correctly.
func checkAlive(t *testing.T, s *session, text, wantCode string) {
	t.Helper()
	off := strings.Index(text, "web_search:")
	if off < 0 {
		t.Fatalf("text lacks web_search")
	}
	var h *protocol.Hover
	s.call("textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": "file:///ws/beeuni.yaml"},
		"position":     refPosition([]byte(text), off+2, UTF16),
	}, &h)
	if h == nil || !strings.Contains(h.Contents.Value, "web_search") {
		t.Errorf("hover after abuse: %+v", h)
	}
	s.idle()
	if got := codes(s.lastDiagnostics(), "/ws/beeuni.yaml"); !slices.Contains(got, wantCode) {
		t.Errorf("diagnostics after abuse: %v, want %s among them", got, wantCode)
	}
}

func TestDocumentAbuse(t *testing.T) {
	big := strings.Repeat("# "+strings.Repeat("x", 98)+"\n", 100_000) // 10 MB
	longLine := "# " + strings.Repeat("日本", 170_000) + "\n"           // 1 MB on one line
	tests := []struct {
		name string
		do   func(s *session) string // returns the final text of beeuni.yaml
		code string                  // a code the final diagnostics hold; "" means T1
	}{
		{"didChange for a document never opened", func(s *session) string {
			s.notify("textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": "file:///ws/never.yaml", "version": 2},
				"contentChanges": []any{map[string]any{"range": protocol.Range{}, "text": "x"}},
			})
			return robustManifest
		}, ""},
		{"versions going backwards", func(s *session) string {
			s.change("/ws/beeuni.yaml", 10, robustManifest+"# ten\n")
			s.change("/ws/beeuni.yaml", 3, robustManifest+"# three\n")
			return robustManifest + "# three\n"
		}, ""},
		{"a 10 MB document", func(s *session) string {
			s.change("/ws/beeuni.yaml", 2, robustManifest+big)
			return robustManifest + big
		}, ""},
		{"a 1 MB line", func(s *session) string {
			s.change("/ws/beeuni.yaml", 2, longLine+robustManifest)
			return longLine + robustManifest
		}, ""},
		{"NUL bytes and invalid UTF-16 escapes", func(s *session) string {
			s.sendBody([]byte(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///ws/beeuni.yaml","version":2},"contentChanges":[{"text":"# \u0000\ud800 \udc00\n` + strings.ReplaceAll(robustManifest, "\n", `\n`) + `"}]}}`))
			return "# \x00\uFFFD \uFFFD\n" + robustManifest
		}, "Y1"}, // YAML forbids NUL even in comments; hover works from the last good parse
		{"invalid UTF-8 in the message", func(s *session) string {
			s.sendBody([]byte("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didChange\",\"params\":{\"textDocument\":{\"uri\":\"file:///ws/beeuni.yaml\",\"version\":2},\"contentChanges\":[{\"text\":\"# \xff\xfe\\n" + strings.ReplaceAll(robustManifest, "\n", `\n`) + "\"}]}}"))
			return "# \uFFFD\uFFFD\n" + robustManifest
		}, ""},
		{"positions past the end of a line and of the file", func(s *session) string {
			for _, p := range []protocol.Position{{Line: 0, Character: 9999}, {Line: 9999, Character: 0}, {Line: 4294967295, Character: 4294967295}} {
				params := map[string]any{"textDocument": map[string]any{"uri": "file:///ws/beeuni.yaml"}, "position": p}
				for _, m := range []string{"textDocument/hover", "textDocument/completion", "textDocument/definition", "textDocument/documentHighlight", "textDocument/references"} {
					if m == "textDocument/references" {
						params["context"] = map[string]any{"includeDeclaration": true}
					}
					if e := s.callErr(m, params); e != nil {
						s.t.Errorf("%s at %v: error %+v", m, p, e)
					}
				}
			}
			s.notify("textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": "file:///ws/beeuni.yaml", "version": 2},
				"contentChanges": []any{map[string]any{"range": protocol.Range{Start: protocol.Position{Line: 99, Character: 99}, End: protocol.Position{Line: 999, Character: 0}}, "text": "# appended\n"}},
			})
			return robustManifest + "# appended\n"
		}, ""},
		{"a request with params of the wrong type", func(s *session) string {
			if e := s.callErr("textDocument/hover", []int{1, 2}); e == nil || e.Code != codeInvalidParams {
				s.t.Errorf("hover with a list as params: %+v, want InvalidParams", e)
			}
			if e := s.callErr("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "http://example.com/x"}, "position": map[string]any{}}); e == nil {
				s.t.Errorf("hover on a non-file URI: no error")
			}
			return robustManifest
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+robustManifest))
			s := editorSession(t, fsys, UTF16, "/ws")
			s.open("/ws/beeuni.yaml", robustManifest)
			s.idle() // a good parse is known before the abuse
			final := tt.do(s)
			code := tt.code
			if code == "" {
				code = "T1"
			}
			checkAlive(t, s, final, code)
			// The server's buffer is the expected text.
			v := s.srv.currentView()
			if got := string(v.docs["/ws/beeuni.yaml"].content()); got != final {
				t.Errorf("buffer differs from the expected text (%d vs %d bytes)", len(got), len(final))
			}
		})
	}
}

// TestIncrementalSyncOverTheWire sends random range edits through
// didChange (several per notification) and checks the server's buffer
// against the same edits applied to a string.
func TestIncrementalSyncOverTheWire(t *testing.T) {
	pieces := []string{"", "a", "\n", "\r\n", "日本", "😀", "\t", "tools:\n  x: y\n", "🎉😀"}
	for _, enc := range []Encoding{UTF16, UTF8} {
		t.Run(string(enc), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(42, uint64(len(enc))))
			s := editorSession(t, vfs.NewMem(), enc)
			want := "# 日本語 😀\ntools:\n\tweb_search: beeuni:web_search\r\n"
			s.open("/ws/beeuni.yaml", want)
			for version := 2; version < 200; version++ {
				var changes []any
				for k := 0; k < 1+rng.IntN(3); k++ {
					starts := []int{}
					for i := range want {
						if !(i > 0 && want[i-1] == '\r' && want[i] == '\n') {
							starts = append(starts, i)
						}
					}
					starts = append(starts, len(want))
					a, b := starts[rng.IntN(len(starts))], starts[rng.IntN(len(starts))]
					if a > b {
						a, b = b, a
					}
					text := pieces[rng.IntN(len(pieces))]
					r := protocol.Range{Start: refPositionLSP(want, a, enc), End: refPositionLSP(want, b, enc)}
					changes = append(changes, map[string]any{"range": r, "text": text})
					want = want[:a] + text + want[b:]
				}
				s.notify("textDocument/didChange", map[string]any{
					"textDocument":   map[string]any{"uri": "file:///ws/beeuni.yaml", "version": version},
					"contentChanges": changes,
				})
			}
			s.idle()
			if got := string(s.srv.currentView().docs["/ws/beeuni.yaml"].content()); got != want {
				t.Errorf("buffer after 198 notifications:\n%q\nwant\n%q", got, want)
			}
		})
	}
}

// refPositionLSP is refPosition with every line break the protocol knows
// ("\n", "\r\n", a lone "\r").
func refPositionLSP(text string, offset int, enc Encoding) protocol.Position {
	line, start := 0, 0
	for i := 0; i < offset; i++ {
		switch text[i] {
		case '\n':
			line, start = line+1, i+1
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				continue
			}
			line, start = line+1, i+1
		}
	}
	col := offset - start
	if enc == UTF16 {
		col = 0
		for _, r := range text[start:offset] {
			col += len(utf16.Encode([]rune{r}))
		}
	}
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}
