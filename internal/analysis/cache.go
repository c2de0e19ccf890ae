package analysis

import (
	"bytes"
	"path/filepath"
	"sync"
)

// Cache keeps parsed files between loads, so that a language server that
// reloads the project on every keystroke re-parses only the files whose
// content changed. An entry is keyed by the file's path and reused only when
// the content is byte-for-byte the same; a changed file is parsed again by
// chunks, reusing the chunks whose bytes did not change (chunkparse.go). A Cache is safe for concurrent use;
// the zero value is not: use NewCache.
type Cache struct {
	mu    sync.Mutex
	files map[string]*parsed
	// filesGen counts FilesChanged calls; memos hold the outcomes of one
	// project's entry rules (memo.go), by project root, each for the
	// filesGen it was made in. A load takes its project's memo out while
	// it runs, so that concurrent loads never share one.
	filesGen uint64
	memos    map[string]*resolveMemo
	parses   uint64 // parses made, to number them
	// chunkLines is the chunk size of the chunked parse (0: chunkTarget;
	// tests cut small files into many chunks).
	chunkLines int
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{files: map[string]*parsed{}, memos: map[string]*resolveMemo{}}
}

// FilesChanged tells the cache that files other than the YAML files it
// parsed may have changed: created, deleted, replaced by a link, opened or
// closed in an editor. The rules that read the files around the manifests
// (rule.go's ReadsFiles: T5's links, T6's modules) then run again for every
// entry they checked, the others keep their outcomes; a caller that cannot
// tell when files change calls it before every load.
func (c *Cache) FilesChanged() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.filesGen++
}

// takeMemo returns root's memo for a load by rules, removed from the cache
// until putMemo (a concurrent load of root gets a fresh one); nil without a
// cache. A memo made before FilesChanged loses what read the files.
func (c *Cache) takeMemo(root string, rules *ruleSet) *resolveMemo {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.memos[root]
	delete(c.memos, root)
	switch {
	case m == nil || m.rules != rules:
		m = newResolveMemo(c.filesGen, rules)
	case m.filesGen != c.filesGen:
		m.filesChanged(c.filesGen)
	}
	m.startLoad()
	return m
}

// putMemo gives a memo back after a load (one that ran while the files
// changed is put back too: the next takeMemo drops what read them).
func (c *Cache) putMemo(root string, m *resolveMemo) {
	if c == nil || m == nil {
		return
	}
	m.prune()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.memos[root] = m
}

// parse returns the parse of the file at p with content: the cached one
// when the content is the same, else a new one (by chunks from the cached
// one), which it caches. The error is stop's: a parse stopped is neither
// cached nor returned.
func (c *Cache) parse(stop *stopper, p string, content []byte) (*parsed, error) {
	if c == nil {
		if pr := parseFile(stop, p, content); pr != nil {
			return pr, nil
		}
		return nil, stop.stoppedErr()
	}
	c.mu.Lock()
	old := c.files[p]
	c.mu.Unlock()
	if old != nil && bytes.Equal(old.text, content) {
		return old, nil
	}
	prev := old
	if prev == nil {
		prev = &parsed{}
	}
	target := c.chunkLines
	if target <= 0 {
		target = chunkTarget
	}
	np := parseFileAfter(stop, p, content, prev, target)
	if np == nil {
		return nil, stop.stoppedErr()
	}
	c.mu.Lock()
	c.parses++
	np.id = c.parses
	c.files[p] = np
	c.mu.Unlock()
	return np, nil
}

// Forget drops the cached parse of path (for example when its file is
// deleted).
func (c *Cache) Forget(p string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.files, filepath.Clean(p))
}
