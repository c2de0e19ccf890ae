package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/features"
)

// locations converts feature locations, each mapped in its own file
// (the request's file as the editor has it); an error when ctx ends.
func (s *Server) locations(ctx context.Context, v *view, a *at, proj *analysis.Project, locs []features.Location) ([]protocol.Location, error) {
	out := []protocol.Location{}
	mappers := map[string]*Mapper{}
	for _, l := range locs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if l.File == a.path {
			out = append(out, protocol.Location{URI: pathToURI(l.File), Range: s.rangeBack(v, a, proj, l.Range.Start.Offset, l.Range.End.Offset)})
			continue
		}
		m := mappers[l.File]
		if m == nil {
			m = s.mapperIn(v, proj, l.File)
			mappers[l.File] = m
		}
		out = append(out, protocol.Location{URI: pathToURI(l.File), Range: m.Range(l.Range.Start.Offset, l.Range.End.Offset)})
	}
	return out, nil
}

func definition(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.DefinitionParams
	if err := decodeParams(protocol.MethodTextDocumentDefinition, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, &p.Position)
	if err != nil || a.p == nil {
		return nil, err
	}
	proj := a.fallback
	return s.locations(ctx, v, a, proj, features.Definition(proj, a.snap.Modules(), a.path, s.offsetIn(v, a, proj)))
}

func references(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.ReferenceParams
	if err := decodeParams(protocol.MethodTextDocumentReferences, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, &p.Position)
	if err != nil || a.p == nil {
		return nil, err
	}
	proj := a.fallback
	return s.locations(ctx, v, a, proj, features.References(proj, a.path, s.offsetIn(v, a, proj), p.Context.IncludeDeclaration))
}

func documentHighlight(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.DocumentHighlightParams
	if err := decodeParams(protocol.MethodTextDocumentDocumentHighlight, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, &p.Position)
	if err != nil || a.p == nil {
		return nil, err
	}
	proj := a.fallback
	out := []protocol.DocumentHighlight{}
	for _, h := range features.DocumentHighlights(proj, a.path, s.offsetIn(v, a, proj)) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		kind := protocol.DocumentHighlightKindRead
		if h.Write {
			kind = protocol.DocumentHighlightKindWrite
		}
		out = append(out, protocol.DocumentHighlight{Range: s.rangeBack(v, a, proj, h.Range.Start.Offset, h.Range.End.Offset), Kind: kind})
	}
	return out, nil
}

func documentLink(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.DocumentLinkParams
	if err := decodeParams(protocol.MethodTextDocumentDocumentLink, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, nil)
	if err != nil {
		return nil, err
	}
	out := []protocol.DocumentLink{}
	if a.p == nil {
		return out, nil
	}
	for _, l := range features.DocumentLinks(a.fallback, a.path) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out = append(out, protocol.DocumentLink{Range: s.rangeBack(v, a, a.fallback, l.Range.Start.Offset, l.Range.End.Offset), Target: pathToURI(l.Target)})
	}
	return out, nil
}
