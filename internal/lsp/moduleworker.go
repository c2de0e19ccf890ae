package lsp

import (
	"context"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

type moduleJob struct {
	v    *view
	proj *analysis.Project
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
	ctx = withProject(ctx, root) // the inspection yields to this project's YAML passes (priority.go)
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
