package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/features"
)

func symbolKind(k features.SymbolKind) protocol.SymbolKind {
	switch k {
	case features.SymbolSection:
		return protocol.SymbolKindNamespace
	case features.SymbolTool:
		return protocol.SymbolKindFunction
	case features.SymbolAgent:
		return protocol.SymbolKindClass
	case features.SymbolImport:
		return protocol.SymbolKindFile
	}
	return protocol.SymbolKindVariable
}

func documentSymbol(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.DocumentSymbolParams
	if err := decodeParams(protocol.MethodTextDocumentDocumentSymbol, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, nil)
	if err != nil {
		return nil, err
	}
	if a.p == nil {
		return []protocol.DocumentSymbol{}, nil
	}
	proj := a.fallback
	rng := func(r diag.Range) protocol.Range { return s.rangeBack(v, a, proj, r.Start.Offset, r.End.Offset) }
	syms := features.DocumentSymbols(proj, a.path)
	s.mu.Lock()
	hierarchical := s.client.hierarchicalSymbols
	s.mu.Unlock()
	if !hierarchical {
		out := []protocol.SymbolInformation{}
		var flatten func(container string, list []features.Symbol)
		flatten = func(container string, list []features.Symbol) {
			for _, sym := range list {
				if ctx.Err() != nil {
					return
				}
				out = append(out, protocol.SymbolInformation{
					Name: sym.Name, Kind: symbolKind(sym.Kind), ContainerName: container,
					Location: protocol.Location{URI: pathToURI(a.path), Range: rng(sym.Range)},
				})
				flatten(sym.Name, sym.Children)
			}
		}
		flatten("", syms)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return out, nil
	}
	var convert func(list []features.Symbol) []protocol.DocumentSymbol
	convert = func(list []features.Symbol) []protocol.DocumentSymbol {
		out := []protocol.DocumentSymbol{}
		for _, sym := range list {
			if ctx.Err() != nil {
				return nil
			}
			out = append(out, protocol.DocumentSymbol{
				Name:           sym.Name,
				Detail:         sym.Detail,
				Kind:           symbolKind(sym.Kind),
				Range:          rng(sym.Range),
				SelectionRange: rng(sym.Selection),
				Children:       convert(sym.Children),
			})
		}
		return out
	}
	out := convert(syms)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func workspaceSymbol(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.WorkspaceSymbolParams
	if err := decodeParams(protocol.MethodWorkspaceSymbol, params, &p); err != nil {
		return nil, err
	}
	var projects []*analysis.Project
	for _, pr := range s.ws.allProjects() {
		if snap := s.ws.eng.Latest(pr.root); snap != nil {
			projects = append(projects, snap.Project)
		}
	}
	out := []protocol.SymbolInformation{}
	mappers := map[string]*Mapper{}
	byRoot := map[string]*analysis.Project{}
	for _, proj := range projects {
		byRoot[proj.Root] = proj
	}
	for _, sym := range features.WorkspaceSymbols(projects, p.Query) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m := mappers[sym.File]
		if m == nil {
			var owner *analysis.Project
			for _, proj := range projects {
				if proj.File(sym.File) != nil {
					owner = proj
					break
				}
			}
			m = s.mapperIn(v, owner, sym.File)
			mappers[sym.File] = m
		}
		out = append(out, protocol.SymbolInformation{
			Name: sym.Name, Kind: symbolKind(sym.Kind), ContainerName: sym.Container,
			Location: protocol.Location{URI: pathToURI(sym.File), Range: m.Range(sym.Selection.Start.Offset, sym.Selection.End.Offset)},
		})
	}
	return out, nil
}

func foldingRange(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.FoldingRangeParams
	if err := decodeParams(protocol.MethodTextDocumentFoldingRange, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, nil)
	if err != nil {
		return nil, err
	}
	out := []protocol.FoldingRange{}
	if a.p == nil {
		return out, nil
	}
	for _, f := range features.FoldingRanges(a.fallback, a.path) {
		out = append(out, protocol.FoldingRange{StartLine: uint32(f.StartLine), EndLine: uint32(f.EndLine)})
	}
	return out, nil
}
