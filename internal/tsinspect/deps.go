package tsinspect

import (
	"crypto/sha256"
	"sync"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// depKind is what the result of an inspection depended on.
type depKind int

const (
	depFile depKind = iota // a file's content (or its absence)
	depDir                 // whether a directory exists
	depStat                // whether a path exists as a file
)

// dep is one fact an inspection read. A cached result is valid while every
// dep still holds.
type dep struct {
	kind depKind
	path string
	hash [32]byte // depFile: content hash; zero with ok=false
	ok   bool     // exists
}

// tracker reads through the FS and records what it read, once per path.
type tracker struct {
	fsys vfs.FS
	mu   sync.Mutex
	deps []dep
	seen map[depKey]int
	// files caches contents read during one inspection
	files map[string][]byte
}

type depKey struct {
	kind depKind
	path string
}

func newTracker(fsys vfs.FS) *tracker {
	return &tracker{fsys: fsys, seen: map[depKey]int{}, files: map[string][]byte{}}
}

func (t *tracker) record(d dep) {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := depKey{d.kind, d.path}
	if _, ok := t.seen[k]; ok {
		return
	}
	t.seen[k] = len(t.deps)
	t.deps = append(t.deps, d)
}

// readFile reads and records a file. A missing or unreadable file records
// its absence.
func (t *tracker) readFile(path string) ([]byte, error) {
	t.mu.Lock()
	if c, ok := t.files[path]; ok {
		t.mu.Unlock()
		return c, nil
	}
	t.mu.Unlock()
	data, err := t.fsys.ReadFile(path)
	if err != nil {
		t.record(dep{kind: depFile, path: path})
		return nil, err
	}
	t.record(dep{kind: depFile, path: path, hash: sha256.Sum256(data), ok: true})
	t.mu.Lock()
	t.files[path] = data
	t.mu.Unlock()
	return data, nil
}

// isDir reports and records whether path is a directory.
func (t *tracker) isDir(path string) bool {
	info, err := t.fsys.Stat(path)
	ok := err == nil && info.IsDir()
	t.record(dep{kind: depDir, path: path, ok: ok})
	return ok
}

// isFile reports and records whether path is a regular file (or anything
// that is not a directory).
func (t *tracker) isFile(path string) bool {
	info, err := t.fsys.Stat(path)
	ok := err == nil && !info.IsDir()
	t.record(dep{kind: depStat, path: path, ok: ok})
	return ok
}

// holds reports whether d is still true on fsys.
func (d dep) holds(fsys vfs.FS) bool {
	switch d.kind {
	case depFile:
		data, err := fsys.ReadFile(d.path)
		if err != nil {
			return !d.ok
		}
		return d.ok && sha256.Sum256(data) == d.hash
	case depDir:
		info, err := fsys.Stat(d.path)
		return (err == nil && info.IsDir()) == d.ok
	case depStat:
		info, err := fsys.Stat(d.path)
		return (err == nil && !info.IsDir()) == d.ok
	}
	return false
}
