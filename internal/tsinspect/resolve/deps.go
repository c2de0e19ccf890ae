package resolve

import (
	"crypto/sha256"
	"sync"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// depKind is what the result of an inspection depended on.
type depKind int

const (
	DepFile depKind = iota // a file's content (or its absence)
	depDir                 // whether a directory exists
	depStat                // whether a path exists as a file
)

// Dep is one fact an inspection read. A cached result is valid while every
// dep still holds.
type Dep struct {
	Kind depKind
	Path string
	Hash [32]byte // DepFile: content hash; zero with ok=false
	OK   bool     // exists
}

// Tracker reads through the FS and records what it read, once per path.
type Tracker struct {
	fsys vfs.FS
	mu   sync.Mutex
	Deps []Dep
	seen map[depKey]int
	// files caches contents read during one inspection
	files map[string][]byte
}

type depKey struct {
	kind depKind
	path string
}

func NewTracker(fsys vfs.FS) *Tracker {
	return &Tracker{fsys: fsys, seen: map[depKey]int{}, files: map[string][]byte{}}
}

func (t *Tracker) Record(d Dep) {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := depKey{d.Kind, d.Path}
	if _, ok := t.seen[k]; ok {
		return
	}
	t.seen[k] = len(t.Deps)
	t.Deps = append(t.Deps, d)
}

// ReadFile reads and records a file. A missing or unreadable file records
// its absence.
func (t *Tracker) ReadFile(path string) ([]byte, error) {
	t.mu.Lock()
	if c, ok := t.files[path]; ok {
		t.mu.Unlock()
		return c, nil
	}
	t.mu.Unlock()
	data, err := t.fsys.ReadFile(path)
	if err != nil {
		t.Record(Dep{Kind: DepFile, Path: path})
		return nil, err
	}
	t.Record(Dep{Kind: DepFile, Path: path, Hash: sha256.Sum256(data), OK: true})
	t.mu.Lock()
	t.files[path] = data
	t.mu.Unlock()
	return data, nil
}

// IsDir reports and records whether path is a directory.
func (t *Tracker) IsDir(path string) bool {
	info, err := t.fsys.Stat(path)
	ok := err == nil && info.IsDir()
	t.Record(Dep{Kind: depDir, Path: path, OK: ok})
	return ok
}

// IsFile reports and records whether path is a regular file (or anything
// that is not a directory).
func (t *Tracker) IsFile(path string) bool {
	info, err := t.fsys.Stat(path)
	ok := err == nil && !info.IsDir()
	t.Record(Dep{Kind: depStat, Path: path, OK: ok})
	return ok
}

// Holds reports whether d is still true on fsys.
func (d Dep) Holds(fsys vfs.FS) bool {
	switch d.Kind {
	case DepFile:
		data, err := fsys.ReadFile(d.Path)
		if err != nil {
			return !d.OK
		}
		return d.OK && sha256.Sum256(data) == d.Hash
	case depDir:
		info, err := fsys.Stat(d.Path)
		return (err == nil && info.IsDir()) == d.OK
	case depStat:
		info, err := fsys.Stat(d.Path)
		return (err == nil && !info.IsDir()) == d.OK
	}
	return false
}
