package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// glueWorkspace is a project whose tools use modules that load, modules
// that will not (a package no node_modules provides, a syntax error, a
// module two tools share), a missing module, an import, and agents; the
// manifest has non-ASCII text only when unicode is set.
func glueWorkspace(unicode bool) (*vfs.Mem, string) {
	fsys := vfs.NewMem()
	var b strings.Builder
	if unicode {
		b.WriteString("# 日本語 😀\n")
	}
	b.WriteString("imports:\n  - more/tools.yaml\ntools:\n  web_search: beeuni:web_search\n")
	for i := range 12 {
		module := fmt.Sprintf("tools/t%d.ts", i)
		body := fmt.Sprintf("export default {\n  description: 'Tool %d.',\n  parameters: { type: 'object', properties: {} },\n  async execute() { return 1 },\n}\n", i)
		switch i % 4 {
		case 1:
			body = "import { z } from 'zod'\nexport default { description: 'z', parameters: z.object({}), execute() {} }\n"
		case 2:
			body = "const n: number = 1\nexport default { description: 'x', parameters: { type: 'object' }, execute() { return n ) }\n"
		}
		fsys.WriteFile("/ws/"+module, []byte(body))
		fmt.Fprintf(&b, "  tool_%d: %s\n", i, module)
	}
	b.WriteString("  twin: tools/t1.ts\n  ghost: tools/ghost.ts\nagents:\n  helper:\n    tools: [tool_0, tool_1, tool_2, web_search]\n  typo:\n    tools: [tool_00]\n# notes: \n")
	fsys.WriteFile("/ws/more/tools.yaml", []byte("tools:\n  more_a: tools/t5.ts\n  more_b: tools/t6.ts\n"))
	fsys.WriteFile("/ws/beeuni.yaml", []byte(b.String()))
	return fsys, b.String()
}

// publishedLast returns the params of the last publishDiagnostics of each
// URI, as sent.
func publishedLast(s *session) map[string]string {
	out := map[string]string{}
	for _, n := range s.notesSnapshot() {
		if n.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p struct {
			URI string `json:"uri"`
		}
		if err := json.Unmarshal(n.Params, &p); err != nil {
			s.t.Fatalf("bad publishDiagnostics: %v", err)
		}
		out[p.URI] = string(n.Params)
	}
	return out
}

// emptyDiagnostics reports whether params publish no diagnostic.
func emptyDiagnostics(t *testing.T, params string) bool {
	var p protocol.PublishDiagnosticsParams
	if err := json.Unmarshal([]byte(params), &p); err != nil {
		t.Fatalf("bad publishDiagnostics: %v", err)
	}
	return len(p.Diagnostics) == 0
}

// TestEditedPublishesMatchFreshServer types random edits into the
// manifest of a server that reuses what it can between keystrokes (the
// module results and their findings, the mappers of edited documents, the
// last finding sets), and after each burst checks that the last
// diagnostics it published for every file are, byte for byte, what a new
// server publishes on opening the same text at the same version (nothing
// reused). The edits rename and break tool keys, point tools at other,
// missing or failing modules, declare modules twice, remove entries and
// break the YAML, one or several per burst.
func TestEditedPublishesMatchFreshServer(t *testing.T) {
	for _, tc := range []struct {
		name    string
		enc     Encoding
		unicode bool
	}{{"ascii-utf16", UTF16, false}, {"unicode-utf16", UTF16, true}, {"unicode-utf8", UTF8, true}} {
		t.Run(tc.name, func(t *testing.T) {
			fsys, text := glueWorkspace(tc.unicode)
			const path = "/ws/beeuni.yaml"
			uri := string(pathToURI(path))
			s := editorSession(t, fsys, tc.enc, "/ws")
			s.open(path, text)
			s.idle()
			rng := rand.New(rand.NewPCG(uint64(len(tc.name)), 11))
			version := 1
			var older *moduleJob // a load of an earlier step
			steps := 60
			if testing.Short() {
				steps = 8
			}
			for step := range steps {
				if step%5 == 2 {
					// A module opened, broken and closed: its passes run
					// while the manifest edits below queue module jobs.
					module := "/ws/tools/t3.ts"
					disk, _ := fsys.ReadFile(module)
					murl := string(pathToURI(module))
					s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
						"uri": murl, "languageId": "typescript", "version": 1, "text": string(disk)}})
					s.notify("textDocument/didChange", map[string]any{
						"textDocument":   map[string]any{"uri": murl, "version": 2},
						"contentChanges": []any{map[string]any{"text": "import { z } from 'zod'\n" + string(disk)}},
					})
					if rng.IntN(2) == 0 {
						s.idle()
					}
					s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": murl}})
				}
				burst := 1 + rng.IntN(3)
				if strings.Contains(text, "X: tools/") {
					burst = 1 // its own keystroke: the X goes again (case 4)
				}
				for range burst {
					a, b, insert := glueEdit(rng, text)
					if i := strings.Index(text, "X: tools/"); i >= 0 {
						a, b, insert = i, i+1, ""
					}
					for try := 0; try < 20 && !parsesAsYAML(text[:a]+insert+text[b:]) && rng.IntN(8) > 0; try++ {
						// Mostly keep the manifest valid, so that
						// the edits reach the module reuse.
						a, b, insert = glueEdit(rng, text)
					}
					version++
					s.notify("textDocument/didChange", map[string]any{
						"textDocument": map[string]any{"uri": uri, "version": version},
						"contentChanges": []any{map[string]any{"range": map[string]any{
							"start": protocolPos(text, a, tc.enc), "end": protocolPos(text, b, tc.enc)}, "text": insert}},
					})
					text = text[:a] + insert + text[b:]
				}
				s.idle()
				if step%3 == 1 {
					// A module job for this load, or for an older one,
					// as queued while a pass ran: the worker serves it
					// from the last pass's results, or skips it.
					w := s.srv.ws
					v := s.srv.currentView()
					snap, err := w.snapshotAt(v, w.project("/ws"))
					if err != nil {
						t.Fatal(err)
					}
					job := moduleJob{v: v, snap: snap}
					if older != nil && rng.IntN(2) == 0 {
						job = *older
					}
					older = &moduleJob{v: v, snap: snap}
					w.queueModules(w.project("/ws"), job)
					s.idle()
				}
				got := publishedLast(s)
				fresh := editorSession(t, fsys, tc.enc, "/ws")
				fresh.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
					"uri": uri, "languageId": "yaml", "version": version, "text": text,
				}})
				fresh.idle()
				want := publishedLast(fresh)
				for u, w := range want {
					if got[u] != w {
						t.Fatalf("step %d, version %d, %s:\nreused: %s\nfresh:  %s\ntext:\n%s", step, version, u, got[u], w, text)
					}
				}
				for u, g := range got {
					if _, ok := want[u]; !ok && !emptyDiagnostics(t, g) {
						t.Fatalf("step %d, version %d: %s still has diagnostics a fresh server does not publish: %s", step, version, u, g)
					}
				}
				fresh.conn.Close()
			}
		})
	}
}

// parsesAsYAML reports whether text is valid YAML.
func parsesAsYAML(text string) bool {
	var v any
	return yaml.Unmarshal([]byte(text), &v) == nil
}

// modulePathRE finds the module paths of the manifest.
var modulePathRE = regexp.MustCompile(`tools/[a-z0-9]+\.ts`)

// toolLineRE finds the lines declaring a project tool.
var toolLineRE = regexp.MustCompile(`(?m)^  [a-z_0-9]+: tools/.*\n`)

// glueEdit picks an edit of text: text[a:b] is replaced by insert. Most
// change what the project declares (a module path pointed elsewhere, a
// tool line removed or repeated, a key broken); the rest are small edits
// anywhere, or typing at the end.
func glueEdit(rng *rand.Rand, text string) (a, b int, insert string) {
	pieces := []string{"x", "X", "\n", "  ", ": ", "tools/t3.ts", "tool_9", "é", "😀", "[", "#", "\r\n"}
	switch rng.IntN(8) {
	case 0, 1: // point a tool at another module
		if ms := modulePathRE.FindAllStringIndex(text, -1); len(ms) > 0 {
			m := ms[rng.IntN(len(ms))]
			return m[0], m[1], fmt.Sprintf("tools/%s.ts", []string{"t0", "t1", "t2", "t3", "t4", "t5", "t7", "t9", "t10", "ghost"}[rng.IntN(10)])
		}
	case 2: // remove a tool's line, or add one (again, or as first written)
		if ls := toolLineRE.FindAllStringIndex(text, -1); len(ls) > 0 {
			l := ls[rng.IntN(len(ls))]
			switch rng.IntN(3) {
			case 0:
				return l[0], l[1], ""
			case 1:
				return l[0], l[0], strings.Replace(text[l[0]:l[1]], ":", "_again:", 1)
			default:
				return l[0], l[0], fmt.Sprintf("  tool_%d: tools/t%d.ts\n", rng.IntN(12), rng.IntN(12))
			}
		}
	case 4: // a capital letter typed at the end of a tool's key (T1), or removed
		if i := strings.Index(text, "X: tools/"); i >= 0 {
			return i, i + 1, ""
		}
		if ls := toolLineRE.FindAllStringIndex(text, -1); len(ls) > 0 {
			l := ls[rng.IntN(len(ls))]
			colon := l[0] + strings.IndexByte(text[l[0]:l[1]], ':')
			return colon, colon, "X"
		}
	case 3: // type at the end, as in a comment
		if end := len(text) - 1; end >= 0 && utf8.RuneStart(text[end]) && !strings.HasSuffix(text, "\r\n") {
			return end, end, pieces[rng.IntN(len(pieces))]
		}
	}
	a, b = editablePoint(rng, text), editablePoint(rng, text)
	if a > b {
		a, b = b, a
	}
	if b-a > 20 {
		b = a
	}
	if rng.IntN(4) > 0 {
		insert = pieces[rng.IntN(len(pieces))]
	}
	return a, b, insert
}

// TestSameFindingsIsDeepEqual holds sameFindings to reflect.DeepEqual on
// random finding lists that differ in one field, or in a nil slice or map
// against an empty one; a field added to diag.Finding fails it until
// sameFindings compares the field.
func TestSameFindingsIsDeepEqual(t *testing.T) {
	if n := reflect.TypeFor[diag.Finding]().NumField(); n != 7 {
		t.Fatalf("diag.Finding has %d fields: compare the new ones in sameFindings, then update this count", n)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	random := func() diag.Finding {
		f := diag.Finding{File: "/a", Range: diag.Range{End: diag.Pos{Offset: rng.IntN(2)}}, Severity: diag.Error, Code: "T1", Message: "m"}
		switch rng.IntN(4) {
		case 1:
			f.Data = map[string]string{}
		case 2:
			f.Data = map[string]string{"name": []string{"a", "b"}[rng.IntN(2)]}
		}
		switch rng.IntN(3) {
		case 1:
			f.Related = []diag.Related{}
		case 2:
			f.Related = []diag.Related{{File: "/b", Message: []string{"x", "y"}[rng.IntN(2)]}}
		}
		return f
	}
	mutate := func(f *diag.Finding) {
		switch rng.IntN(5) {
		case 0:
			f.File += "x"
		case 1:
			f.Severity = diag.Warning
		case 2:
			f.Code = "T2"
		case 3:
			f.Message += "x"
		case 4:
			f.Range.Start.Line++
		}
	}
	for i := range 20000 {
		var a, b []diag.Finding
		if rng.IntN(5) > 0 {
			a = []diag.Finding{}
		}
		for range rng.IntN(3) {
			a = append(a, random())
		}
		switch rng.IntN(4) {
		case 0:
			b = slices.Clone(a)
		case 1:
			b = slices.Clone(a)
			if len(b) > 0 {
				mutate(&b[rng.IntN(len(b))])
			}
		default:
			if rng.IntN(5) > 0 {
				b = []diag.Finding{}
			}
			for range rng.IntN(3) {
				b = append(b, random())
			}
		}
		if got, want := sameFindings(a, b), reflect.DeepEqual(a, b); got != want {
			t.Fatalf("case %d: sameFindings = %v, DeepEqual = %v\na = %#v\nb = %#v", i, got, want, a, b)
		}
	}
}

// TestNotificationFrameMatchesJSONRPC holds notificationFrame to the frame
// jsonrpc2's Notify sends (NewNotification, then marshalMessage), on
// diagnostics whose texts hold what JSON encoders escape differently:
// HTML characters, quotes, control characters, U+2028, invalid UTF-8.
func TestNotificationFrameMatchesJSONRPC(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"a", "<", ">", "&", `"`, `\`, "\n", "\t", "\x01", "\u2028", "\u2029", "é", "😀", "\xff", "/", " "}
	text := func() string {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	for i := range 2000 {
		params := protocol.PublishDiagnosticsParams{URI: protocol.DocumentURI("file:///ws/" + text()), Version: uint32(rng.IntN(3)), Diagnostics: []protocol.Diagnostic{}}
		for range rng.IntN(4) {
			d := protocol.Diagnostic{Severity: protocol.DiagnosticSeverity(1 + rng.IntN(4)), Code: text(), Source: "beeuni", Message: text()}
			if rng.IntN(2) == 0 {
				d.Data = map[string]string{text(): text()}
			}
			params.Diagnostics = append(params.Diagnostics, d)
		}
		data, err := json.Marshal(params)
		if err != nil {
			t.Fatal(err)
		}
		method := protocol.MethodTextDocumentPublishDiagnostics
		if i%7 == 0 {
			method = "x/" + text()
		}
		n, err := jsonrpc2.NewNotification(method, json.RawMessage(data))
		if err != nil {
			t.Fatal(err)
		}
		body, err := marshalMessage(n)
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
		if got := string(notificationFrame(method, data)); got != want {
			t.Fatalf("case %d:\ngot  %q\nwant %q", i, got, want)
		}
	}
}

// BenchmarkPublishFrame measures sending 200 diagnostics (about 60 KB of
// JSON): through jsonrpc2 as notify does, or framed directly (the
// publisher's send).
func BenchmarkPublishFrame(b *testing.B) {
	params := protocol.PublishDiagnosticsParams{URI: "file:///ws/beeuni.yaml", Version: 7, Diagnostics: []protocol.Diagnostic{}}
	for i := range 200 {
		params.Diagnostics = append(params.Diagnostics, protocol.Diagnostic{
			Range:    protocol.Range{Start: protocol.Position{Line: uint32(i), Character: 2}, End: protocol.Position{Line: uint32(i), Character: 30}},
			Severity: 1, Code: "T11", Source: "beeuni",
			Message: fmt.Sprintf("tools/tool_%05d.ts will not load: Cannot find package 'zod' (tools/tool_%05d.ts:1:19). The daemon skips it, so sessions get no tool_%05d tool.", i, i, i),
			Data:    map[string]string{"name": fmt.Sprintf("tool_%05d", i), "module": fmt.Sprintf("tools/tool_%05d.ts", i)},
		})
	}
	data, err := json.Marshal(params)
	if err != nil {
		b.Fatal(err)
	}
	method := protocol.MethodTextDocumentPublishDiagnostics
	b.Run("jsonrpc2", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			n, _ := jsonrpc2.NewNotification(method, json.RawMessage(data))
			body, _ := marshalMessage(n)
			header := "Content-Length: " + fmt.Sprint(len(body)) + "\r\n\r\n"
			_ = append(append(make([]byte, 0, len(header)+len(body)), header...), body...)
		}
	})
	b.Run("notificationFrame", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			notificationFrame(method, data)
		}
	})
}

// TestWritePublishReturnsTheParamsSent: what writePublish returns (the
// publisher's last params of a file, compared with the next) is the
// params, held by the frame sent, not by the caller's buffer.
func TestWritePublishReturnsTheParamsSent(t *testing.T) {
	out := &lockedBuffer{}
	st := newStream(rwc{Reader: bytes.NewReader(nil), w: out})
	defer st.closeFlushed(context.Background())
	params := []byte(`{"uri":"file:///ws/beeuni.yaml","diagnostics":[]}`)
	sent, err := st.writePublish("file:///ws/beeuni.yaml", params)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sent, params) {
		t.Fatalf("returned %q, want the params %q", sent, params)
	}
	params[0] = 'X' // the caller writes its buffer again
	if sent[0] != '{' {
		t.Fatal("the returned params share the caller's buffer")
	}
}
