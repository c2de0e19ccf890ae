package lsp

import (
	"io/fs"
	"path/filepath"
	"sync"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
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
	// What base answered, by clean path. The maps live as long as the
	// cache (forgetAll clears them), so that remember can be handed one.
	reads map[string]answer[[]byte]
	stats map[string]answer[fs.FileInfo]
	dirs  map[string]answer[[]fs.DirEntry]
	links map[string]answer[string]
	// forgets counts forget and forgetAll calls; forgotAt holds, by clean
	// path, the count when the path was last forgotten (a path's folders
	// are forgotten with it, not stamped), and everyAt the count of the
	// last forgetAll (see stamp).
	forgets  uint64
	forgotAt map[string]uint64
	everyAt  uint64
}

// maxCachedRead is the largest content kept; larger files are read again.
const maxCachedRead = 4 << 20

// keepsContent reports whether the content of path is kept. A tool
// module's is not: only its inspection reads it, again only once it
// changed (which forgets it anyway), and the contents of 10,000 modules
// are 20 MB that every collection would mark (docs/server.md,
// "Diagnostics pipeline").
func keepsContent(path string, data []byte) bool {
	if ext := filepath.Ext(path); analysis.HasModuleExtension(path) || ext == ".tsx" || ext == ".jsx" {
		return false // a tool module, or a JSX file one imports
	}
	return len(data) <= maxCachedRead
}

// answer is what base answered to one question (an error too).
type answer[T any] struct {
	value T
	err   error
}

func newDiskCache(base vfs.FS) *diskCache {
	return &diskCache{
		base:  base,
		reads: map[string]answer[[]byte]{},
		stats: map[string]answer[fs.FileInfo]{},
		dirs:  map[string]answer[[]fs.DirEntry]{},
		links: map[string]answer[string]{},

		forgotAt: map[string]uint64{},
	}
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
	c.forgets++
	c.forgotAt[p] = c.forgets
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
	clear(c.reads)
	clear(c.stats)
	clear(c.dirs)
	clear(c.links)
	c.forgets++
	c.everyAt = c.forgets
	clear(c.forgotAt)
}

// stamp says what the cache knows of path's content: while caching is on,
// two equal stamps of one path mean the client reported no change of it in
// between, so that what was derived from its content then (a related
// file's line index) still holds. ok is false while caching is off: the
// content must then be read and compared.
func (c *diskCache) stamp(path string) (stamp uint64, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.enabled {
		return 0, false
	}
	// A folder forgotten (deleted, created) forgets what is in it.
	stamp = c.everyAt
	for p := filepath.Clean(path); ; {
		stamp = max(stamp, c.forgotAt[p])
		parent := filepath.Dir(p)
		if parent == p {
			return stamp, true
		}
		p = parent
	}
}

func (c *diskCache) on() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.enabled
}

// remember answers a question about path from memo, or asks base (ask) and
// remembers the answer if keep allows it (nil keep: always). Disabled, it
// only asks.
func remember[T any](c *diskCache, memo map[string]answer[T], path string, ask func(string) (T, error), keep func(T) bool) (T, error) {
	if !c.on() {
		return ask(path)
	}
	key := filepath.Clean(path)
	c.mu.Lock()
	a, ok := memo[key]
	c.mu.Unlock()
	if ok {
		return a.value, a.err
	}
	value, err := ask(path)
	if keep == nil || keep(value) {
		c.mu.Lock()
		memo[key] = answer[T]{value, err}
		c.mu.Unlock()
	}
	return value, err
}

// ReadFile implements vfs.FS. Callers must not modify the returned slice
// (the engine does not). Contents keepsContent refuses are read again.
func (c *diskCache) ReadFile(path string) ([]byte, error) {
	return remember(c, c.reads, path, c.base.ReadFile, func(data []byte) bool { return keepsContent(path, data) })
}

// Stat implements vfs.FS.
func (c *diskCache) Stat(path string) (fs.FileInfo, error) {
	return remember(c, c.stats, path, c.base.Stat, nil)
}

// ReadDir implements vfs.FS. Each caller gets its own copy of the listing.
func (c *diskCache) ReadDir(path string) ([]fs.DirEntry, error) {
	entries, err := remember(c, c.dirs, path, c.base.ReadDir, nil)
	return append([]fs.DirEntry(nil), entries...), err
}

// EvalSymlinks implements vfs.FS.
func (c *diskCache) EvalSymlinks(path string) (string, error) {
	return remember(c, c.links, path, c.base.EvalSymlinks, nil)
}
