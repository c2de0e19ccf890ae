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

// runModuleJob completes a snapshot with its module findings (a module
// pass, or the results of one that ended since it was queued) and
// publishes them, unless a newer snapshot has its own already or the
// server stops (ctx is done).
func (w *workspace) runModuleJob(ctx context.Context, root string, job moduleJob) {
	// The pass yields to this project's YAML passes (priority.go).
	done := w.eng.InspectModules(withProject(ctx, root), job.snap)
	if done == nil || w.project(root) == nil || ctx.Err() != nil {
		return
	}
	w.pub.setModules(job.v, done)
}
