package vfs

import (
	"io/fs"
	"path/filepath"
	"sort"
	"sync"
)

// Overlay lays in-memory contents (unsaved editor buffers) over a base FS.
// A path with an overlay reads its overlay content, whether or not it exists
// in the base. Directory listings include overlaid files.
type Overlay struct {
	base FS
	mu   sync.RWMutex
	over map[string][]byte
}

// NewOverlay returns an overlay over base with nothing laid on it.
func NewOverlay(base FS) *Overlay {
	return &Overlay{base: base, over: map[string][]byte{}}
}

// Set lays content over path. The slice is kept: do not modify it afterwards.
func (o *Overlay) Set(path string, content []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.over[filepath.Clean(path)] = content
}

// Delete removes the overlay of path; reads go to the base again.
func (o *Overlay) Delete(path string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.over, filepath.Clean(path))
}

// Get returns the overlay of path, if any.
func (o *Overlay) Get(path string) ([]byte, bool) {
	o.mu.RLock()
	defer o.mu.RUnlock()
	c, ok := o.over[filepath.Clean(path)]
	return c, ok
}

// ReadFile implements FS.
func (o *Overlay) ReadFile(path string) ([]byte, error) {
	if c, ok := o.Get(path); ok {
		return c, nil
	}
	return o.base.ReadFile(path)
}

// Stat implements FS.
func (o *Overlay) Stat(path string) (fs.FileInfo, error) {
	if c, ok := o.Get(path); ok {
		return memInfo{name: filepath.Base(path), size: int64(len(c))}, nil
	}
	return o.base.Stat(path)
}

// ReadDir implements FS.
func (o *Overlay) ReadDir(path string) ([]fs.DirEntry, error) {
	entries, err := o.base.ReadDir(path)
	dir := filepath.Clean(path)
	o.mu.RLock()
	var extra []fs.DirEntry
	for p, c := range o.over {
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
			extra = append(extra, fs.FileInfoToDirEntry(memInfo{name: name, size: int64(len(c))}))
		}
	}
	o.mu.RUnlock()
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

// EvalSymlinks implements FS. An overlaid path that does not exist on the
// base resolves through its directory.
func (o *Overlay) EvalSymlinks(path string) (string, error) {
	r, err := o.base.EvalSymlinks(path)
	if err == nil {
		return r, nil
	}
	if _, ok := o.Get(path); ok {
		dir, derr := o.base.EvalSymlinks(filepath.Dir(path))
		if derr != nil {
			return filepath.Clean(path), nil
		}
		return filepath.Join(dir, filepath.Base(path)), nil
	}
	return "", err
}
