package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
)

// codeLens answers textDocument/codeLens: on each agent, what its model
// gets (agentLenses); for a client without inlay hints, the inlay hints
// as lenses too.
func codeLens(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.CodeLensParams
	if err := decodeParams(protocol.MethodTextDocumentCodeLens, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, nil)
	if err != nil {
		return nil, err
	}
	out := []protocol.CodeLens{}
	if a.p == nil || a.proj == nil {
		return out, nil
	}
	out = append(out, s.agentLenses(v, a)...)
	s.mu.Lock()
	inlayHints := s.client.inlayHints
	s.mu.Unlock()
	if inlayHints {
		return out, nil
	}
	hints, m, err := s.hintsOf(ctx, v, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	for _, h := range hints {
		pos := m.Position(h.Offset)
		out = append(out, protocol.CodeLens{
			Range:   protocol.Range{Start: protocol.Position{Line: pos.Line}, End: protocol.Position{Line: pos.Line}},
			Command: &protocol.Command{Title: h.Label, Command: ""},
		})
	}
	return out, nil
}
