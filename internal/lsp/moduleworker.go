package lsp

import (
	"context"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

// moduleJob is a snapshot waiting for its module pass, with the view it
// was made from (the publisher converts with its documents).
type moduleJob struct {
	v    *view
	snap *analysis.Snapshot
}

// queueModules hands job to p's module worker, in place of any job it has
// not started yet (the latest snapshot is the one to complete).
func (w *workspace) queueModules(p *project, job moduleJob) {
	w.mu.Lock()
	p.modJob = &job
	w.mu.Unlock()
	kick(p.modWake)
}

// moduleWorker is the module worker of project p, from its registration
// until ctx is done (p removed, or the server stopping): woken when a
// module job is queued, it runs p's jobs while there are, so that a long
// inspection of one project never delays another's, nor p's YAML findings
// (its YAML worker goes on beside it). A panic in a job is recovered and
// logged; the worker goes on.
func (w *workspace) moduleWorker(ctx context.Context, p *project) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.modWake:
		}
		_, _ = w.s.recovered("module inspection", func() (any, error) { w.inspectWhileQueued(ctx, p); return nil, nil })
	}
}

// inspectWhileQueued runs p's queued module jobs, the latest each time.
func (w *workspace) inspectWhileQueued(ctx context.Context, p *project) {
	defer func() {
		w.mu.Lock()
		p.inspecting = false
		if p.modJob != nil {
			kick(p.modWake) // queued after the last look, or a panic
		}
		w.cond.Broadcast()
		w.mu.Unlock()
	}()
	for ctx.Err() == nil {
		w.mu.Lock()
		job := p.modJob
		p.modJob = nil
		p.inspecting = job != nil
		w.mu.Unlock()
		if job == nil {
			return
		}
		w.runModuleJob(ctx, p, *job)
	}
}

// runModuleJob completes a snapshot with its module findings (a module
// pass, or the results of one that ended since it was queued) and
// publishes them, unless a newer snapshot has its own already or ctx is
// done (p removed, or the server stopping).
func (w *workspace) runModuleJob(ctx context.Context, p *project, job moduleJob) {
	// The pass yields to this project's YAML passes (priority.go).
	done := w.eng.InspectModules(withProject(ctx, p.root), job.snap)
	if done == nil || ctx.Err() != nil {
		return
	}
	w.pub.setModules(job.v, done)
}
