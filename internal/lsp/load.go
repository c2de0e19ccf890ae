package lsp

import (
	"context"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/features"
)

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
// load is not tied to one caller's cancellation, since others share it.
// Nor is it cut short when a change supersedes it: the engine looks at its
// context only before each file's imports, and a load stopped there misses
// the imported files' tools, costs more than a whole one and leaves the
// rule memo a wrong tool set (docs/server.md, "Diagnostics pipeline").
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
