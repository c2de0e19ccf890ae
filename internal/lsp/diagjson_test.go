package lsp

import (
	"bytes"
	"encoding/json"
	"testing"

	"go.lsp.dev/protocol"
)

func publishCase(uri string, version uint32, text string, n uint8) protocol.PublishDiagnosticsParams {
	p := protocol.PublishDiagnosticsParams{URI: protocol.DocumentURI(uri), Version: version, Diagnostics: []protocol.Diagnostic{}}
	for i := range int(n % 5) {
		d := protocol.Diagnostic{
			Range:    protocol.Range{Start: protocol.Position{Line: uint32(i), Character: version}, End: protocol.Position{Line: uint32(i) + version, Character: 7}},
			Severity: protocol.DiagnosticSeverity(i % 5),
			Message:  text,
		}
		if i%2 == 0 {
			d.Code, d.Source = text, "beeuni"
			d.CodeDescription = &protocol.CodeDescription{Href: protocol.URI("https://example.com/" + text)}
			d.Data = map[string]string{"name": text, "a": "1", text: "key"}
		}
		if i%3 == 1 {
			d.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary, protocol.DiagnosticTagDeprecated}
			d.RelatedInformation = []protocol.DiagnosticRelatedInformation{{
				Location: protocol.Location{URI: protocol.DocumentURI(uri + text), Range: d.Range},
				Message:  text + text,
			}}
			d.Data = map[string]string(nil)
			d.Code = ""
		}
		p.Diagnostics = append(p.Diagnostics, d)
	}
	if n == 255 {
		p.Diagnostics = nil
	}
	return p
}

func checkMarshalPublish(t *testing.T, p protocol.PublishDiagnosticsParams) {
	t.Helper()
	want, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var scratch []byte
	got, err := marshalPublish(p, &scratch)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("marshalPublish\n got %s\nwant %s", got, want)
	}
}

func TestMarshalPublishIsJSONMarshal(t *testing.T) {
	for _, text := range []string{
		"", "plain", `quote " and \ backslash`, "<b>&amp;</b>", "tab\tnew\nline\rcr\bbs\fff\x00\x01\x1f\x7f",
		"caf\u00e9 \U0001F600 \u2028\u2029", "bad \xff\xfe utf-8 \xe2\x80", "tools/a.ts:1:2",
	} {
		for _, n := range []uint8{0, 1, 2, 4, 255} {
			checkMarshalPublish(t, publishCase("file:///ws/beeuni.yaml", 7, text, n))
			checkMarshalPublish(t, publishCase("file:///ws/a%20b.yaml", 0, text, n))
		}
	}
	// Values the server does not build go to json.Marshal, unchanged.
	odd := publishCase("file:///x", 1, "x", 1)
	odd.Diagnostics[0].Code = int32(12)
	odd.Diagnostics = append(odd.Diagnostics, protocol.Diagnostic{Severity: 1.5, Data: map[string]any{"k": []int{1}}})
	checkMarshalPublish(t, odd)
}

func FuzzMarshalPublish(f *testing.F) {
	f.Add("file:///ws/beeuni.yaml", uint32(3), "a <b> & \"c\"\n\u2028", uint8(4))
	f.Add("", uint32(0), "\xff", uint8(255))
	f.Fuzz(func(t *testing.T, uri string, version uint32, text string, n uint8) {
		checkMarshalPublish(t, publishCase(uri, version, text, n))
	})
}

func BenchmarkMarshalPublish(b *testing.B) {
	p := protocol.PublishDiagnosticsParams{URI: "file:///ws/beeuni.yaml", Version: 12}
	for i := range 200 {
		p.Diagnostics = append(p.Diagnostics, protocol.Diagnostic{
			Range:           protocol.Range{Start: protocol.Position{Line: uint32(i), Character: 2}, End: protocol.Position{Line: uint32(i), Character: 30}},
			Severity:        protocol.DiagnosticSeverityError,
			Code:            "T11",
			CodeDescription: &protocol.CodeDescription{Href: "https://beeuni.dev/docs/rules#T11"},
			Source:          "beeuni",
			Message:         "tools/tool_00042.ts will not load: Cannot find package 'zod' (tools/tool_00042.ts:3:19). The daemon skips it, so sessions get no tool_00042 tool.",
			RelatedInformation: []protocol.DiagnosticRelatedInformation{{
				Location: protocol.Location{URI: "file:///ws/tools/tool_00042.ts", Range: protocol.Range{Start: protocol.Position{Line: 2, Character: 18}, End: protocol.Position{Line: 2, Character: 23}}},
				Message:  "Cannot find package 'zod'",
			}},
			Data: map[string]string{"name": "tool_00042", "module": "tools/tool_00042.ts"},
		})
	}
	var scratch []byte
	for _, c := range []struct {
		name string
		f    func(protocol.PublishDiagnosticsParams) ([]byte, error)
	}{{"encoding-json", func(p protocol.PublishDiagnosticsParams) ([]byte, error) { return json.Marshal(p) }}, {"marshalPublish", func(p protocol.PublishDiagnosticsParams) ([]byte, error) { return marshalPublish(p, &scratch) }}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.f(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
