package lsp

import (
	"io/fs"
	"path/filepath"
	"sort"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// bufferFS lays the open documents of a view over the disk, as
// vfs.Overlay does, reading a document's content only when a file is read:
// a keystroke in an ASCII document leaves its new content unmade
// (Mapper.Edited) until the engine reads it, and a Stat or a folder
// listing needs only its length. A test holds it to vfs.Overlay's answers.
type bufferFS struct {
	base vfs.FS
	docs map[string]*document // by clean absolute path; never modified
}

func (b *bufferFS) doc(path string) *document { return b.docs[filepath.Clean(path)] }

// ReadFile implements vfs.FS.
func (b *bufferFS) ReadFile(path string) ([]byte, error) {
	if d := b.doc(path); d != nil {
		return d.content(), nil
	}
	return b.base.ReadFile(path)
}

// Stat implements vfs.FS.
func (b *bufferFS) Stat(path string) (fs.FileInfo, error) {
	if d := b.doc(path); d != nil {
		return bufferInfo{name: filepath.Base(path), size: int64(d.mapper.Len())}, nil
	}
	return b.base.Stat(path)
}

// ReadDir implements vfs.FS: the base's listing with the documents that
// are not on the base added, sorted by name.
func (b *bufferFS) ReadDir(path string) ([]fs.DirEntry, error) {
	entries, err := b.base.ReadDir(path)
	dir := filepath.Clean(path)
	var extra []fs.DirEntry
	for p, d := range b.docs {
		if filepath.Dir(p) != dir {
			continue
		}
		name := filepath.Base(p)
		found := false
		for _, e := range entries {
			if e.Name() == name {
				found = true
				break
			}
		}
		if !found {
			extra = append(extra, fs.FileInfoToDirEntry(bufferInfo{name: name, size: int64(d.mapper.Len())}))
		}
	}
	if err != nil && len(extra) == 0 {
		return nil, err
	}
	if len(extra) == 0 {
		return entries, nil // the base's listing, sorted by name already
	}
	// A new slice: the base's may be shared (a cache of listings).
	all := make([]fs.DirEntry, 0, len(entries)+len(extra))
	all = append(append(all, entries...), extra...)
	sort.Slice(all, func(i, j int) bool { return all[i].Name() < all[j].Name() })
	return all, nil
}

// EvalSymlinks implements vfs.FS. A document that does not exist on the
// base resolves through its folder.
func (b *bufferFS) EvalSymlinks(path string) (string, error) {
	r, err := b.base.EvalSymlinks(path)
	if err == nil {
		return r, nil
	}
	if b.doc(path) != nil {
		dir, derr := b.base.EvalSymlinks(filepath.Dir(path))
		if derr != nil {
			return filepath.Clean(path), nil
		}
		return filepath.Join(dir, filepath.Base(path)), nil
	}
	return "", err
}

// bufferInfo describes an open document as vfs.Overlay describes an
// overlaid file.
type bufferInfo struct {
	name string
	size int64
}

func (i bufferInfo) Name() string       { return i.name }
func (i bufferInfo) Size() int64        { return i.size }
func (i bufferInfo) Mode() fs.FileMode  { return 0o644 }
func (i bufferInfo) ModTime() time.Time { return time.Time{} }
func (i bufferInfo) IsDir() bool        { return false }
func (i bufferInfo) Sys() any           { return nil }
