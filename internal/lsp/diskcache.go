package lsp

import (
	"io/fs"
	"path/filepath"
	"sync"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// diskCache remembers what the file system answered (contents, stats,
// listings, link resolutions, and errors too) until the client says a path
// changed (workspace/didChangeWatchedFiles). With it, a keystroke that
// reloads a project reads no file from disk. It is enabled only once the
// client has accepted the file watchers: without them the server could not
// know when to forget, so it reads through.
type diskCache struct {
	base vfs.FS

	mu      sync.Mutex
	enabled bool
	reads   map[string]readEntry
	stats   map[string]statEntry
	dirs    map[string]dirEntry
	links   map[string]linkEntry
}

// maxCachedRead is the largest content kept; larger files are read again.
const maxCachedRead = 4 << 20

type readEntry struct {
	data []byte
	err  error
}

type statEntry struct {
	info fs.FileInfo
	err  error
}

type dirEntry struct {
	entries []fs.DirEntry
	err     error
}

type linkEntry struct {
	path string
	err  error
}

func newDiskCache(base vfs.FS) *diskCache {
	return &diskCache{base: base, reads: map[string]readEntry{}, stats: map[string]statEntry{}, dirs: map[string]dirEntry{}, links: map[string]linkEntry{}}
}

// enable starts caching.
func (c *diskCache) enable() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.enabled = true
}

// forget drops what is known of path and of every folder above it (a new
// file changes its folder's listing, and may create the folders).
func (c *diskCache) forget(path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := filepath.Clean(path)
	for {
		delete(c.reads, p)
		delete(c.stats, p)
		delete(c.dirs, p)
		delete(c.links, p)
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		p = parent
	}
	// A link resolution below a changed folder may change too.
	for k := range c.links {
		if vfs.Within(filepath.Clean(path), k) {
			delete(c.links, k)
		}
	}
}

// forgetAll drops everything (a change the server cannot attribute).
func (c *diskCache) forgetAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads = map[string]readEntry{}
	c.stats = map[string]statEntry{}
	c.dirs = map[string]dirEntry{}
	c.links = map[string]linkEntry{}
}

func (c *diskCache) on() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.enabled
}

// ReadFile implements vfs.FS. Callers must not modify the returned slice
// (the engine does not).
func (c *diskCache) ReadFile(path string) ([]byte, error) {
	if !c.on() {
		return c.base.ReadFile(path)
	}
	key := filepath.Clean(path)
	c.mu.Lock()
	e, ok := c.reads[key]
	c.mu.Unlock()
	if ok {
		return e.data, e.err
	}
	data, err := c.base.ReadFile(path)
	if len(data) <= maxCachedRead {
		c.mu.Lock()
		c.reads[key] = readEntry{data, err}
		c.mu.Unlock()
	}
	return data, err
}

// Stat implements vfs.FS.
func (c *diskCache) Stat(path string) (fs.FileInfo, error) {
	if !c.on() {
		return c.base.Stat(path)
	}
	key := filepath.Clean(path)
	c.mu.Lock()
	e, ok := c.stats[key]
	c.mu.Unlock()
	if ok {
		return e.info, e.err
	}
	info, err := c.base.Stat(path)
	c.mu.Lock()
	c.stats[key] = statEntry{info, err}
	c.mu.Unlock()
	return info, err
}

// ReadDir implements vfs.FS.
func (c *diskCache) ReadDir(path string) ([]fs.DirEntry, error) {
	if !c.on() {
		return c.base.ReadDir(path)
	}
	key := filepath.Clean(path)
	c.mu.Lock()
	e, ok := c.dirs[key]
	c.mu.Unlock()
	if ok {
		return append([]fs.DirEntry(nil), e.entries...), e.err
	}
	entries, err := c.base.ReadDir(path)
	c.mu.Lock()
	c.dirs[key] = dirEntry{entries, err}
	c.mu.Unlock()
	return append([]fs.DirEntry(nil), entries...), err
}

// EvalSymlinks implements vfs.FS.
func (c *diskCache) EvalSymlinks(path string) (string, error) {
	if !c.on() {
		return c.base.EvalSymlinks(path)
	}
	key := filepath.Clean(path)
	c.mu.Lock()
	e, ok := c.links[key]
	c.mu.Unlock()
	if ok {
		return e.path, e.err
	}
	r, err := c.base.EvalSymlinks(path)
	c.mu.Lock()
	c.links[key] = linkEntry{r, err}
	c.mu.Unlock()
	return r, err
}
