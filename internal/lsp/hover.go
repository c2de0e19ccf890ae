package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/features"
)

func hover(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.HoverParams
	if err := decodeParams(protocol.MethodTextDocumentHover, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, &p.Position)
	if err != nil || a.p == nil {
		return nil, err
	}
	proj := a.fallback
	h, ok := features.Hover(proj, a.snap.Modules(), a.path, s.offsetIn(v, a, proj))
	if !ok {
		return nil, nil
	}
	if h.Agent != "" {
		h.Markdown += s.agentHover(a, proj, h.Agent)
	}
	r := s.rangeBack(v, a, proj, h.Range.Start.Offset, h.Range.End.Offset)
	return &protocol.Hover{Contents: s.markup(h.Markdown), Range: &r}, nil
}

// markup is markdown for clients that show it, else the same text as
// plain text (still readable: the markdown is light).
func (s *Server) markup(md string) protocol.MarkupContent {
	s.mu.Lock()
	markdown := s.client.markdownHover
	s.mu.Unlock()
	if !markdown {
		return protocol.MarkupContent{Kind: protocol.PlainText, Value: md}
	}
	return protocol.MarkupContent{Kind: protocol.Markdown, Value: md}
}
