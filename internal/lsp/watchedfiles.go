package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
)

// workspace/didChangeWatchedFiles: the client's file watchers report
// changes on disk.

func didChangeWatchedFiles(ctx context.Context, s *Server, params json.RawMessage) error {
	var p protocol.DidChangeWatchedFilesParams
	if err := decodeParams(protocol.MethodWorkspaceDidChangeWatchedFiles, params, &p); err != nil {
		return err
	}
	byKind := map[changeKind][]string{}
	for _, c := range p.Changes {
		if c == nil {
			continue
		}
		path, err := uriToPath(c.URI)
		if err != nil {
			continue
		}
		kind := changeDisk
		switch c.Type {
		case protocol.FileChangeTypeCreated:
			kind = changeCreated
		case protocol.FileChangeTypeDeleted:
			kind = changeDeleted
		}
		// Forget before the new view exists, so that it reads afresh.
		s.disk.forget(path)
		byKind[kind] = append(byKind[kind], path)
	}
	s.bumpView()
	for _, kind := range []changeKind{changeCreated, changeDisk, changeDeleted} {
		if len(byKind[kind]) > 0 {
			s.ws.changed(byKind[kind], kind)
		}
	}
	return nil
}
