package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/features"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// changeKind says what happened to a file.
type changeKind int

const (
	changeBuffer  changeKind = iota // opened or edited in the editor
	changeClosed                    // closed in the editor
	changeCreated                   // created on disk
	changeDisk                      // changed on disk
	changeDeleted                   // deleted on disk
)

// moduleBase is a ModuleBase and the modules of the last load it served.
type moduleBase struct {
	base  *analysis.ModuleBase
	tools *analysis.ToolModules
}

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

// yamlRun is the state of one project's YAML worker.
type yamlRun struct {
	lastLoad time.Duration // its last load, for the adaptive pause
	burst    bool          // a change came in while it loaded
}

type moduleJob struct {
	v    *view
	proj *analysis.Project
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
		Yield:        func(ctx context.Context) { _ = s.interactive.yield(ctx) },
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

// changed routes a change of files to the projects it concerns and wakes
// the YAML worker.
func (w *workspace) changed(paths []string, kind changeKind) {
	v := w.s.currentView()
	for _, path := range paths {
		path = filepath.Clean(path)
		if !isYAML(path) || kind == changeCreated || kind == changeDeleted {
			w.mu.Lock()
			w.modGen++
			w.logModChangeLocked(path)
			w.mu.Unlock()
		}
		if w.mayChangeFiles(path, kind) {
			// Files around the manifests may have changed (a module
			// created or deleted, or a buffer of a file that is not on
			// disk opened or closed): the engine's memoized path rules
			// (T5, T6) run again.
			w.cache.FilesChanged()
		}
		if kind >= changeCreated {
			w.disk.forget(path)
			w.cache.Forget(path)
		}
		marked := false
		for _, p := range w.allProjects() {
			concerned := p.owns(path)
			if !concerned && kind >= changeCreated && vfs.Within(p.root, path) {
				// A file created or deleted inside a project may be a
				// missing module or import, or a package a module needs.
				concerned = true
				p.mu.Lock()
				p.repo = nil
				p.mu.Unlock()
			}
			if concerned {
				w.markDirty(p.root)
				marked = true
			}
		}
		if filepath.Base(path) == analysis.ManifestName && kind != changeDeleted && !skippedByScan(path) && (kind == changeBuffer || w.inWorkspace(filepath.Dir(path))) {
			if _, err := v.fs.Stat(path); err == nil {
				w.addProject(filepath.Dir(path))
				marked = true
			}
		}
		if !marked && kind == changeBuffer {
			w.ownerOf(v, path)
		}
		if kind == changeClosed {
			// A closed file that is not on disk loses its diagnostics
			// (its project, if any, reloads and drops them too).
			if _, err := v.fs.Stat(path); err != nil {
				w.pub.forgetFile(path)
			}
		}
	}
	kick(w.yamlKick)
}

// mayChangeFiles reports whether a change of path can change what exists
// for the engine's path rules. Changes on disk can. A buffer opened, edited
// or closed in the editor changes nothing of the sort when its file is on
// disk (the buffer shadows a file that exists either way), nor when it is a
// YAML file (no module is one); a buffer of a module not saved yet makes the
// module exist while it is open.
func (w *workspace) mayChangeFiles(path string, kind changeKind) bool {
	if kind != changeBuffer && kind != changeClosed {
		return true
	}
	if isYAML(path) && kind == changeBuffer {
		return false
	}
	_, err := w.disk.Stat(path)
	return err != nil
}

// modChange is one change that moved the module generation on: gen is the
// generation it moved to; path is the file ("" when anything may have
// changed, such as settings).
type modChange struct {
	gen  uint64
	path string
}

// maxModLog bounds the change log; a module pass that needs older entries
// inspects every module as before.
const maxModLog = 4096

func (w *workspace) logModChangeLocked(path string) {
	if len(w.modLog) >= maxModLog {
		w.modLog = append(w.modLog[:0], w.modLog[maxModLog/2:]...)
	}
	w.modLog = append(w.modLog, modChange{gen: w.modGen, path: path})
}

// modChangesSince returns the paths changed after module generation from,
// up to to; ok is false when that is not known (a change of anything, or a
// log that no longer reaches back that far).
func (w *workspace) modChangesSince(from, to uint64) (paths []string, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if from == to {
		return nil, true
	}
	if len(w.modLog) == 0 || w.modLog[0].gen > from+1 {
		return nil, false
	}
	for _, c := range w.modLog {
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

func (w *workspace) markDirty(root string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.projects[root] != nil {
		w.dirty[root] = true
		if r := w.yamlRuns[root]; r != nil {
			r.burst = true
		}
	}
}

// markAllDirty reanalyses every project (settings changed).
func (w *workspace) markAllDirty() {
	w.mu.Lock()
	for root := range w.projects {
		w.dirty[root] = true
	}
	w.modGen++
	w.logModChangeLocked("") // anything may have changed
	w.mu.Unlock()
	w.cache.FilesChanged()
	kick(w.yamlKick)
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

// yamlLoop starts a YAML worker for each dirty project that has none
// running (one that runs picks its project up again when done).
func (w *workspace) yamlLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.yamlKick:
		}
		w.mu.Lock()
		for root := range w.dirty {
			if w.yamlRuns[root] != nil {
				continue
			}
			run := &yamlRun{}
			w.yamlRuns[root] = run
			w.s.goBackground("diagnostics", func(ctx context.Context) { w.projectYAMLLoop(ctx, root, run) })
		}
		w.mu.Unlock()
	}
}

// projectYAMLLoop is the YAML worker of one project: it loads the project
// while it is dirty, then ends.
func (w *workspace) projectYAMLLoop(ctx context.Context, root string, run *yamlRun) {
	// A user waits for this project's diagnostics: module inspection
	// steps aside until they are published (priority.go).
	defer w.s.interactive.begin()()
	defer func() {
		w.mu.Lock()
		if w.yamlRuns[root] == run {
			delete(w.yamlRuns, root)
		}
		if w.dirty[root] {
			kick(w.yamlKick) // dirtied after the last look, or a panic
		}
		w.cond.Broadcast()
		w.mu.Unlock()
	}()
	for ctx.Err() == nil {
		w.mu.Lock()
		if !w.dirty[root] {
			w.mu.Unlock()
			return
		}
		// Adaptive pause: a change that arrived while the last load ran
		// means a burst of keystrokes is coming in; when loads are slow,
		// wait a little so that the rest of the burst costs one load. A
		// change that finds the worker idle is analysed at once.
		pause := time.Duration(0)
		if run.burst {
			pause = run.lastLoad / 2
		}
		run.burst = false
		w.mu.Unlock()
		if pause > 2*time.Millisecond {
			select {
			case <-ctx.Done():
				return
			// Capped at 10 ms: every millisecond of pause is latency the
			// keystroke budget pays (p95 60 ms at 10,000 tools, see
			// docs/performance.md), and a slow load coalesces a burst by
			// itself.
			case <-time.After(min(pause, 10*time.Millisecond)):
			}
		}
		w.mu.Lock()
		delete(w.dirty, root)
		w.mu.Unlock()
		start := time.Now()
		w.analyze(ctx, w.s.currentView(), root)
		w.mu.Lock()
		run.lastLoad = time.Since(start)
		w.cond.Broadcast()
		w.mu.Unlock()
	}
}

// analyze loads one project from v, publishes its YAML findings and queues
// its module inspection.
func (w *workspace) analyze(ctx context.Context, v *view, root string) {
	p := w.project(root)
	if p == nil {
		return
	}
	proj, err := w.loadAt(v, p)
	if err != nil {
		w.s.tracef("project %s: %v", root, err)
		w.removeProject(root)
		if errors.Is(err, fs.ErrNotExist) {
			w.s.logToClient(protocol.MessageTypeInfo, fmt.Sprintf("beeuni-lsp: %s no longer exists: its diagnostics are cleared", filepath.Join(root, analysis.ManifestName)))
		} else {
			// Unreadable (permissions, a folder, too large): say so.
			w.s.notify(protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: "Beeuni: " + err.Error()})
		}
		return
	}
	if insp := w.reuseInspection(p, proj, v.gen, true); insp != nil {
		// No module changed: publish the YAML findings and the module
		// findings together, so that T11 never flickers, and inspect
		// nothing.
		w.pub.setYAMLAndModules(v, proj, insp)
		return
	}
	w.pub.setYAML(v, proj)
	w.mu.Lock()
	w.modJobs[root] = moduleJob{v: v, proj: proj}
	w.mu.Unlock()
	kick(w.modKick)
}

// reuseInspection returns proj's module inspection made from the results
// of the last one, when no module can have changed since it read them and
// it covers every module proj declares (a keystroke in beeuni.yaml then
// costs no inspection and no disk read); else nil. With dropQueued (proj is
// the newest load) it drops a queued module job of the project, which the
// returned inspection supersedes.
//
// The inspection is made from the project's analysis.ModuleBase, kept
// while proj declares the same modules in the same order (a keystroke
// rarely changes them), so that a keystroke only places T11 again.
func (w *workspace) reuseInspection(p *project, proj *analysis.Project, gen uint64, dropQueued bool) *analysis.Inspection {
	if !w.s.currentSettings().InspectModules {
		return nil
	}
	w.mu.Lock()
	modGen := w.modGen
	w.mu.Unlock()
	p.mu.Lock()
	prev, prevModGen, seq := p.inspected, p.inspModGen, p.inspectedSeq
	bases := p.bases
	if p.basesSeq != seq {
		bases = [2]moduleBase{}
	}
	p.mu.Unlock()
	if prev == nil || prevModGen != modGen {
		return nil
	}
	var insp *analysis.Inspection
	var base *analysis.ModuleBase
	var tools *analysis.ToolModules
	if w.disk.on() {
		for i, b := range bases {
			if b.base != nil && b.tools.Same(proj) {
				// The modules of a recent load, tool for tool: they
				// were listed then, and no file was created or deleted
				// since (that moves the module generation on).
				base, tools = b.base, b.tools
				bases[0], bases[i] = bases[i], bases[0]
				insp = base.InspectionWith(proj, tools)
				break
			}
		}
	}
	if insp == nil {
		base = bases[0].base
		if base != nil {
			same, ok := w.sameModules(proj, prev, base)
			if !ok {
				return nil
			}
			if !same {
				base = nil
			}
		}
		if base == nil {
			modules, ok := w.knownModules(proj, prev)
			if !ok {
				return nil
			}
			b, complete := analysis.NewModuleBase(modules, prev)
			if !complete {
				return nil
			}
			base = b
		}
		tools = base.ToolModules(proj)
		insp = base.InspectionWith(proj, tools)
		if bases[0].base != nil && bases[0].base != base {
			bases[1] = bases[0]
		}
		bases[0] = moduleBase{base, tools}
	}
	p.mu.Lock()
	if gen < p.inspGen {
		p.mu.Unlock()
		return nil
	}
	p.insp, p.inspGen = insp, gen
	if p.inspectedSeq == seq {
		p.bases, p.basesSeq = bases, seq
	}
	p.mu.Unlock()
	if dropQueued {
		w.mu.Lock()
		delete(w.modJobs, p.root)
		w.mu.Unlock()
	}
	return insp
}

// sameModules reports whether knownModules(proj, prev) would list exactly
// base's modules, without building the list: each module proj declares is
// base's next one, one declared again, or one prev lacks that is no file
// (T6 reports it). ok is false, as knownModules says, when a module prev
// lacks exists.
func (w *workspace) sameModules(proj *analysis.Project, prev map[string]*tsinspect.Result, base *analysis.ModuleBase) (same, ok bool) {
	if !w.disk.on() {
		return slices.Equal(analysis.ModulePaths(proj, w.insp), base.Modules()), true
	}
	if proj == nil || proj.Model == nil {
		return base.Len() == 0, true
	}
	next := 0 // base's modules matched so far
	for _, t := range proj.Model.Tools {
		if t.Module == "" {
			continue
		}
		if at, in := base.Position(t.Module); in {
			switch {
			case at == next:
				next++
			case at > next:
				return false, true // declared in another order
			}
			continue // at < next: declared again
		}
		if prev[t.Module] != nil {
			return false, true // inspected, but not in the base
		}
		if w.insp.IsFile(t.Module) {
			return false, false
		}
	}
	return next == base.Len(), true
}

// knownModules lists proj's modules as analysis.ModulePaths does, without
// a Stat for the modules prev holds when the file watchers are on: they
// were files when inspected, and a file created or deleted since would have
// moved the module generation on. ok is false when a module prev lacks
// exists (it needs a module pass).
func (w *workspace) knownModules(proj *analysis.Project, prev map[string]*tsinspect.Result) (modules []string, ok bool) {
	if !w.disk.on() {
		// Without watchers nothing says a module was deleted: look.
		return analysis.ModulePaths(proj, w.insp), true
	}
	if proj == nil || proj.Model == nil {
		return nil, true
	}
	modules = make([]string, 0, len(proj.Model.Tools))
	seen := make(map[string]bool, len(proj.Model.Tools))
	for _, t := range proj.Model.Tools {
		if t.Module == "" || seen[t.Module] {
			continue
		}
		seen[t.Module] = true
		if prev[t.Module] == nil {
			if w.insp.IsFile(t.Module) {
				return nil, false
			}
			continue // T6 reports it
		}
		modules = append(modules, t.Module)
	}
	return modules, true
}

// moduleLoop starts a module worker for each project with a queued
// module job and none running (one that runs picks its next job up when
// done), so that a long inspection of one project never delays another's.
func (w *workspace) moduleLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.modKick:
		}
		w.mu.Lock()
		for root := range w.modJobs {
			if w.modRuns[root] {
				continue
			}
			w.modRuns[root] = true
			w.s.goBackground("module inspection", func(ctx context.Context) { w.projectModuleLoop(ctx, root) })
		}
		w.mu.Unlock()
	}
}

// projectModuleLoop is the module worker of one project: it runs the
// project's queued module jobs, the latest each time, then ends.
func (w *workspace) projectModuleLoop(ctx context.Context, root string) {
	defer func() {
		w.mu.Lock()
		delete(w.modRuns, root)
		if _, queued := w.modJobs[root]; queued {
			kick(w.modKick) // queued after the last look, or a panic
		}
		w.cond.Broadcast()
		w.mu.Unlock()
	}()
	for ctx.Err() == nil {
		w.mu.Lock()
		job, ok := w.modJobs[root]
		delete(w.modJobs, root)
		w.mu.Unlock()
		if !ok {
			return
		}
		w.runModuleJob(ctx, root, job)
	}
}

// runModuleJob inspects the modules of one load of a project and
// publishes their findings, unless a newer load reused newer results.
func (w *workspace) runModuleJob(ctx context.Context, root string, job moduleJob) {
	inspect := w.s.currentSettings().InspectModules
	if p := w.project(root); p != nil && inspect {
		p.mu.Lock()
		stale := job.v.gen < p.inspGen // a newer load reused newer results
		p.mu.Unlock()
		if stale {
			return // what a pass would find, after the pass
		}
		// Queued while a module pass ran (the load could not reuse it
		// yet): now that the pass is done, its results may cover the
		// job's modules, unchanged since.
		if insp := w.reuseInspection(p, job.proj, job.v.gen, false); insp != nil {
			w.pub.setModules(job.v, job.proj, insp)
			return
		}
	}
	w.mu.Lock()
	modGen := w.modGen
	w.mu.Unlock()
	var insp *analysis.Inspection
	if inspect {
		insp = w.inspectModules(ctx, root, job.proj, modGen)
	}
	if ctx.Err() != nil {
		return
	}
	if p := w.project(root); p != nil {
		p.mu.Lock()
		stale := job.v.gen < p.inspGen // a newer load reused newer results
		if !stale {
			p.insp, p.inspGen, p.inspModGen = insp, job.v.gen, modGen
			p.inspected = nil
			if insp != nil {
				p.inspected = insp.Results
			}
			p.inspectedSeq++
			p.bases = [2]moduleBase{}
		}
		p.mu.Unlock()
		if !stale {
			w.pub.setModules(job.v, job.proj, insp)
		}
	}
}

// inspectModules is a module pass over proj, at module generation modGen:
// with file watchers, and the paths changed since the project's last pass
// known, only the modules those paths concern are inspected again (a
// module edit at 10,000 tools then costs one inspection, not a check of
// every module); else every module.
func (w *workspace) inspectModules(ctx context.Context, root string, proj *analysis.Project, modGen uint64) *analysis.Inspection {
	if p := w.project(root); p != nil && w.disk.on() {
		p.mu.Lock()
		prev, prevGen := p.inspected, p.inspModGen
		p.mu.Unlock()
		if prev != nil {
			if changed, ok := w.modChangesSince(prevGen, modGen); ok {
				return analysis.InspectModulesAfter(ctx, proj, w.insp, prev, changed)
			}
		}
	}
	return analysis.InspectModules(ctx, proj, w.insp)
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

// loadCall is one load of a project from one view, shared by every
// caller that needs that view (the YAML worker and requests arriving
// together after a keystroke).
type loadCall struct {
	gen  uint64
	done chan struct{}
	proj *analysis.Project
	err  error
}

// loadAt returns p loaded from v: the kept load when it was made from v,
// else one load however many callers ask at once (kept if newer). The
// load is not tied to one request's cancellation, since others share it.
func (w *workspace) loadAt(v *view, p *project) (*analysis.Project, error) {
	p.mu.Lock()
	if p.loaded != nil && p.gen == v.gen {
		proj := p.loaded
		p.mu.Unlock()
		return proj, nil
	}
	if c := p.loading; c != nil && c.gen == v.gen {
		p.mu.Unlock()
		<-c.done
		return c.proj, c.err
	}
	c := &loadCall{gen: v.gen, done: make(chan struct{})}
	p.loading = c
	p.mu.Unlock()
	if !w.disk.on() {
		// Without file watchers nothing says when a module is created
		// or deleted: the path rules look at the files on every load.
		w.cache.FilesChanged()
	}
	c.proj, c.err = analysis.LoadCached(w.s.bg, v.fs, p.root, w.cache)
	if c.err == nil {
		p.store(c.proj, v.gen)
	}
	p.mu.Lock()
	if p.loading == c {
		p.loading = nil
	}
	p.mu.Unlock()
	close(c.done)
	return c.proj, c.err
}

// load returns the project of path as of view v: the latest load when it
// was made from v, else a fresh load from v (kept if newer). fallback is
// the last load in which path parsed, for features that keep working on a
// file with a syntax error.
func (w *workspace) load(ctx context.Context, v *view, path string) (p *project, proj, fallback *analysis.Project) {
	p = w.ownerOf(v, path)
	if p == nil {
		return nil, nil, nil
	}
	proj, err := w.loadAt(v, p)
	if err != nil {
		return nil, nil, nil
	}
	fallback = proj
	if f := proj.File(path); f != nil && f.SyntaxError != nil {
		p.mu.Lock()
		if good := p.lastGood[path]; good != nil {
			fallback = good
		}
		p.mu.Unlock()
	}
	return p, proj, fallback
}

// repoFiles returns the project's scan of its files for completion,
// scanning once until a file is created or deleted.
func (w *workspace) repoFiles(ctx context.Context, v *view, p *project) *features.RepoFiles {
	p.mu.Lock()
	repo := p.repo
	p.mu.Unlock()
	if repo != nil {
		return repo
	}
	repo, err := features.ScanRepo(ctx, v.fs, p.root)
	if err != nil {
		return nil
	}
	p.mu.Lock()
	p.repo = repo
	p.mu.Unlock()
	return repo
}

// modules returns the latest module inspection results of p, nil when
// inspection is off or has not finished.
func (w *workspace) modules(p *project) features.Modules {
	if insp := p.inspection(); insp != nil {
		return insp.Results
	}
	return nil
}

// scanRoots returns every folder under dir holding beeuni.yaml, skipping
// dependencies, hidden folders and symbolic links, at most limit folders
// visited.
func scanRoots(ctx context.Context, fsys vfs.FS, dir string, limit int) []string {
	var roots []string
	queue := []string{dir}
	for visited := 0; len(queue) > 0 && visited < limit; visited++ {
		if ctx.Err() != nil {
			break
		}
		cur := queue[0]
		queue = queue[1:]
		entries, err := fsys.ReadDir(cur)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			switch {
			case e.Type()&fs.ModeSymlink != 0:
			case e.IsDir():
				if name == "node_modules" || strings.HasPrefix(name, ".") {
					continue
				}
				queue = append(queue, filepath.Join(cur, name))
			case name == analysis.ManifestName:
				roots = append(roots, cur)
			}
		}
	}
	return roots
}

// sameContent reports whether a and b are the same bytes, quickly when
// they are the same slice.
func sameContent(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	return bytes.Equal(a, b)
}

// skippedByScan reports whether a path lies in a folder the workspace scan
// skips (dependencies and hidden folders): a manifest there is no project
// of the workspace unless the user opens it.
func skippedByScan(path string) bool {
	for _, part := range strings.Split(filepath.ToSlash(filepath.Dir(path)), "/") {
		if part == "node_modules" || strings.HasPrefix(part, ".") && part != "." && part != ".." {
			return true
		}
	}
	return false
}
