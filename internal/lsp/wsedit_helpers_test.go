package lsp

import (
	"encoding/json"
	"testing"

	"go.lsp.dev/protocol"
)

// textEditsOf returns the text edits of a workspace edit by URI, from its
// changes or its documentChanges, with the version each TextDocumentEdit
// names (nil: none, or changes).
func textEditsOf(t testing.TB, we any) (edits map[protocol.DocumentURI][]protocol.TextEdit, versions map[protocol.DocumentURI]*int32) {
	t.Helper()
	data, err := json.Marshal(we)
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		Changes         map[protocol.DocumentURI][]protocol.TextEdit `json:"changes"`
		DocumentChanges []struct {
			TextDocument *struct {
				URI     protocol.DocumentURI `json:"uri"`
				Version *int32               `json:"version"`
			} `json:"textDocument"`
			Edits []protocol.TextEdit `json:"edits"`
		} `json:"documentChanges"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		t.Fatalf("decode the workspace edit %s: %v", data, err)
	}
	edits, versions = map[protocol.DocumentURI][]protocol.TextEdit{}, map[protocol.DocumentURI]*int32{}
	for uri, es := range w.Changes {
		edits[uri] = append(edits[uri], es...)
	}
	for _, dc := range w.DocumentChanges {
		if dc.TextDocument != nil {
			edits[dc.TextDocument.URI] = append(edits[dc.TextDocument.URI], dc.Edits...)
			versions[dc.TextDocument.URI] = dc.TextDocument.Version
		}
	}
	return edits, versions
}
