package lsp

import (
	"path/filepath"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
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
