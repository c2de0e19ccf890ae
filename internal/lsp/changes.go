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

// changed tells the engine a change of files, routes it to the projects
// it concerns and wakes their YAML workers, once every file is told.
func (w *workspace) changed(paths []string, kind changeKind) {
	v := w.s.currentView()
	for _, path := range paths {
		path = filepath.Clean(path)
		w.tell(analysis.FileChange{Path: path, Kind: w.engineKind(path, kind)})
		if kind >= changeCreated {
			w.disk.forget(path)
		}
		marked := false
		for _, p := range w.allProjects() {
			concerned := w.owns(p, path) || w.awaits(p, path)
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
	w.wakeDirty()
}

// engineKind is what a change of path is to the engine. Changes on disk
// are what they are. A buffer opened, edited or closed in the editor
// changes only a text when its file is on disk (the buffer shadows a file
// that exists either way), or when it is a YAML file edited (no module is
// one); a buffer of a module not saved yet makes the module exist while it
// is open.
func (w *workspace) engineKind(path string, kind changeKind) analysis.ChangeKind {
	switch kind {
	case changeCreated:
		return analysis.ChangeCreated
	case changeDisk:
		return analysis.ChangeDisk
	case changeDeleted:
		return analysis.ChangeDeleted
	}
	if isYAML(path) && kind == changeBuffer {
		return analysis.ChangeText
	}
	if _, err := w.disk.Stat(path); err == nil {
		return analysis.ChangeText
	}
	return analysis.ChangeBuffer
}

// tell gives changes to the engine (analysis.Session.Apply with no
// project: the snapshots are asked for by the workers and the requests).
func (w *workspace) tell(changes ...analysis.FileChange) {
	_, _ = w.eng.Apply(w.s.bg, analysis.Changes{Files: changes})
}

// markDirty has the project at root analysed again (wakeDirty wakes its
// YAML worker). A change that comes in while the worker is at work is part
// of a burst: the worker may pause before its next load (yamlworker.go).
func (w *workspace) markDirty(root string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if p := w.projects[root]; p != nil {
		p.dirty = true
		p.burst = p.burst || p.loading
	}
}

// markAllDirty reanalyses every project: anything may have changed (the
// settings, the file watchers registered).
func (w *workspace) markAllDirty() {
	w.tell(analysis.FileChange{Kind: analysis.ChangeAnything})
	w.mu.Lock()
	for _, p := range w.projects {
		p.dirty = true
	}
	w.mu.Unlock()
	w.wakeDirty()
}

// wakeDirty wakes the YAML worker of each dirty project.
func (w *workspace) wakeDirty() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, p := range w.projects {
		if p.dirty {
			kick(p.wake)
		}
	}
}

// kick wakes the worker waiting on ch, or leaves it a wake-up if it is at
// work (ch has capacity 1: wake-ups coalesce).
func kick(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
