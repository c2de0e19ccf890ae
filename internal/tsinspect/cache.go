package tsinspect

import (
	"crypto/sha256"
	"path/filepath"
	"strings"
	"sync"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/resolve"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

func sha256Sum(b []byte) [32]byte { return sha256.Sum256(b) }

// cacheKey identifies an inspection: the module, its repository and its
// content.
type cacheKey struct {
	module string
	root   string
	hash   [32]byte
}

type cacheSlot struct {
	module, root string
}

type cacheEntry struct {
	key    cacheKey
	result *Result
	deps   []resolve.Dep
}

// cache keeps one result per module (the latest content), valid while every
// file, folder and package.json the inspection read is unchanged.
type cache struct {
	mu      sync.Mutex
	max     int
	entries map[cacheSlot]*cacheEntry
}

func newCache(max int) *cache {
	return &cache{max: max, entries: map[cacheSlot]*cacheEntry{}}
}

func (c *cache) get(k cacheKey, fsys vfs.FS) (*Result, bool) {
	if c.max < 0 {
		return nil, false
	}
	c.mu.Lock()
	e, ok := c.entries[cacheSlot{k.module, k.root}]
	c.mu.Unlock()
	if !ok || e.key != k {
		return nil, false
	}
	// deps[0] is the module itself, already compared by hash
	for _, d := range e.deps {
		if d.Path == k.module && d.Kind == resolve.DepFile {
			continue
		}
		if !d.Holds(fsys) {
			return nil, false
		}
	}
	return e.result, true
}

func (c *cache) put(k cacheKey, r *Result, deps []resolve.Dep) {
	if c.max < 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	slot := cacheSlot{k.module, k.root}
	if _, ok := c.entries[slot]; !ok && len(c.entries) >= c.max {
		for s := range c.entries { // evict an arbitrary entry
			delete(c.entries, s)
			break
		}
	}
	c.entries[slot] = &cacheEntry{key: k, result: r, deps: deps}
}

// unchanged returns the cached result of module in root when none of the
// facts it was made from concerns a changed path: the path itself, a path
// under it (a folder deleted with its contents) or a folder above it (a
// folder created with a file in it).
func (c *cache) unchanged(module, root string, changed []string) (*Result, bool) {
	if c.max < 0 {
		return nil, false
	}
	c.mu.Lock()
	e, ok := c.entries[cacheSlot{module, root}]
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	for _, d := range e.deps {
		for _, p := range changed {
			if related(d.Path, p) {
				return nil, false
			}
		}
	}
	return e.result, true
}

// related reports whether a and b are the same clean path or one holds the
// other.
func related(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return a == b || strings.HasPrefix(b, a) && (b[len(a)] == filepath.Separator || a == string(filepath.Separator))
}
