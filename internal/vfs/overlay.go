package vfs

import (
	"io/fs"
	"path/filepath"
	"sort"
	"sync"
)

// Buffers are in-memory files (an editor's buffers) that a Layered file
// system lays over its base. Paths are clean and absolute.
type Buffers interface {
	// Buffer returns the buffer at path: its length and a function that
	// gives its content (called only when the file is read), which the
	// caller must not modify.
	Buffer(path string) (size int64, content func() []byte, ok bool)
	// BuffersIn calls f with the name and length of each buffer directly
	// in folder dir.
	BuffersIn(dir string, f func(name string, size int64))
}

// Layered lays Buffers over a base FS: a path with a buffer reads the
// buffer, whether or not it exists in the base, and folder listings include
// the buffers. A Stat or a listing needs only a buffer's length; its content
// is asked for when the file is read.
type Layered struct {
	base FS
	bufs Buffers
}

// NewLayered returns bufs laid over base.
func NewLayered(base FS, bufs Buffers) *Layered { return &Layered{base: base, bufs: bufs} }

// ReadFile implements FS: a buffer's content is the buffer's own slice,
// shared (callers must not modify it).
func (l *Layered) ReadFile(path string) ([]byte, error) {
	if _, content, ok := l.bufs.Buffer(filepath.Clean(path)); ok {
		return content(), nil
	}
	return l.base.ReadFile(path)
}

// Stat implements FS.
func (l *Layered) Stat(path string) (fs.FileInfo, error) {
	if size, _, ok := l.bufs.Buffer(filepath.Clean(path)); ok {
		return memInfo{name: filepath.Base(path), size: size}, nil
	}
	return l.base.Stat(path)
}

// ReadDir implements FS: the base's listing with the buffers that are not
// in it added, sorted by name.
func (l *Layered) ReadDir(path string) ([]fs.DirEntry, error) {
	entries, err := l.base.ReadDir(path)
	var extra []fs.DirEntry
	l.bufs.BuffersIn(filepath.Clean(path), func(name string, size int64) {
		for _, e := range entries {
			if e.Name() == name {
				return
			}
		}
		extra = append(extra, fs.FileInfoToDirEntry(memInfo{name: name, size: size}))
	})
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

// EvalSymlinks implements FS. A buffer that does not exist on the base
// resolves through its folder.
func (l *Layered) EvalSymlinks(path string) (string, error) {
	r, err := l.base.EvalSymlinks(path)
	if err == nil {
		return r, nil
	}
	if _, _, ok := l.bufs.Buffer(filepath.Clean(path)); ok {
		dir, derr := l.base.EvalSymlinks(filepath.Dir(path))
		if derr != nil {
			return filepath.Clean(path), nil
		}
		return filepath.Join(dir, filepath.Base(path)), nil
	}
	return "", err
}

// Overlay lays in-memory contents (unsaved editor buffers) over a base FS:
// a Layered file system whose buffers are set and deleted one by one.
type Overlay struct {
	*Layered
	mu   sync.RWMutex
	over map[string][]byte
}

// NewOverlay returns an overlay over base with nothing laid on it.
func NewOverlay(base FS) *Overlay {
	o := &Overlay{over: map[string][]byte{}}
	o.Layered = NewLayered(base, (*overlayBuffers)(o))
	return o
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

// overlayBuffers is an Overlay's map seen as Buffers.
type overlayBuffers Overlay

func (b *overlayBuffers) Buffer(path string) (int64, func() []byte, bool) {
	c, ok := (*Overlay)(b).Get(path)
	return int64(len(c)), func() []byte { return c }, ok
}

func (b *overlayBuffers) BuffersIn(dir string, f func(name string, size int64)) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for p, c := range b.over {
		if filepath.Dir(p) == dir {
			f(filepath.Base(p), int64(len(c)))
		}
	}
}
