package lsp

import (
	"context"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/features"
)

// loadCall is one load of a project from one view, shared by every
// caller that needs that view (the YAML worker and requests arriving
// together after a keystroke). It runs while one of them still waits for
// it: when the last gives up (its context is done), the load's context is
// cancelled and its result thrown away.
type loadCall struct {
	gen    uint64
	ctx    context.Context // the load's; cancelled when no caller waits
	cancel context.CancelFunc
	// waiters counts the callers still waiting, guarded by the project's
	// mu.
	waiters int
	done    chan struct{}
	proj    *analysis.Project
	err     error
}

// leave is a caller giving the load up; the last one cancels it (under
// p.mu, so that a caller joining sees either a waiter left or the load
// cancelled).
func (c *loadCall) leave(p *project) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c.waiters--; c.waiters == 0 {
		c.cancel()
	}
}

// loadAt returns p loaded from v: the kept load when it was made from v,
// else one load however many callers ask at once (kept if newer). When
// ctx is done first, it returns ctx's error at once (the caller that runs
// the load returns when the load does).
func (w *workspace) loadAt(ctx context.Context, v *view, p *project) (*analysis.Project, error) {
	for {
		p.mu.Lock()
		if p.loaded != nil && p.gen == v.gen {
			proj := p.loaded
			p.mu.Unlock()
			return proj, nil
		}
		c := p.loading
		if c == nil || c.gen != v.gen {
			break // p.mu held: start one
		}
		if c.ctx.Err() != nil {
			// Every caller gave it up: wait for it to stop, then load
			// again for this one.
			p.mu.Unlock()
			select {
			case <-c.done:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		c.waiters++
		p.mu.Unlock()
		select {
		case <-c.done:
			return c.proj, c.err
		case <-ctx.Done():
			c.leave(p)
			return nil, ctx.Err()
		}
	}
	lctx, cancel := context.WithCancel(w.s.bg)
	c := &loadCall{gen: v.gen, ctx: lctx, cancel: cancel, waiters: 1, done: make(chan struct{})}
	p.loading = c
	p.mu.Unlock()
	stop := context.AfterFunc(ctx, func() { c.leave(p) })
	defer stop()
	if !w.disk.on() {
		// Without file watchers nothing says when a module is created
		// or deleted: the path rules look at the files on every load.
		w.cache.FilesChanged()
	}
	c.proj, c.err = analysis.LoadCached(lctx, v.fs, p.root, w.cache)
	if lctx.Err() != nil {
		// Cancelled, the engine stops early (it skips the imports not
		// read yet) and returns what it has: never kept nor shown.
		c.proj, c.err = nil, lctx.Err()
	}
	if c.err == nil {
		p.store(c.proj, v.gen)
	}
	p.mu.Lock()
	if p.loading == c {
		p.loading = nil
	}
	p.mu.Unlock()
	close(c.done)
	cancel()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
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
	proj, err := w.loadAt(ctx, v, p)
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
