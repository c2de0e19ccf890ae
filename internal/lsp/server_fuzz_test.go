package lsp

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// FuzzServerMessages drives a running server with message sequences made
// from the input: every request and notification the server handles, with
// params that are either the input's own JSON or a well-formed shape filled
// with the input's text and numbers (positions past the end, negative
// versions, odd URIs, edits of any text). No request may end in an internal
// error (a recovered panic is a bug), every request gets an answer, and
// the server still answers correctly at the end.
func FuzzServerMessages(f *testing.F) {
	f.Add([]byte("\x02tools:\n  x: y\x00\x05\x03\x04\x00\x0c{\"query\":\"\"}\x00\x10beeuni.eject"))
	f.Add([]byte("\x01\x00\x02\xff\xfe\x00\x0e\x09\x09\x00\x13\x01"))
	f.Add([]byte("\x15null\x00\x0f[1,2]\x00\x11{\"textDocument\":{\"uri\":\"file:///ws/beeuni.yaml\"},\"position\":{\"line\":-1,\"character\":99999999}}"))
	f.Add([]byte("\x0b\x00\x07\x00\x06\x00\x0d\x00\x12\x00\x14"))
	f.Fuzz(func(t *testing.T, input []byte) {
		fsys := vfs.MemFromTxtar("/ws", []byte(`-- beeuni.yaml --
imports: [lib/a.yaml]
tools:
  web_search: beeuni:web_search
  lookup: tools/lookup.ts
agents:
  a:
    tools: [bash, lookup, web_serch]
-- lib/a.yaml --
tools:
  memory: beeuni:memory
-- tools/lookup.ts --
export default { description: 'd', parameters: { type: 'object', properties: {} }, execute() { return '' } }
`))
		s := editorSession(t, fsys, UTF16, "/ws")
		const manifest = "/ws/beeuni.yaml"
		uri := string(pathToURI(manifest))
		s.open(manifest, "imports: [lib/a.yaml]\ntools:\n  web_search: beeuni:web_search\n  lookup: tools/lookup.ts\n")
		methods := []string{
			"initialized", "textDocument/didOpen", "textDocument/didChange", "textDocument/didClose", "textDocument/didSave",
			"workspace/didChangeWatchedFiles", "workspace/didChangeConfiguration", "workspace/didChangeWorkspaceFolders", "$/cancelRequest",
			"textDocument/completion", "completionItem/resolve", "textDocument/hover", "textDocument/definition", "textDocument/references",
			"textDocument/documentHighlight", "textDocument/documentSymbol", "workspace/symbol", "textDocument/foldingRange",
			"textDocument/documentLink", "textDocument/prepareRename", "textDocument/rename", "textDocument/inlayHint",
			"textDocument/codeLens", "textDocument/codeAction", "workspace/executeCommand",
		}
		const firstRequest = 9
		var ids []string
		version := 1
		for i, chunk := range bytes.Split(input, []byte{0}) {
			if len(chunk) == 0 || i > 40 {
				continue
			}
			method := methods[int(chunk[0])%len(methods)]
			rest := chunk[1:]
			var params any
			if json.Valid(rest) && len(rest) > 0 {
				params = json.RawMessage(rest)
			} else {
				params = shapedParams(method, uri, string(rest), &version)
			}
			if int(chunk[0])%len(methods) >= firstRequest {
				ids = append(ids, s.start(method, params))
			} else {
				s.notify(method, params)
			}
		}
		for _, id := range ids {
			if m := s.answer(id); m.Error != nil && m.Error.Code == int(codeInternalError) {
				t.Fatalf("request %s: internal error %q", id, m.Error.Message)
			}
		}
		s.idle()
		var symbols []json.RawMessage
		s.call("workspace/symbol", map[string]any{"query": ""}, &symbols)
	})
}

// shapedParams builds params of the right shape for method from text: it
// is the document's new text, a URI, a name or a query, and its bytes give
// positions.
func shapedParams(method, uri, text string, version *int) any {
	n := func(i int) int {
		if i < len(text) {
			return int(text[i]) * (1 + i*i*97)
		}
		return i
	}
	docURI := uri
	if strings.HasPrefix(text, "file:") || strings.HasPrefix(text, "/") {
		docURI = text
	}
	pos := map[string]any{"line": n(0) % 12, "character": n(1) % 40}
	if len(text) > 2 && text[2]%3 == 0 {
		pos = map[string]any{"line": n(3), "character": n(4)}
	}
	rng := map[string]any{"start": pos, "end": map[string]any{"line": n(5) % 14, "character": n(6) % 50}}
	*version++
	switch method {
	case "textDocument/didOpen":
		return map[string]any{"textDocument": map[string]any{"uri": docURI, "languageId": "yaml", "version": *version, "text": text}}
	case "textDocument/didChange":
		change := map[string]any{"text": text}
		if len(text)%2 == 1 {
			change["range"] = rng
		}
		return map[string]any{"textDocument": map[string]any{"uri": docURI, "version": *version - n(7)%3}, "contentChanges": []any{change}}
	case "textDocument/didClose", "textDocument/didSave", "textDocument/documentSymbol", "textDocument/foldingRange",
		"textDocument/documentLink", "textDocument/codeLens":
		return map[string]any{"textDocument": map[string]any{"uri": docURI}}
	case "workspace/didChangeWatchedFiles":
		return map[string]any{"changes": []any{map[string]any{"uri": "file:///ws/" + text, "type": n(0) % 4}}}
	case "workspace/didChangeConfiguration":
		return map[string]any{"settings": map[string]any{"beeuni": map[string]any{"inspectModules": len(text)%2 == 0}}}
	case "workspace/didChangeWorkspaceFolders":
		return map[string]any{"event": map[string]any{"added": []any{map[string]any{"uri": "file:///" + text, "name": text}}, "removed": []any{}}}
	case "$/cancelRequest":
		return map[string]any{"id": n(0) % 5}
	case "workspace/symbol":
		return map[string]any{"query": text}
	case "completionItem/resolve":
		return map[string]any{"label": text, "data": text}
	case "textDocument/rename":
		return map[string]any{"textDocument": map[string]any{"uri": docURI}, "position": pos, "newName": text}
	case "textDocument/inlayHint", "textDocument/codeAction":
		return map[string]any{"textDocument": map[string]any{"uri": docURI}, "range": rng, "context": map[string]any{"diagnostics": []any{}}}
	case "workspace/executeCommand":
		cmds := []string{"beeuni.eject", "beeuni.sessionTools", "beeuni.ejectableTools", text}
		return map[string]any{"command": cmds[n(0)%len(cmds)], "arguments": []any{map[string]any{"uri": docURI, "name": text, "force": len(text)%2 == 0}}}
	case "textDocument/references":
		return map[string]any{"textDocument": map[string]any{"uri": docURI}, "position": pos, "context": map[string]any{"includeDeclaration": true}}
	}
	return map[string]any{"textDocument": map[string]any{"uri": docURI}, "position": pos}
}
