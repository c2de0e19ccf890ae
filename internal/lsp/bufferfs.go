package lsp

import (
	"path/filepath"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// newBufferFS lays the open documents of a view over the disk
// (vfs.Layered): the engine reads a document's content, and a Stat or a
// folder listing needs only its length.
func newBufferFS(base vfs.FS, docs map[string]*document) *vfs.Layered {
	return vfs.NewLayered(base, documentBuffers(docs))
}

// documentBuffers are a view's documents (by clean absolute path; the map
// is never modified) seen as vfs.Buffers.
type documentBuffers map[string]*document

func (d documentBuffers) Buffer(path string) (int64, func() []byte, bool) {
	doc := d[path]
	if doc == nil {
		return 0, nil, false
	}
	return int64(doc.mapper.Len()), doc.mapper.Content, true
}

func (d documentBuffers) BuffersIn(dir string, f func(name string, size int64)) {
	for p, doc := range d {
		if filepath.Dir(p) == dir {
			f(filepath.Base(p), int64(doc.mapper.Len()))
		}
	}
}
