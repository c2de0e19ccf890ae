package vfs

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/txtar"
)

// Mem is an in-memory tree for tests. Directories exist implicitly above
// every file. Symbolic links map a path to a target (absolute, or relative to
// the link's directory).
type Mem struct {
	mu    sync.RWMutex
	files map[string][]byte
	links map[string]string
	// MaxFileSize caps ReadFile like Disk does; 0 means DefaultMaxFileSize.
	MaxFileSize int64
}

// NewMem returns an empty tree.
func NewMem() *Mem {
	return &Mem{files: map[string][]byte{}, links: map[string]string{}}
}

// MemFromTxtar builds a tree under root from a txtar archive. A file whose
// name ends in " -> TARGET" (for example "tools -> /outside") is a symbolic
// link instead of a file.
func MemFromTxtar(root string, archive []byte) *Mem {
	m := NewMem()
	ar := txtar.Parse(archive)
	for _, f := range ar.Files {
		name := f.Name
		if i := strings.Index(name, " -> "); i >= 0 {
			m.Symlink(filepath.Join(root, filepath.FromSlash(name[:i])), name[i+4:])
			continue
		}
		m.WriteFile(filepath.Join(root, filepath.FromSlash(name)), f.Data)
	}
	return m
}

// WriteFile creates or replaces a file.
func (m *Mem) WriteFile(p string, data []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.files[filepath.Clean(p)] = append([]byte(nil), data...)
}

// Remove deletes a file or link.
func (m *Mem) Remove(p string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.files, filepath.Clean(p))
	delete(m.links, filepath.Clean(p))
}

// Symlink makes p a link to target.
func (m *Mem) Symlink(p, target string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.links[filepath.Clean(p)] = target
}

const maxLinkHops = 40

// resolve follows links in every component of p. It must be called with the
// lock held.
func (m *Mem) resolve(p string) (string, error) {
	p = filepath.Clean(p)
	hops := 0
	for {
		changed := false
		parts := strings.Split(p, string(filepath.Separator))
		cur := ""
		for i, part := range parts {
			if i == 0 {
				cur = part + string(filepath.Separator)
				if part != "" {
					cur = part
				}
				continue
			}
			cur = filepath.Join(cur, part)
			if target, ok := m.links[cur]; ok {
				hops++
				if hops > maxLinkHops {
					return "", &fs.PathError{Op: "evalsymlinks", Path: p, Err: fmt.Errorf("too many links")}
				}
				if !filepath.IsAbs(target) {
					target = filepath.Join(filepath.Dir(cur), target)
				}
				rest := parts[i+1:]
				p = filepath.Join(append([]string{target}, rest...)...)
				changed = true
				break
			}
		}
		if !changed {
			return p, nil
		}
	}
}

func (m *Mem) isDir(p string) bool {
	prefix := p + string(filepath.Separator)
	if p == string(filepath.Separator) {
		prefix = p
	}
	for f := range m.files {
		if strings.HasPrefix(f, prefix) {
			return true
		}
	}
	for l := range m.links {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

func (m *Mem) limit() int64 {
	if m.MaxFileSize > 0 {
		return m.MaxFileSize
	}
	return DefaultMaxFileSize
}

// ReadFile implements FS.
func (m *Mem) ReadFile(p string) ([]byte, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	r, err := m.resolve(p)
	if err != nil {
		return nil, err
	}
	data, ok := m.files[r]
	if !ok {
		if m.isDir(r) {
			return nil, fmt.Errorf("%s: %w", p, ErrNotRegular)
		}
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	}
	if int64(len(data)) > m.limit() {
		return nil, fmt.Errorf("%s: %w (%d bytes, limit %d)", p, ErrTooLarge, len(data), m.limit())
	}
	return append([]byte(nil), data...), nil
}

// Stat implements FS.
func (m *Mem) Stat(p string) (fs.FileInfo, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	r, err := m.resolve(p)
	if err != nil {
		return nil, err
	}
	if data, ok := m.files[r]; ok {
		return memInfo{name: filepath.Base(p), size: int64(len(data))}, nil
	}
	if m.isDir(r) {
		return memInfo{name: filepath.Base(p), dir: true}, nil
	}
	return nil, &fs.PathError{Op: "stat", Path: p, Err: fs.ErrNotExist}
}

// ReadDir implements FS.
func (m *Mem) ReadDir(p string) ([]fs.DirEntry, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	r, err := m.resolve(p)
	if err != nil {
		return nil, err
	}
	if !m.isDir(r) {
		return nil, &fs.PathError{Op: "readdir", Path: p, Err: fs.ErrNotExist}
	}
	seen := map[string]fs.DirEntry{}
	add := func(full string, isLink bool) {
		rel, err := filepath.Rel(r, full)
		if err != nil || strings.HasPrefix(rel, "..") || rel == "." {
			return
		}
		first := strings.Split(filepath.ToSlash(rel), "/")[0]
		if _, ok := seen[first]; ok {
			return
		}
		child := filepath.Join(r, first)
		switch {
		case isLink && path.Base(filepath.ToSlash(full)) == first:
			seen[first] = fs.FileInfoToDirEntry(memInfo{name: first, link: true})
		case hasFile(m.files, child): // an empty file is stored as nil
			seen[first] = fs.FileInfoToDirEntry(memInfo{name: first, size: int64(len(m.files[child]))})
		default:
			seen[first] = fs.FileInfoToDirEntry(memInfo{name: first, dir: true})
		}
	}
	for f := range m.files {
		add(f, false)
	}
	for l := range m.links {
		add(l, true)
	}
	out := make([]fs.DirEntry, 0, len(seen))
	for _, e := range seen {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

// EvalSymlinks implements FS.
func (m *Mem) EvalSymlinks(p string) (string, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	r, err := m.resolve(p)
	if err != nil {
		return "", err
	}
	if _, ok := m.files[r]; !ok && !m.isDir(r) {
		return "", &fs.PathError{Op: "lstat", Path: p, Err: fs.ErrNotExist}
	}
	return r, nil
}

type memInfo struct {
	name string
	size int64
	dir  bool
	link bool
}

func (i memInfo) Name() string { return i.name }
func (i memInfo) Size() int64  { return i.size }
func (i memInfo) Mode() fs.FileMode {
	switch {
	case i.dir:
		return fs.ModeDir | 0o755
	case i.link:
		return fs.ModeSymlink | 0o777
	}
	return 0o644
}
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return i.dir }
func (i memInfo) Sys() any           { return nil }

func hasFile(files map[string][]byte, p string) bool {
	_, ok := files[p]
	return ok
}
