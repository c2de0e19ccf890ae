package lsp

import (
	"context"
	"encoding/json"
	"sort"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/features"
)

// hintsOf returns the inlay hints of a document with their mapper.
func (s *Server) hintsOf(ctx context.Context, v *view, uri protocol.DocumentURI) ([]features.InlayHint, *Mapper, error) {
	a, err := s.locate(ctx, v, uri, nil)
	if err != nil || a.p == nil {
		return nil, nil, err
	}
	hints := features.InlayHints(a.proj, a.snap.Modules(), a.path)
	sort.SliceStable(hints, func(i, j int) bool { return hints[i].Offset < hints[j].Offset })
	return hints, s.mapperIn(v, a.proj, a.path), nil
}

func inlayHint(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p inlayHintParams
	if err := decodeParams(methodInlayHint, params, &p); err != nil {
		return nil, err
	}
	hints, m, err := s.hintsOf(ctx, v, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []inlayHintJSON{}
	if m == nil {
		return out, nil
	}
	start, end := m.Offsets(p.Range)
	for _, h := range hints {
		if h.Offset < start || h.Offset > end {
			continue
		}
		hj := inlayHintJSON{Position: m.Position(h.Offset), Label: h.Label, PaddingLeft: h.PaddingLeft}
		if h.Tooltip != "" {
			m := s.markup(h.Tooltip)
			hj.Tooltip = &m
		}
		out = append(out, hj)
	}
	return out, nil
}
