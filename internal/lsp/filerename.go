package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/features"
)

// willRenameFiles answers workspace/willRenameFiles: before the editor
// renames or moves files or folders, the edits that keep every module path
// and imports: entry of every project pointing at them
// (features.FollowMoves), each naming the version of the open document it
// was computed on. Nothing to change: null.
func willRenameFiles(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.RenameFilesParams
	if err := decodeParams(protocol.MethodWillRenameFiles, params, &p); err != nil {
		return nil, err
	}
	var moves []features.Move
	for _, f := range p.Files {
		oldPath, err1 := uriToPath(protocol.DocumentURI(f.OldURI))
		newPath, err2 := uriToPath(protocol.DocumentURI(f.NewURI))
		if err1 != nil || err2 != nil {
			continue // not a file the server reads (another scheme)
		}
		moves = append(moves, features.Move{Old: oldPath, New: newPath})
	}
	if len(moves) == 0 {
		return nil, nil
	}
	s.mu.Lock()
	ci := s.client
	s.mu.Unlock()
	out := &workspaceEditJSON{}
	for _, pr := range s.ws.allProjects() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		snap, err := s.ws.snapshotAt(v, pr)
		if err != nil || snap == nil {
			continue
		}
		proj := snap.Project
		edits := features.FollowMoves(proj, moves)
		if len(edits) == 0 {
			continue
		}
		te := &textEdits{}
		mappers := map[string]*Mapper{}
		for _, e := range edits {
			m := mappers[e.File]
			if m == nil {
				m = s.mapperIn(v, proj, e.File)
				mappers[e.File] = m
			}
			te.add(e.File, protocol.TextEdit{Range: m.Range(e.Start, e.End), NewText: e.NewText})
		}
		we, err := s.versionedEdit(v, proj, ci, te)
		if err != nil {
			return nil, jsonrpc2.NewError(codeContentModified, "following the rename: "+err.Error()+": try again")
		}
		out.DocumentChanges = append(out.DocumentChanges, we.DocumentChanges...)
		for uri, es := range we.Changes {
			if out.Changes == nil {
				out.Changes = map[protocol.DocumentURI][]protocol.TextEdit{}
			}
			out.Changes[uri] = append(out.Changes[uri], es...)
		}
	}
	if out.DocumentChanges == nil && out.Changes == nil {
		return nil, nil
	}
	return out, nil
}

// willRenameFilters are the renames the server asks to hear of: tool
// modules and the files they may import, YAML files, and folders (a
// folder of modules moved at once).
func willRenameFilters() *protocol.FileOperationRegistrationOptions {
	file := func(glob string) protocol.FileOperationFilter {
		return protocol.FileOperationFilter{Scheme: "file", Pattern: protocol.FileOperationPattern{Glob: glob, Matches: protocol.FileOperationPatternKindFile}}
	}
	return &protocol.FileOperationRegistrationOptions{Filters: []protocol.FileOperationFilter{
		file("**/*.{ts,mts,cts,tsx,js,mjs,cjs,jsx}"),
		file("**/*.{yaml,yml}"),
		{Scheme: "file", Pattern: protocol.FileOperationPattern{Glob: "**", Matches: protocol.FileOperationPatternKindFolder}},
	}}
}
