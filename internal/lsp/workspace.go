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
//
// Each project has two workers of its own, started when it is registered
// and stopped (stop) when it is removed or the server stops: its YAML
// worker (yamlworker.go) and its module worker (moduleworker.go).
type project struct {
	root string
	stop context.CancelFunc // ends its workers

	wake    chan struct{} // capacity 1: it is dirty, for its YAML worker
	modWake chan struct{} // capacity 1: a module job is queued, for its module worker

	// The workers' state, guarded by workspace.mu.
	dirty      bool       // changed since its YAML worker last took it
	loading    bool       // its YAML worker is at work (pause included)
	burst      bool       // a change came in while it was at work
	modJob     *moduleJob // the snapshot waiting for its module pass
	inspecting bool       // its module worker is at work

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
// Each project has workers of its own, for as long as it is registered,
// so that a long analysis of one project never delays another's
// diagnostics. The YAML worker takes the project's snapshot of
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
	cond     *sync.Cond // broadcast when a worker is done, for waitIdle
	folders  []string
	projects map[string]*project
	scans    int // workspace scans that have not registered their projects yet
	removing int // projects unregistered whose diagnostics are not cleared yet

	// foldersSet: the client named workspace folders (or changed them);
	// folders are then the projects' bounds (folders.go).
	foldersSet bool
}

func newWorkspace(s *Server, disk *diskCache) *workspace {
	w := &workspace{
		s:        s,
		disk:     disk,
		projects: map[string]*project{},
	}
	w.cond = sync.NewCond(&w.mu)
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

// addProject registers a root (idempotent), starting its workers, and
// has it analysed.
func (w *workspace) addProject(root string) *project {
	root = filepath.Clean(root)
	w.mu.Lock()
	p := w.projects[root]
	var ctx context.Context // the new workers', done once stop is called
	if p == nil {
		p = &project{root: root, wake: make(chan struct{}, 1), modWake: make(chan struct{}, 1)}
		ctx, p.stop = context.WithCancel(w.s.bg)
		w.projects[root] = p
	}
	p.dirty = true
	w.mu.Unlock()
	if ctx != nil {
		w.s.goBackground("diagnostics", func(context.Context) { w.yamlWorker(ctx, p) })
		w.s.goBackground("module inspection", func(context.Context) { w.moduleWorker(ctx, p) })
	}
	kick(p.wake)
	return p
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
	if p := w.project(root); p != nil {
		return p
	}
	return w.addProject(root)
}

func isYAML(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".yaml" || ext == ".yml"
}

// removeProject forgets a project whose manifest is gone, stops its
// workers and clears its diagnostics.
func (w *workspace) removeProject(root string) {
	w.mu.Lock()
	p := w.projects[root]
	delete(w.projects, root)
	w.removing++
	w.mu.Unlock()
	if p != nil {
		p.stop()
	}
	w.eng.Forget(root)
	w.pub.dropRoot(root)
	// Idle only once the clearing publish is queued: an answer sent after
	// waitIdle then comes after it.
	w.mu.Lock()
	w.removing--
	w.cond.Broadcast()
	w.mu.Unlock()
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
	for w.scans > 0 || w.removing > 0 || w.busyLocked(withModules) {
		if err := ctx.Err(); err != nil {
			return err
		}
		w.cond.Wait()
	}
	return nil
}

// busyLocked reports whether a project has work pending or under way: its
// YAML pass, or also its module pass when withModules is set.
func (w *workspace) busyLocked(withModules bool) bool {
	for _, p := range w.projects {
		if p.dirty || p.loading || withModules && (p.modJob != nil || p.inspecting) {
			return true
		}
	}
	return false
}
