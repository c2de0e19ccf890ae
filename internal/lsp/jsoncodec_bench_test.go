package lsp

import (
	stdjson "encoding/json"
	"fmt"
	"strings"
	"testing"

	segjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// The JSON codec of the server's own code, measured: encoding/json against
// github.com/segmentio/encoding/json on the messages of a keystroke (the
// didChange the server decodes, the publishDiagnostics it encodes, and the
// JSON-RPC message around it, which stream.Write marshals). The outcome is
// in docs/server.md ("JSON codec").

// keystrokeDidChange is a didChange as a client sends it on a keystroke in
// a large manifest: one incremental change.
var keystrokeDidChange = []byte(`{"textDocument":{"uri":"file:///ws/beeuni.yaml","version":42},"contentChanges":[{"range":{"start":{"line":5012,"character":13},"end":{"line":5012,"character":13}},"rangeLength":0,"text":"x"}]}`)

// keystrokeDiagnostics are 200 diagnostics of a manifest, as the server
// publishes them after a keystroke.
func keystrokeDiagnostics() *protocol.PublishDiagnosticsParams {
	params := &protocol.PublishDiagnosticsParams{URI: "file:///ws/beeuni.yaml", Version: 42, Diagnostics: []protocol.Diagnostic{}}
	for i := range 200 {
		params.Diagnostics = append(params.Diagnostics, protocol.Diagnostic{
			Range:    protocol.Range{Start: protocol.Position{Line: uint32(i), Character: 2}, End: protocol.Position{Line: uint32(i), Character: 30}},
			Severity: protocol.DiagnosticSeverityError, Code: "T11", Source: "beeuni",
			Message: fmt.Sprintf("tools/tool_%05d.ts will not load: Cannot find package 'zod' (tools/tool_%05d.ts:1:19).", i, i),
			Data:    map[string]string{"name": fmt.Sprintf("tool_%05d", i)},
		})
	}
	return params
}

type jsonCodec struct {
	name      string
	marshal   func(any) ([]byte, error)
	unmarshal func([]byte, any) error
}

var jsonCodecs = []jsonCodec{
	{"encoding-json", stdjson.Marshal, stdjson.Unmarshal},
	{"segmentio", segjson.Marshal, segjson.Unmarshal},
}

// TestJSONCodecsAgree holds the benchmark to messages both codecs read and
// write alike, so that the figures compare equal work.
func TestJSONCodecsAgree(t *testing.T) {
	var out [2]string
	for i, c := range jsonCodecs {
		var p didChangeTextDocumentParams
		if err := c.unmarshal(keystrokeDidChange, &p); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		data, err := c.marshal(keystrokeDiagnostics())
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		n, err := jsonrpc2.NewNotification(protocol.MethodTextDocumentPublishDiagnostics, stdjson.RawMessage(data))
		if err != nil {
			t.Fatal(err)
		}
		body, err := c.marshal(n)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		decoded, err := stdjson.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = string(decoded) + " " + string(body)
	}
	if out[0] != out[1] {
		t.Errorf("the codecs differ:\n%s\n%s", out[0], out[1])
	}
	if !strings.Contains(out[0], "Cannot find package") {
		t.Errorf("no diagnostics in %s", out[0])
	}
}

// BenchmarkKeystrokeJSON decodes a keystroke's didChange and encodes its
// publishDiagnostics (the params, then the JSON-RPC message) with each
// codec.
func BenchmarkKeystrokeJSON(b *testing.B) {
	params := keystrokeDiagnostics()
	for _, c := range jsonCodecs {
		b.Run("didChange-decode/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var p didChangeTextDocumentParams
				if err := c.unmarshal(keystrokeDidChange, &p); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("publishDiagnostics-encode/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.marshal(params); err != nil {
					b.Fatal(err)
				}
			}
		})
		data, _ := stdjson.Marshal(params)
		n, _ := jsonrpc2.NewNotification(protocol.MethodTextDocumentPublishDiagnostics, stdjson.RawMessage(data))
		b.Run("message-encode/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.marshal(n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
