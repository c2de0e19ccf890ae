package analysis

import (
	"context"
	"maps"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// Session is the engine of a language server: every change enters it
// through Apply, which answers the project's Snapshot of the files as they
// are now. It owns what makes that cheap, between changes: the parse cache
// and the rules' memo (Cache), and for each project the results of its last
// module pass, from which a keystroke's snapshot gets its module findings
// without inspecting anything. A Session is safe for concurrent use.
type Session struct {
	cache *Cache
	insp  *tsinspect.Inspector

	mu sync.Mutex
	// modGen numbers the changes that may change a module inspection, and
	// modLog lists them with their paths: a module pass records the modGen
	// it read the modules at, and the next pass learns from the log which
	// paths changed since, to inspect again only the modules they concern
	// (one module edited at 10,000 tools costs one inspection). It must
	// remain beside the snapshots' Gen, which orders states of the files
	// but says nothing of what changed between two of them (a keystroke in
	// the manifest moves Gen and changes no module).
	modGen uint64
	modLog []modChange
	// told counts the Apply calls that told a change the caches care
	// about: a snapshot made before the last of them is not the snapshot
	// of its Gen any more (a file event or a setting may come without a
	// new Gen, and while a load of that Gen runs). It must remain: Gen
	// numbers the states of the files the caller passes, not what it told.
	told  uint64
	roots map[string]*rootState
}

// NewSession returns a session whose module passes inspect with insp
// (nil: no module is ever inspected).
func NewSession(insp *tsinspect.Inspector) *Session {
	return &Session{cache: NewCache(), insp: insp, roots: map[string]*rootState{}}
}

// Changes is what Apply is told: which project, the files as they are now,
// and what changed since the last Apply (of any project).
type Changes struct {
	Root string
	// FS reads the files as they are now (the disk with the editor's
	// buffers over it); Gen numbers that state: a later state has a higher
	// Gen, and two calls with one Gen must pass the same FS.
	FS  vfs.FS
	Gen uint64
	// Versions are the versions of the open documents in FS, by path.
	Versions map[string]int32
	// Files are the changes of files since the last Apply was told them
	// (each change is told once, to any project's Apply).
	Files []FileChange
	// InspectModules: module findings are wanted (the setting).
	InspectModules bool
	// Watched: every change of a file is told in Files (the client's file
	// watchers). Without it nothing says when a module is created or
	// deleted, and every load looks at the files again.
	Watched bool
}

// FileChange is one change of a file.
type FileChange struct {
	Path string // clean and absolute; "" with ChangeAnything
	Kind ChangeKind
}

// ChangeKind says what happened to a file, as far as the engine cares.
type ChangeKind int

const (
	// ChangeText: an editor buffer opened, edited or closed, over a file
	// that exists either way (on disk, or a YAML file).
	ChangeText ChangeKind = iota
	// ChangeBuffer: a buffer opened, edited or closed of a file that is
	// not on disk: while it is open, the file exists.
	ChangeBuffer
	// ChangeDisk, ChangeCreated, ChangeDeleted: on disk.
	ChangeDisk
	ChangeCreated
	ChangeDeleted
	// ChangeAnything: anything may have changed (a setting, the file
	// watchers registered).
	ChangeAnything
)

// modChange is one change that moved the module generation on: gen is the
// generation it moved to; path is the file ("" when anything may have
// changed).
type modChange struct {
	gen  uint64
	path string
}

// maxModLog bounds the change log; a module pass that needs older entries
// inspects every module.
const maxModLog = 4096

// rootState is what the session keeps of one project.
type rootState struct {
	mu sync.Mutex
	// latest is the newest snapshot made: written under mu, read without
	// it (Latest), so that a caller asking which files a project holds
	// never waits for a load or a reuse under way.
	latest   atomic.Pointer[Snapshot]
	loading  *loadCall           // the load in progress, if any
	lastGood map[string]*Project // by file: the newest load in which it parsed
	mods     moduleState
}

// loadCall is one load of a project from one state of the files, shared by
// every caller asking for that state at once (the YAML worker and the
// requests arriving together after a keystroke).
type loadCall struct {
	gen  uint64
	told uint64 // Session.told when it started
	done chan struct{}
	snap *Snapshot
	err  error
}

// Apply tells the session what changed (c.Files) and, when c.Root is set,
// returns that project's snapshot of c.FS: the one made already from
// c.Gen when no change was told since, else one load however many callers
// ask at once, its module findings made from the last module pass's results
// when no module can have changed since (else it is ModulesPending: see
// InspectModules). A caller that only tells (a notification on the
// reading goroutine: it must be quick) leaves c.Root empty and gets nil.
// The error is the load's: the manifest cannot be read, or ctx is done
// (the load stops soon after and keeps nothing: stop.go). Every caller
// sharing a load gets its error, so a caller passes a context that
// outlives its own request: the server's, done when the server stops.
func (s *Session) Apply(ctx context.Context, c Changes) (*Snapshot, error) {
	told := s.record(c.Files)
	if c.Root == "" {
		return nil, nil
	}
	root := filepath.Clean(c.Root)
	r := s.state(root)
	r.mu.Lock()
	if snap := r.latest.Load(); snap != nil && snap.Gen == c.Gen && snap.told == told {
		r.mu.Unlock()
		return snap, nil
	}
	if lc := r.loading; lc != nil && lc.gen == c.Gen && lc.told == told {
		r.mu.Unlock()
		<-lc.done
		return lc.snap, lc.err
	}
	lc := &loadCall{gen: c.Gen, told: told, done: make(chan struct{})}
	r.loading = lc
	r.mu.Unlock()
	defer close(lc.done)
	if !c.Watched {
		s.cache.FilesChanged()
	}
	proj, err := LoadCached(ctx, c.FS, root, s.cache)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.loading == lc {
		r.loading = nil
	}
	if err != nil {
		lc.err = err
		return nil, err
	}
	snap := &Snapshot{Root: root, Gen: c.Gen, Project: proj, pending: true, told: told, inspect: c.InspectModules, watched: c.Watched, versions: c.Versions}
	snap.lastGood = r.keepGood(proj, c.Gen)
	snap.modules = r.mods.inspected
	if c.InspectModules {
		if insp := s.reuseLocked(r, snap); insp != nil {
			snap.Inspection, snap.pending, snap.modules = insp, false, insp.Results
		}
	}
	r.storeLocked(snap)
	lc.snap = snap
	return snap, nil
}

// Latest returns the newest snapshot of root, nil when there is none.
func (s *Session) Latest(root string) *Snapshot {
	r := s.lookup(filepath.Clean(root))
	if r == nil {
		return nil
	}
	return r.latest.Load()
}

// Forget drops what the session keeps of root (its manifest is gone).
func (s *Session) Forget(root string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.roots, filepath.Clean(root))
}

func (s *Session) state(root string) *rootState {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.roots[root]
	if r == nil {
		r = &rootState{}
		s.roots[root] = r
	}
	return r
}

func (s *Session) lookup(root string) *rootState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.roots[root]
}

// storeLocked keeps snap as the latest unless a newer one is kept.
func (r *rootState) storeLocked(snap *Snapshot) {
	if latest := r.latest.Load(); latest == nil || snap.Gen >= latest.Gen {
		r.latest.Store(snap)
	}
}

// keepGood records the files that parsed in proj, loaded from gen, and
// returns the map for a snapshot (a copy when it changes: snapshots share
// it).
func (r *rootState) keepGood(proj *Project, gen uint64) map[string]*Project {
	if latest := r.latest.Load(); latest != nil && gen < latest.Gen {
		return r.lastGood // an older state: the newer loads' stay
	}
	next := r.lastGood
	copied := false
	for _, f := range proj.Files {
		if f.SyntaxError != nil || next[f.Path] == proj {
			continue
		}
		if !copied {
			next = maps.Clone(next)
			if next == nil {
				next = map[string]*Project{}
			}
			copied = true
		}
		next[f.Path] = proj
	}
	r.lastGood = next
	return next
}

// record applies changes of files to the caches and returns Session.told
// after them: the parse cache forgets a file changed on disk, the memo's
// path rules (T5, T6) run again when what exists may have changed, and the
// module log moves on for each change a module inspection may read. The
// text of a YAML buffer changes none of them (the load reads it anyway).
func (s *Session) record(changes []FileChange) (told uint64) {
	filesChanged, changed := false, false
	s.mu.Lock()
	for _, c := range changes {
		switch {
		case c.Kind == ChangeAnything:
			s.logModChangeLocked("")
			changed = true
		case !isYAMLPath(c.Path) || c.Kind == ChangeCreated || c.Kind == ChangeDeleted:
			s.logModChangeLocked(c.Path)
			changed = true
		}
		if c.Kind != ChangeText {
			filesChanged, changed = true, true
		}
	}
	for _, c := range changes {
		if c.Kind == ChangeDisk || c.Kind == ChangeCreated || c.Kind == ChangeDeleted {
			s.cache.Forget(c.Path)
		}
	}
	if filesChanged {
		s.cache.FilesChanged()
	}
	if changed {
		s.told++
	}
	told = s.told
	s.mu.Unlock()
	return told
}

func (s *Session) logModChangeLocked(path string) {
	s.modGen++
	if len(s.modLog) >= maxModLog {
		s.modLog = append(s.modLog[:0], s.modLog[maxModLog/2:]...)
	}
	s.modLog = append(s.modLog, modChange{gen: s.modGen, path: path})
}

func (s *Session) moduleGen() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.modGen
}

// modChangesSince returns the paths changed after module generation from,
// up to to; ok is false when that is not known (a change of anything, or a
// log that no longer reaches back that far).
func (s *Session) modChangesSince(from, to uint64) (paths []string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if from == to {
		return nil, true
	}
	if len(s.modLog) == 0 || s.modLog[0].gen > from+1 {
		return nil, false
	}
	for _, c := range s.modLog {
		if c.gen <= from || c.gen > to {
			continue
		}
		if c.path == "" {
			return nil, false
		}
		paths = append(paths, c.path)
	}
	return paths, true
}

func isYAMLPath(p string) bool {
	ext := strings.ToLower(filepath.Ext(p))
	return ext == ".yaml" || ext == ".yml"
}
