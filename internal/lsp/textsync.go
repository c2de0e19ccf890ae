package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/protocol"
)

// Text synchronization (textDocument/didOpen, didChange, didClose,
// didSave): each makes a new view of the documents and tells the workspace
// which file changed (changes.go), which tells the engine.

func didOpen(ctx context.Context, s *Server, params json.RawMessage) error {
	var p protocol.DidOpenTextDocumentParams
	if err := decodeParams(protocol.MethodTextDocumentDidOpen, params, &p); err != nil {
		return err
	}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return err
	}
	enc := s.encoding()
	d := &document{uri: p.TextDocument.URI, path: path, version: p.TextDocument.Version, mapper: NewMapper([]byte(p.TextDocument.Text), enc)}
	s.updateDocs(func(docs map[string]*document) { docs[path] = d })
	s.ws.changed([]string{path}, changeBuffer)
	return nil
}

func didChange(ctx context.Context, s *Server, params json.RawMessage) error {
	var p didChangeTextDocumentParams
	if err := decodeParams(protocol.MethodTextDocumentDidChange, params, &p); err != nil {
		return err
	}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return err
	}
	enc := s.encoding()
	var problem error
	s.updateDocs(func(docs map[string]*document) {
		old := docs[path]
		if old == nil {
			problem = fmt.Errorf("didChange for %s, which is not open: change ignored", p.TextDocument.URI)
			return
		}
		if p.TextDocument.Version <= old.version {
			problem = fmt.Errorf("didChange for %s: version %d after version %d (versions must increase); change applied", p.TextDocument.URI, p.TextDocument.Version, old.version)
		}
		m := old.mapper
		if m.Encoding() != enc {
			m = NewMapper(old.content(), enc)
		}
		docs[path] = &document{uri: old.uri, path: path, version: p.TextDocument.Version, mapper: applyChangesWith(m, p.Changes)}
	})
	if problem == nil || s.currentView().docs[path] != nil {
		s.ws.changed([]string{path}, changeBuffer)
	}
	return problem
}

func didClose(ctx context.Context, s *Server, params json.RawMessage) error {
	var p protocol.DidCloseTextDocumentParams
	if err := decodeParams(protocol.MethodTextDocumentDidClose, params, &p); err != nil {
		return err
	}
	path, err := uriToPath(p.TextDocument.URI)
	if err != nil {
		return err
	}
	// The disk is read again after a close, not what the server remembers
	// of it: a change the client's watchers missed while the file was open
	// (or before) is seen then (docs/guarantees.md, "The disk cache").
	s.disk.forget(path)
	var closed *document
	v := s.updateDocs(func(docs map[string]*document) {
		closed = docs[path]
		delete(docs, path)
	})
	// A project outside the workspace folders lives while a file of it is
	// open.
	s.ws.dropOutside(v)
	if closed != nil {
		if disk, err := s.disk.ReadFile(path); err == nil && bytes.Equal(disk, closed.content()) {
			// The file reads the same from the disk as from the buffer
			// (closed without unsaved changes): nothing any analysis
			// read has changed, so nothing runs again (a module pass
			// over 10,000 modules would).
			return nil
		}
	}
	s.ws.changed([]string{path}, changeClosed)
	return nil
}

func didSave(ctx context.Context, s *Server, params json.RawMessage) error {
	return nil // the buffer already holds the saved text
}
