package lsp

import (
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// Every published diagnostic links to its code's section of docs/rules.md
// (codeDescription.href, the anchor the code in lower case).
func TestDiagnosticsLinkToTheirRule(t *testing.T) {
	fsys := vfs.MemFromTxtar("/", []byte(`
-- ws/beeuni.yaml --
tools:
  Bad: tools/missing.ts
  web_search: beeuni:nope
agents:
  r:
    tools: [bsh]
`))
	s := editorSession(t, fsys, UTF16, "/ws")
	s.idle()
	ds := s.lastDiagnostics()["/ws/beeuni.yaml"].Diagnostics
	if len(ds) < 3 {
		t.Fatalf("want at least 3 diagnostics, got %+v", ds)
	}
	for _, d := range ds {
		code, _ := d.Code.(string)
		want := "https://github.com/beeuni/beeuni-lsp/blob/main/docs/rules.md#" + strings.ToLower(code)
		if d.CodeDescription == nil || string(d.CodeDescription.Href) != want {
			t.Errorf("%s: codeDescription %+v, want href %s", code, d.CodeDescription, want)
		}
	}
}
