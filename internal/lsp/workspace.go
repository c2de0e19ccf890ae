package lsp

import (
	"context"
	"io/fs"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/features"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// project is one beeuni.yaml root registered with the workspace. Its
// snapshots are the engine's (analysis.Session); the server keeps only the
// scan of its files for completion.
type project struct {
	root string

	mu   sync.Mutex
	repo *features.RepoFiles
}

// owns reports whether path is one of p's files, as its newest snapshot
// has them: its manifest, an imported file, or a tool module.
func (w *workspace) owns(p *project, path string) bool {
	if path == filepath.Join(p.root, analysis.ManifestName) {
		return true
	}
	latest := w.eng.Latest(p.root)
	return latest != nil && latest.Holds(path)
}

// awaits reports whether path is an import p names but could not read,
// as its newest snapshot has it: a buffer opened there, or a file created
// there (even outside p's folder), changes p.
func (w *workspace) awaits(p *project, path string) bool {
	latest := w.eng.Latest(p.root)
	return latest != nil && latest.Awaits(path)
}

// workspace is the registry of projects and the diagnostics pipeline: it
// tells the engine every change (changes.go), schedules the engine's work
// and publishes what it returns.
//
// Each project has workers of its own, started when it has work and ended
// when it has none, so that a long analysis of one project never delays
// another's diagnostics. The YAML worker takes the project's snapshot of
// the current view and publishes its findings at once; a burst of changes
// arriving while it works is coalesced into one more snapshot of the latest
// text. A snapshot whose module findings are pending goes to the module
// worker, which has the engine inspect the tool modules (rule T11) and
// publishes those findings after, so that a slow inspection never delays
// the YAML findings.
type workspace struct {
	s    *Server
	disk *diskCache
	eng  *analysis.Session // the engine: every change goes through its Apply
	pub  *publisher

	mu       sync.Mutex
	cond     *sync.Cond
	folders  []string
	projects map[string]*project
	dirty    map[string]bool
	yamlRuns map[string]*yamlRun // the projects whose YAML worker runs
	modJobs  map[string]moduleJob
	modRuns  map[string]bool // the projects whose module worker runs
	scans    int             // workspace scans that have not registered their projects yet

	yamlKick    chan struct{}
	yamlWorkers *parkedGoroutines // the goroutines the YAML workers run on
	modKick     chan struct{}
	started     bool

	// foldersSet: the client named workspace folders (or changed them);
	// folders are then the projects' bounds (folders.go).
	foldersSet bool
}

func newWorkspace(s *Server, disk *diskCache) *workspace {
	w := &workspace{
		s:        s,
		disk:     disk,
		projects: map[string]*project{},
		dirty:    map[string]bool{},
		yamlRuns: map[string]*yamlRun{},
		modJobs:  map[string]moduleJob{},
		modRuns:  map[string]bool{},
		yamlKick: make(chan struct{}, 1),
		modKick:  make(chan struct{}, 1),
	}
	w.cond = sync.NewCond(&w.mu)
	w.yamlWorkers = newParkedGoroutines(s, "diagnostics")
	// The result cache must hold every module of a large project (the
	// default keeps 4,096): an evicted module is inspected again by esbuild
	// whenever any module changes, seconds of work at 10,000 tools. A
	// cached result is the one the project's Inspection holds anyway.
	w.eng = analysis.NewSession(tsinspect.New(liveFS{s}, tsinspect.Options{
		CacheEntries: maxCachedModules,
		Parallelism:  max(1, runtime.GOMAXPROCS(0)-1),
		Yield:        func(ctx context.Context) { _ = s.interactive.yield(ctx, projectOf(ctx)) },
	}))
	w.pub = newPublisher(s)
	return w
}

// maxCachedModules bounds the module inspector's result cache.
const maxCachedModules = 1 << 16

// liveFS reads through the current view: the disk with the editor's
// buffers over it. The module inspector reads through it.
type liveFS struct{ s *Server }

func (l liveFS) fs() vfs.FS                              { return l.s.currentView().fs }
func (l liveFS) ReadFile(p string) ([]byte, error)       { return l.fs().ReadFile(p) }
func (l liveFS) Stat(p string) (fs.FileInfo, error)      { return l.fs().Stat(p) }
func (l liveFS) ReadDir(p string) ([]fs.DirEntry, error) { return l.fs().ReadDir(p) }
func (l liveFS) EvalSymlinks(p string) (string, error)   { return l.fs().EvalSymlinks(p) }

// start runs the workers; called once, at initialize.
func (w *workspace) start() {
	w.mu.Lock()
	if w.started {
		w.mu.Unlock()
		return
	}
	w.started = true
	w.mu.Unlock()
	w.s.goBackground("diagnostics", w.yamlLoop)
	w.s.goBackground("module inspection", w.moduleLoop)
}

func kick(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// scanStarted and scanDone bracket a workspace scan, so that waitIdle
// waits for the projects it finds.
func (w *workspace) scanStarted() {
	w.mu.Lock()
	w.scans++
	w.mu.Unlock()
}

func (w *workspace) scanDone() {
	w.mu.Lock()
	w.scans--
	w.cond.Broadcast()
	w.mu.Unlock()
}

// addProject registers a root (idempotent) and marks it dirty.
func (w *workspace) addProject(root string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.addProjectLocked(root)
	kick(w.yamlKick)
}

func (w *workspace) addProjectLocked(root string) {
	root = filepath.Clean(root)
	if w.projects[root] == nil {
		w.projects[root] = &project{root: root}
	}
	w.dirty[root] = true
}

// project returns the registered project of root, or nil.
func (w *workspace) project(root string) *project {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.projects[root]
}

func (w *workspace) allProjects() []*project {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]*project, 0, len(w.projects))
	for _, p := range w.projects {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].root < out[j].root })
	return out
}

// ownerOf returns the project path belongs to: among the projects that
// own it, the one with the nearest root above it. A YAML file no loaded
// project owns is looked up by its nearest beeuni.yaml, which registers
// that project. It returns nil when path belongs to no project.
func (w *workspace) ownerOf(v *view, path string) *project {
	var best *project
	for _, p := range w.allProjects() {
		if !w.owns(p, path) {
			continue
		}
		if best == nil || vfs.Within(best.root, p.root) && vfs.Within(p.root, path) {
			best = p
		}
	}
	if best != nil {
		return best
	}
	if !isYAML(path) {
		return nil
	}
	root, ok := analysis.FindRoot(v.fs, path)
	if !ok {
		return nil
	}
	w.mu.Lock()
	p := w.projects[root]
	if p == nil {
		w.addProjectLocked(root)
		p = w.projects[root]
		kick(w.yamlKick)
	}
	w.mu.Unlock()
	return p
}

func isYAML(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".yaml" || ext == ".yml"
}

// removeProject forgets a project whose manifest is gone and clears its
// diagnostics.
func (w *workspace) removeProject(root string) {
	w.mu.Lock()
	delete(w.projects, root)
	delete(w.dirty, root)
	delete(w.modJobs, root)
	w.mu.Unlock()
	w.eng.Forget(root)
	w.pub.dropRoot(root)
}

// waitIdle waits until no analysis is pending or running (tests and the
// first-scan progress use it).
func (w *workspace) waitIdle(ctx context.Context, withModules bool) error {
	stop := context.AfterFunc(ctx, func() {
		w.mu.Lock()
		w.cond.Broadcast()
		w.mu.Unlock()
	})
	defer stop()
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.scans > 0 || len(w.dirty) > 0 || len(w.yamlRuns) > 0 || withModules && (len(w.modJobs) > 0 || len(w.modRuns) > 0) {
		if err := ctx.Err(); err != nil {
			return err
		}
		w.cond.Wait()
	}
	return nil
}
