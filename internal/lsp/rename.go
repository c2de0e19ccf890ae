package lsp

import (
	"context"
	"encoding/json"
	"errors"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/features"
)

func prepareRename(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.PrepareRenameParams
	if err := decodeParams(protocol.MethodTextDocumentPrepareRename, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, &p.Position)
	if err != nil || a.p == nil {
		return nil, err
	}
	r, name, err := features.PrepareRename(a.proj, a.path, a.offset)
	if err != nil {
		return nil, renameError(err)
	}
	m := s.mapperIn(v, a.proj, a.path)
	return &prepareRenameResult{Range: m.Range(r.Start.Offset, r.End.Offset), Placeholder: name}, nil
}

func renameError(err error) error {
	var re *features.RenameError
	if errors.As(err, &re) {
		return jsonrpc2.NewError(codeRequestFailed, re.Reason)
	}
	return err
}

func rename(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.RenameParams
	if err := decodeParams(protocol.MethodTextDocumentRename, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, &p.Position)
	if err != nil || a.p == nil {
		return nil, err
	}
	edits, err := features.Rename(a.proj, a.path, a.offset, p.NewName)
	if err != nil {
		return nil, renameError(err)
	}
	te := &textEdits{}
	mappers := map[string]*Mapper{}
	for _, e := range edits {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m := mappers[e.File]
		if m == nil {
			m = s.mapperIn(v, a.proj, e.File)
			mappers[e.File] = m
		}
		te.add(e.File, protocol.TextEdit{Range: m.Range(e.Start, e.End), NewText: e.NewText})
	}
	s.mu.Lock()
	ci := s.client
	s.mu.Unlock()
	we, err := s.versionedEdit(v, a.proj, ci, te)
	if err != nil {
		return nil, jsonrpc2.NewError(codeContentModified, "rename: "+err.Error()+": try again")
	}
	return we, nil
}
