package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// view is the state of the open documents at one moment: the documents,
// and the file system the engine reads (the disk with the buffers laid
// over it). A view is never modified; each change makes a new one with a
// higher generation.
type view struct {
	gen  uint64
	docs map[string]*document // by absolute path
	fs   *vfs.Layered
}

func newView(base vfs.FS, docs map[string]*document, gen uint64) *view {
	return &view{gen: gen, docs: docs, fs: newBufferFS(base, docs)}
}

// mapperFor returns the mapper of a file's current content in the view
// (the buffer when open, else the file read through the view), or nil
// when it cannot be read.
func (s *Server) mapperFor(v *view, path string) *Mapper {
	if d := v.docs[path]; d != nil {
		return d.mapper
	}
	data, err := v.fs.ReadFile(path)
	if err != nil {
		return nil
	}
	return NewMapper(data, s.encoding())
}

func (s *Server) encoding() Encoding {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client.encoding == "" {
		return UTF16
	}
	return s.client.encoding
}

// updateDocs replaces the view with one where edit has changed the
// documents map (a copy), and returns the new view.
func (s *Server) updateDocs(edit func(docs map[string]*document)) *view {
	s.mu.Lock()
	defer s.mu.Unlock()
	docs := maps.Clone(s.cur.docs)
	if docs == nil {
		docs = map[string]*document{}
	}
	edit(docs)
	s.cur = newView(s.base, docs, s.cur.gen+1)
	return s.cur
}

// bumpView makes a new generation with the same documents: the disk under
// them changed.
func (s *Server) bumpView() *view {
	return s.updateDocs(func(map[string]*document) {})
}

func (s *Server) currentView() *view {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

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

// errNoDocument answers a request about a file the server cannot read.
func errNoDocument(uri protocol.DocumentURI) error {
	return jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s: not an open document nor a readable file", uri))
}
