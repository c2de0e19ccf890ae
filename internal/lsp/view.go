package lsp

import (
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

// errNoDocument answers a request about a file the server cannot read.
func errNoDocument(uri protocol.DocumentURI) error {
	return jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s: not an open document nor a readable file", uri))
}
