package lsp

import (
	"context"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/features"
)

// snapshotAt returns p's snapshot of view v. The engine makes one load per view
// however many callers ask at once (the YAML worker and the requests
// arriving together after a keystroke), so the load runs under the
// server's context, not one caller's: a load stops when its context is
// done, for every caller sharing it (docs/server.md, "Diagnostics
// pipeline").
func (w *workspace) snapshotAt(v *view, p *project) (*analysis.Snapshot, error) {
	versions := make(map[string]int32, len(v.docs))
	for path, d := range v.docs {
		versions[path] = d.version
	}
	return w.eng.Apply(w.s.bg, analysis.Changes{
		Root:           p.root,
		FS:             v.fs,
		Gen:            v.gen,
		Versions:       versions,
		InspectModules: w.s.currentSettings().InspectModules,
		Watched:        w.disk.on(),
	})
}

// snapshotOf returns the project of path and its snapshot of view v, nil
// when path belongs to no project or its manifest cannot be read.
func (w *workspace) snapshotOf(v *view, path string) (*project, *analysis.Snapshot) {
	p := w.ownerOf(v, path)
	if p == nil {
		return nil, nil
	}
	snap, err := w.snapshotAt(v, p)
	if err != nil {
		return nil, nil
	}
	return p, snap
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
