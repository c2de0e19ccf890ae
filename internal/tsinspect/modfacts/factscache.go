package modfacts

import (
	"crypto/sha256"
	"sync"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// factsKey identifies esbuild's facts about a content: they depend on the
// content, the loader and the JSX options only, so modules sharing a
// helper, and a module inspected again after a dependency changed, reuse
// them.
type factsKey struct {
	loader   int
	tsconfig string // esbuild's tsconfig (the JSX options)
	hash     [32]byte
}

// Cache keeps esbuild's facts (immutable once made) by content.
type Cache struct {
	mu      sync.Mutex
	max     int
	entries map[factsKey]Facts
}

func NewCache(max int) *Cache {
	return &Cache{max: max, entries: map[factsKey]Facts{}}
}

func (c *Cache) get(k factsKey) (Facts, bool) {
	if c.max < 0 {
		return Facts{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.entries[k]
	return f, ok
}

func (c *Cache) put(k factsKey, f Facts) {
	if c.max < 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[k]; !ok && len(c.entries) >= c.max {
		for old := range c.entries { // evict an arbitrary entry
			delete(c.entries, old)
			break
		}
	}
	c.entries[k] = f
}

// Of returns esbuild's facts about a file's content, from the
// facts cache when the same content was parsed with the same loader.
func (c *Cache) Of(file string, content []byte, jsx jsfront.JSXOptions) Facts {
	loader, tsconfig := jsfront.BuildOptions(file, jsx)
	k := factsKey{loader: int(loader), tsconfig: tsconfig, hash: sha256.Sum256(content)}
	if f, ok := c.get(k); ok {
		return f
	}
	f, _ := parseFile(file, content, loader, tsconfig)
	c.put(k, f)
	return f
}

// Parse parses a file for its syntax tree (nil when it does not parse),
// keeping its facts in the facts cache.
func (c *Cache) Parse(file string, content []byte, jsx jsfront.JSXOptions) (Facts, *jsfront.Tree) {
	loader, tsconfig := jsfront.BuildOptions(file, jsx)
	f, t := parseFile(file, content, loader, tsconfig)
	c.put(factsKey{loader: int(loader), tsconfig: tsconfig, hash: sha256.Sum256(content)}, f)
	return f, t
}
