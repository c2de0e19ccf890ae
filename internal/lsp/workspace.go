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

// project is one beeuni.yaml root and what the server knows of it.
type project struct {
	root string

	mu       sync.Mutex
	loaded   *analysis.Project // the latest load
	gen      uint64            // the view generation it was loaded from
	lastGood map[string]*analysis.Project
	insp     *analysis.Inspection
	// inspGen is the view generation of the load insp was made for, and
	// inspModGen the workspace's module generation when its modules were
	// read: while that is still current, no module changed and a new load
	// reuses the results (reuseInspection).
	inspGen    uint64
	inspModGen uint64
	// inspected holds the results of the last module pass, which reuse
	// draws from: a reused inspection keeps only the modules its load
	// declares, and a tool that disappears for one keystroke (a typo in
	// its key) must not cost a module pass when it comes back.
	inspected map[string]*tsinspect.Result
	// inspectedSeq counts the module passes that replaced inspected, and
	// bases are what the inspections reused since are made from
	// (analysis.ModuleBase over inspected's results), the latest first,
	// for the module pass basesSeq says. Two are kept: a typo in a tool's
	// key takes its module out of the model for a keystroke, and the next
	// keystroke brings it back.
	inspectedSeq uint64
	bases        [2]moduleBase
	basesSeq     uint64
	repo         *features.RepoFiles
	loading      *loadCall // the load in progress, if any
}

func (p *project) latest() (*analysis.Project, uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.loaded, p.gen
}

func (p *project) inspection() *analysis.Inspection {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.insp
}

// store keeps a load if it is not older than the one kept.
func (p *project) store(proj *analysis.Project, gen uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.loaded != nil && gen < p.gen {
		return
	}
	p.loaded, p.gen = proj, gen
	if p.lastGood == nil {
		p.lastGood = map[string]*analysis.Project{}
	}
	for _, f := range proj.Files {
		if f.SyntaxError == nil {
			p.lastGood[f.Path] = proj
		}
	}
}

// owns reports whether path is one of the project's files: its manifest,
// an imported file, or a tool module.
func (p *project) owns(path string) bool {
	if path == filepath.Join(p.root, analysis.ManifestName) {
		return true
	}
	proj, _ := p.latest()
	return proj != nil && holds(proj, path)
}

// holds reports whether path is one of proj's files: a loaded YAML file
// (the manifest, an imported file) or a tool module.
func holds(proj *analysis.Project, path string) bool {
	if proj.File(path) != nil {
		return true
	}
	if proj.Model != nil {
		for _, t := range proj.Model.Tools {
			if t.Module == path {
				return true
			}
		}
	}
	return false
}

// workspace is the registry of projects and the diagnostics pipeline.
//
// Each project has workers of its own, started when it has work and ended
// when it has none, so that a long analysis of one project never delays
// another's diagnostics. The YAML worker loads the project and publishes
// its findings at once; a burst of changes arriving while it works is
// coalesced into one more load of the latest text. It then hands the
// project to the module worker, which inspects the tool modules (rule T11)
// and publishes those findings after, so that a slow inspection never
// delays the YAML findings.
type workspace struct {
	s     *Server
	disk  *diskCache
	cache *analysis.Cache
	insp  *tsinspect.Inspector
	pub   *publisher

	mu       sync.Mutex
	cond     *sync.Cond
	folders  []string
	projects map[string]*project
	dirty    map[string]bool
	yamlRuns map[string]*yamlRun // the projects whose YAML worker runs
	modJobs  map[string]moduleJob
	modRuns  map[string]bool // the projects whose module worker runs
	scans    int             // workspace scans that have not registered their projects yet
	// modGen counts the changes that may change a module inspection: any
	// file but a YAML file edited, closed or saved (modules, packages,
	// .gitignore, files created or deleted), and settings; modLog lists
	// those changes since the oldest a module pass may still need (see
	// inspectModules).
	modGen uint64
	modLog []modChange

	yamlKick chan struct{}
	modKick  chan struct{}
	started  bool

	// foldersSet: the client named workspace folders (or changed them);
	// folders are then the projects' bounds (folders.go).
	foldersSet bool
}

func newWorkspace(s *Server, disk *diskCache) *workspace {
	w := &workspace{
		s:        s,
		disk:     disk,
		cache:    analysis.NewCache(),
		projects: map[string]*project{},
		dirty:    map[string]bool{},
		yamlRuns: map[string]*yamlRun{},
		modJobs:  map[string]moduleJob{},
		modRuns:  map[string]bool{},
		yamlKick: make(chan struct{}, 1),
		modKick:  make(chan struct{}, 1),
	}
	w.cond = sync.NewCond(&w.mu)
	// The result cache must hold every module of a large project (the
	// default keeps 4,096): an evicted module is inspected again by esbuild
	// whenever any module changes, seconds of work at 10,000 tools. A
	// cached result is the one the project's Inspection holds anyway.
	w.insp = tsinspect.New(liveFS{s}, tsinspect.Options{
		CacheEntries: maxCachedModules,
		Parallelism:  max(1, runtime.GOMAXPROCS(0)-1),
		Yield:        func(ctx context.Context) { _ = s.interactive.yield(ctx, projectOf(ctx)) },
	})
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
		if !p.owns(path) {
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
