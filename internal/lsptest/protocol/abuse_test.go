package protocol

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// expectError waits for the answer to id and checks its error code.
func (s *session) expectError(id json.RawMessage, code int) {
	s.t.Helper()
	m := s.await(id)
	if m.Error == nil || m.Error.Code != code {
		s.t.Fatalf("answer to %s: result %s, error %+v; want error code %d", id, m.Result, m.Error, code)
	}
	if m.Error.Message == "" {
		s.t.Fatalf("answer to %s: error %d without a message", id, code)
	}
}

// expectNullIDError waits for an error answer with id null (the answer to
// a message whose id could not be read) and checks its code.
func (s *session) expectNullIDError(code int) {
	s.t.Helper()
	s.expectError(json.RawMessage("null"), code)
}

func rawRequest(id, method string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":{}}`, id, method)
}

// TestProtocolAbuse sends, one after another on one server, what broken
// or odd clients send, checks each answer, and after each proves that the
// server still publishes correct diagnostics and answers a request.
func TestProtocolAbuse(t *testing.T) {
	s := newSession(t)
	cases := []struct {
		name string
		run  func(s *session)
	}{
		{"malformed JSON", func(s *session) {
			s.writeRaw(frame([]byte(`{"jsonrpc":"2.0","id":7,"method":"textDocument/hover",`)))
			s.expectNullIDError(codeParseError)
		}},
		{"not JSON at all", func(s *session) {
			s.writeRaw(frame([]byte("hello, server")))
			s.expectNullIDError(codeParseError)
		}},
		{"JSON that is not an object", func(s *session) {
			s.writeRaw(frame([]byte(`42`)))
			s.expectNullIDError(codeInvalidRequest)
			s.writeRaw(frame([]byte(`"initialize"`)))
			s.expectNullIDError(codeInvalidRequest)
		}},
		{"a batch", func(s *session) {
			// The batch holds a shutdown: it must not run (checkAlive).
			s.writeRaw(frame([]byte(`[` + rawRequest("8", "shutdown") + `,` + rawRequest("9", "textDocument/documentSymbol") + `]`)))
			s.expectNullIDError(codeInvalidRequest)
		}},
		{"an empty batch", func(s *session) {
			s.writeRaw(frame([]byte(`[]`)))
			s.expectNullIDError(codeInvalidRequest)
		}},
		{"missing Content-Length", func(s *session) {
			s.writeRaw([]byte("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + rawRequest("10", "shutdown")))
			s.expectNullIDError(codeParseError)
		}},
		{"Content-Length not a number", func(s *session) {
			s.writeRaw([]byte("Content-Length: twelve\r\n\r\n" + rawRequest("11", "shutdown")))
			s.expectNullIDError(codeParseError)
		}},
		{"negative Content-Length", func(s *session) {
			s.writeRaw([]byte("Content-Length: -5\r\n\r\n" + rawRequest("12", "shutdown")))
			s.expectNullIDError(codeParseError)
		}},
		{"Content-Length too small", func(s *session) {
			body := rawRequest("13", "shutdown")
			s.writeRaw([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body)-10, body)))
			s.expectNullIDError(codeParseError)
		}},
		{"Content-Length too large, then a request", func(s *session) {
			body := rawRequest("14", "textDocument/unknownThing")
			next := rawRequest("15", "textDocument/unknownThing2")
			s.writeRaw([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body)+500, body)))
			s.writeRaw(frame([]byte(next)))
			// The server cannot know where the first message ends; it
			// must not lose the next one.
			s.expectError(json.RawMessage("15"), codeMethodNotFound)
			s.await(json.RawMessage("14"))
		}},
		{"Content-Length of a terabyte", func(s *session) {
			s.writeRaw([]byte("Content-Length: 1000000000000\r\n\r\n" + rawRequest("16", "shutdown")))
			s.expectNullIDError(codeParseError)
		}},
		{"a header line starting with a byte that is not UTF-8", func(s *session) {
			// This crashed the server: lowering the line with bytes.ToLower
			// changed its length, and the header was sliced out of range.
			s.writeRaw([]byte("\x9eContent-Length:\r\n\r\n"))
			s.expectNullIDError(codeParseError)
		}},
		{"garbage between messages", func(s *session) {
			s.writeRaw([]byte("\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n\x00\xff\xfe\r\n"))
			id := s.start("textDocument/unknownAfterGarbage", map[string]any{})
			s.expectError(id, codeMethodNotFound)
			s.Take(json.RawMessage("null")) // the garbage may be answered as a bad header block
		}},
		{"unknown method", func(s *session) {
			s.expectError(s.start("beeuni/doesNotExist", map[string]any{"x": 1}), codeMethodNotFound)
		}},
		{"unknown notifications are ignored", func(s *session) {
			s.notify("beeuni/doesNotExist", map[string]any{"x": 1})
			s.notify("$/somethingNew", nil)
			s.notify("textDocument/didSomethingNew", []int{1, 2})
		}},
		{"wrong jsonrpc version", func(s *session) {
			s.writeRaw(frame([]byte(`{"jsonrpc":"1.0","id":17,"method":"textDocument/documentSymbol","params":{}}`)))
			s.expectError(json.RawMessage("17"), codeInvalidRequest)
		}},
		{"an id that is an object", func(s *session) {
			s.writeRaw(frame([]byte(`{"jsonrpc":"2.0","id":{"a":1},"method":"shutdown"}`)))
			s.expectNullIDError(codeInvalidRequest)
		}},
		{"a method that is not a string", func(s *session) {
			s.writeRaw(frame([]byte(`{"jsonrpc":"2.0","id":18,"method":42}`)))
			s.expectError(json.RawMessage("18"), codeInvalidRequest)
		}},
		{"a string id, long", func(s *session) {
			id := `"` + strings.Repeat("i", 10_000) + `"`
			s.writeRaw(frame([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"beeuni/nothing"}`)))
			s.expectError(json.RawMessage(id), codeMethodNotFound)
		}},
		{"params of the wrong type", func(s *session) {
			s.expectError(s.start("textDocument/documentSymbol", "a string"), codeInvalidParams)
			s.expectError(s.start("textDocument/hover", []int{1, 2, 3}), codeInvalidParams)
			s.expectError(s.start("textDocument/hover", map[string]any{"textDocument": 5, "position": "x"}), codeInvalidParams)
		}},
		{"positions past the end of a line and of the file", func(s *session) {
			uri := fileURI(s.manifest)
			for _, pos := range []map[string]any{
				{"line": 0, "character": 100_000}, {"line": 100_000, "character": 0},
				{"line": 1, "character": 4_294_967_295}, {"line": 2_147_483_647, "character": 2_147_483_647},
			} {
				for _, method := range []string{"textDocument/hover", "textDocument/completion", "textDocument/definition", "textDocument/references", "textDocument/documentHighlight", "textDocument/prepareRename"} {
					params := map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos, "context": map[string]any{"includeDeclaration": true}}
					m := s.call(method, params)
					if m.Error != nil && m.Error.Code != codeInvalidParams && m.Error.Code != codeRequestFailed {
						s.t.Fatalf("%s at %v: error %+v; want an answer, InvalidParams or a refusal", method, pos, m.Error)
					}
				}
			}
			m := s.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": -1, "character": -1}})
			if m.Error != nil && m.Error.Code != codeInvalidParams {
				s.t.Fatalf("hover at -1:-1: error %+v", m.Error)
			}
		}},
		{"requests on a document never opened, or not a file", func(s *session) {
			for _, uri := range []string{fileURI(s.root + "/nowhere/beeuni.yaml"), "untitled:Untitled-1", "http://example.invalid/beeuni.yaml", "not a uri", ""} {
				m := s.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 0, "character": 0}})
				if m.Error != nil && m.Error.Code != codeInvalidParams {
					s.t.Fatalf("hover on %q: error %+v", uri, m.Error)
				}
			}
		}},
		{"didChange for a document never opened", func(s *session) {
			other := fileURI(s.root + "/never/beeuni.yaml")
			s.notify("textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": other, "version": 3},
				"contentChanges": []map[string]any{{"range": map[string]any{"start": map[string]any{"line": 5, "character": 0}, "end": map[string]any{"line": 9, "character": 0}}, "text": "x"}},
			})
			s.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": other, "version": 4}, "contentChanges": []map[string]any{{"text": "tools: {}\n"}}})
			s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": other}})
			s.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": other}})
		}},
		{"didOpen and didChange with missing fields", func(s *session) {
			s.notify("textDocument/didOpen", map[string]any{})
			s.notify("textDocument/didOpen", nil)
			s.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": fileURI(s.manifest)}})
			s.notify("textDocument/didChange", map[string]any{"contentChanges": "x"})
		}},
		{"an edit range past the end", func(s *session) {
			s.version++
			s.sent = append(s.sent, s.version)
			s.notify("textDocument/didChange", map[string]any{
				"textDocument": map[string]any{"uri": fileURI(s.manifest), "version": s.version},
				"contentChanges": []map[string]any{{"range": map[string]any{
					"start": map[string]any{"line": 1000, "character": 5}, "end": map[string]any{"line": 0, "character": 0}}, "text": "# appended\n"}},
			})
		}},
		{"versions going backwards", func(s *session) {
			uri := fileURI(s.manifest)
			change := func(v int, text string) {
				s.sent = append(s.sent, v)
				s.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": v}, "contentChanges": []map[string]any{{"text": text}}})
			}
			s.version += 10
			high := s.version
			change(high, sentinelManifest+"  OldHigh: tools/present.ts\n")
			change(high-5, sentinelManifest+"  Stale: tools/present.ts\n")
			change(high-7, sentinelManifest+"  Staler: tools/present.ts\n")
			// checkAlive then sends high+1 and must see exactly its text;
			// the server may publish for high, high-5 and high-7 in the
			// order the client sent them, never back to an earlier one.
		}},
		{"a 10 MB document", func(s *session) {
			var b strings.Builder
			b.WriteString("tools:\n  web_search: beeuni:web_search\n")
			line := "# " + strings.Repeat("filler ", 14) + "\n" // 100 bytes
			lines := (10 << 20) / len(line)
			for range lines {
				b.WriteString(line)
			}
			b.WriteString("  Huge: tools/present.ts\n")
			big := s.root + "/big/beeuni.yaml"
			from := s.notificationCount()
			s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": fileURI(big), "languageId": "yaml", "version": 1, "text": b.String()}})
			s.waitDiagnostics(from, big, 1, func(ds []diagnostic) bool {
				for _, d := range ds {
					if strings.Contains(d.Message, "Huge") && d.Range.Start.Line == 2+lines && d.Range.Start.Character == 2 {
						return true
					}
				}
				return false
			})
			s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(big)}})
		}},
		{"a 1 MB line", func(s *session) {
			// A 1 MB key is a YAML syntax error (an implicit key holds at
			// most 1024 characters): it is reported on its line. A 1 MB
			// value is a module path that does not exist: T6, exactly on it.
			huge := strings.Repeat("x", 1<<20)
			long := s.root + "/long/beeuni.yaml"
			text := "tools:\n  web_search: beeuni:web_search\n  " + huge + ": tools/present.ts # 日本😀\n  ok_name: tools/" + huge + ".ts # 日本😀\n"
			from := s.notificationCount()
			s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": fileURI(long), "languageId": "yaml", "version": 1, "text": text}})
			line2 := 2 + len(huge) + len(": tools/present.ts # ") + 2 + 2 // 日本 and 😀 take 2 UTF-16 units each
			s.waitDiagnostics(from, long, 1, func(ds []diagnostic) bool {
				return len(ds) == 1 && ds[0].Range.Start.Line == 2 && ds[0].Range.Start.Character <= line2 && ds[0].Range.End.Line == 2 && ds[0].Range.End.Character <= line2
			})
			from = s.notificationCount()
			s.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": fileURI(long), "version": 2},
				"contentChanges": []map[string]any{{"range": map[string]any{"start": map[string]any{"line": 2, "character": 0}, "end": map[string]any{"line": 3, "character": 0}}, "text": ""}}})
			s.waitDiagnostics(from, long, 2, func(ds []diagnostic) bool {
				for _, d := range ds {
					start := 2 + len("ok_name: ")
					if strings.Contains(d.Message, "does not exist") && d.Range.Start.Line == 2 && d.Range.Start.Character == start &&
						d.Range.End.Line == 2 && d.Range.End.Character == start+len("tools/"+huge+".ts") {
						return true
					}
				}
				return false
			})
			s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(long)}})
		}},
		{"NUL bytes", func(s *session) {
			nul := s.root + "/nul/beeuni.yaml"
			from := s.notificationCount()
			s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": fileURI(nul), "languageId": "yaml", "version": 1,
				"text": "tools:\n  web\x00search: beeuni:web_search\x00\n\x00"}})
			s.waitDiagnostics(from, nul, 1, func(ds []diagnostic) bool { return len(ds) > 0 })
			s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(nul)}})
		}},
		{"invalid UTF-8 in the JSON text", func(s *session) {
			// JSON text is UTF-8 (RFC 8259): raw invalid bytes make the
			// message unreadable, answered as a parse error.
			body := `{"jsonrpc":"2.0","id":19,"method":"textDocument/hover","params":{"textDocument":{"uri":"` + fileURI(s.manifest) +
				`"},"position":{"line":0,"character":0},"x":"\xff\xfe"}}`
			s.writeRaw(frame([]byte(body)))
			s.expectNullIDError(codeParseError)
		}},
		{"lone surrogates in a document", func(s *session) {
			// Valid JSON escapes that are not valid UTF-16: decoded as U+FFFD.
			doc := s.root + "/surrogates/beeuni.yaml"
			body := `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"` + fileURI(doc) +
				`","languageId":"yaml","version":1,"text":"tools:\n  Bad\ud800Name: tools/present.ts\n  \udc00x: y\n"}}}`
			from := s.notificationCount()
			s.writeRaw(frame([]byte(body)))
			s.waitDiagnostics(from, doc, 1, func(ds []diagnostic) bool {
				for _, d := range ds {
					if d.Range.Start.Line == 1 && d.Range.Start.Character == 2 {
						return true
					}
				}
				return false
			})
			s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(doc)}})
		}},
		{"invalid UTF-8 in a file on disk", func(s *session) {
			dir := s.root + "/utf8"
			writeFile(s.t, dir+"/bad.yaml", "tools:\n  Bad\xff\xfeName: tools/present.ts\n  \xc3: x\n")
			from := s.notificationCount()
			s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": fileURI(dir + "/beeuni.yaml"), "languageId": "yaml", "version": 1,
				"text": "imports: [bad.yaml]\ntools: {web_search: beeuni:web_search}\n"}})
			// The server's messages stay valid UTF-8 (the client checks
			// every one), with the syntax error on the first invalid byte
			// of the imported file.
			s.waitDiagnostics(from, dir+"/bad.yaml", -1, func(ds []diagnostic) bool {
				for _, d := range ds {
					if d.Range.Start.Line == 1 && d.Range.Start.Character == len("  Bad") && strings.Contains(d.Message, "UTF-8") {
						return true
					}
				}
				return false
			})
			s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(dir + "/beeuni.yaml")}})
		}},
		{"$/cancelRequest", func(s *session) {
			uri := fileURI(s.manifest)
			var ids []json.RawMessage
			for range 50 {
				id := s.NewID()
				ids = append(ids, id)
				req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "textDocument/documentSymbol", "params": map[string]any{"textDocument": map[string]any{"uri": uri}}})
				cancel, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": map[string]any{"id": id}})
				s.writeRaw(append(frame(req), frame(cancel)...))
			}
			s.notify("$/cancelRequest", map[string]any{"id": 999_999}) // nothing in flight
			s.notify("$/cancelRequest", map[string]any{"id": "no-such"})
			s.notify("$/cancelRequest", nil)
			cancelled := 0
			for _, id := range ids {
				m := s.await(id)
				switch {
				case m.Error == nil:
				case m.Error.Code == codeRequestCancelled:
					cancelled++
				default:
					s.t.Fatalf("cancelled request %s: error %+v; want its result or RequestCancelled", id, m.Error)
				}
			}
			s.t.Logf("%d of %d requests answered RequestCancelled, the others completed first", cancelled, len(ids))
		}},
	}
	for _, tc := range cases {
		ok := t.Run(tc.name, func(t *testing.T) {
			s.t = t
			tc.run(s)
			s.checkAlive()
		})
		if !ok {
			break // the server's state is unknown: later cases would only repeat the failure
		}
	}
	s.t = t
}
