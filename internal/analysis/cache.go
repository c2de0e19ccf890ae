package analysis

import (
	"path/filepath"
	"sync"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"go.yaml.in/yaml/v3"
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
	// scratch is the parses' working storage, lent to one parse at a time
	// (nil while lent: a concurrent parse makes its own).
	scratch *parseScratch
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
// cached nor returned, and the scratch it had is not given back.
func (c *Cache) parse(stop *stopper, p string, content *diag.Text) (*parsed, error) {
	if c == nil {
		if pr := parseFile(stop, p, content); pr != nil {
			return pr, nil
		}
		return nil, stop.stoppedErr()
	}
	c.mu.Lock()
	old := c.files[p]
	c.mu.Unlock()
	if old != nil && old.text.Equal(content) {
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
	c.mu.Lock()
	s := c.scratch
	c.scratch = nil
	c.mu.Unlock()
	if s == nil {
		s = &parseScratch{}
	}
	np := parseFileAfter(stop, p, content, prev, target, s)
	if np == nil {
		return nil, stop.stoppedErr()
	}
	c.mu.Lock()
	c.scratch = s
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

// parseScratch is working storage of a parse that the parse does not keep:
// the chunked parse's line table (a 10,000-tool manifest has 10,000 lines),
// which the next split brings up to date (chunklines.go), the tree's map
// of a large agents mapping's names, and the duplicate-key check's indexes
// of each file's large mappings (keyIndex: the tools: mapping's 10,000
// keys), which the next parse of the file brings up to date. The Cache
// lends one to each parse it makes and takes it back after, so that a
// keystroke updates them instead of allocating them anew (about 0.9 MB at
// 10,000 tools). The map is empty between uses and the line table holds
// no pointer; the content last split and the indexes' key nodes are the
// last parse's, which the Cache holds anyway (the content split before it,
// which the edit holds, is dropped when the parse ends). A nil *parseScratch lends
// nothing: each use allocates.
type parseScratch struct {
	// lines is the line table of linesOf, the content last split (linesOf
	// is nil after a split that stopped: the table is not whole), for the
	// next split to keep the lines an edit did not touch.
	lines   []lineInfo
	linesOf *diag.Text
	// edit is how the content last split differs from the one split
	// before it (see splitEdit), while the parse that split runs.
	edit splitEdit
	keys map[string]*yaml.Node
	// indexes are the key indexes of each file's large mappings in its
	// last parse, for the duplicate-key check (keyIndex); madeIndexes those
	// of the parse running.
	indexes     map[string][]*keyIndex
	madeIndexes []*keyIndex
}

// keyMap returns an empty map for about n keys, to be cleared after use:
// the scratch's (made on first use) or, without a scratch, a new one.
func (s *parseScratch) keyMap(n int) map[string]*yaml.Node {
	if s == nil {
		return make(map[string]*yaml.Node, n)
	}
	if s.keys == nil {
		s.keys = make(map[string]*yaml.Node, n)
	}
	return s.keys
}
