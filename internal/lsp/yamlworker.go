package lsp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

// The adaptive pause of a project's YAML worker (projectYAMLLoop), in one
// place.
const (
	// minBurstPause: a pause shorter than this is not taken. When loads
	// are this quick, analysing each keystroke costs less than the timer.
	minBurstPause = 2 * time.Millisecond
	// maxBurstPause caps the pause: every millisecond of it is latency
	// the keystroke budget pays (p95 60 ms at 10,000 tools, see
	// docs/performance.md), and a slow load coalesces a burst by itself.
	maxBurstPause = 10 * time.Millisecond
)

// yamlRun is the state of one project's YAML worker.
type yamlRun struct {
	lastLoad time.Duration // its last load, for the adaptive pause
	burst    bool          // a change came in while it loaded
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
			w.yamlWorkers.run(func(ctx context.Context) { w.projectYAMLLoop(ctx, root, run) })
		}
		w.mu.Unlock()
	}
}

// projectYAMLLoop is the YAML worker of one project: it loads the project
// while it is dirty, then ends. An analysis that a change supersedes while
// it runs is not cancelled: it runs to its end and publishes (the freshest
// findings there are), then the latest text is analysed; a result thrown
// away leaves a burst of typing with no diagnostics at all until it ends
// (docs/server.md, "Diagnostics pipeline", with the figures). Only the
// server's stop ends a load early: ctx is the server's background context,
// and the engine stops a load soon after its context is done.
func (w *workspace) projectYAMLLoop(ctx context.Context, root string, run *yamlRun) {
	// A user waits for this project's diagnostics: its module inspection
	// steps aside until they are published (priority.go).
	defer w.s.interactive.beginProject(root)()
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
		if pause > minBurstPause {
			select {
			case <-ctx.Done():
				return
			case <-time.After(min(pause, maxBurstPause)):
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

// analyze takes one project's snapshot of v, publishes its YAML findings
// and queues its module pass when it needs one. Once ctx is done (the
// server stops) it publishes nothing: the load stopped, or its findings
// are for no one.
func (w *workspace) analyze(ctx context.Context, v *view, root string) {
	p := w.project(root)
	if p == nil {
		return
	}
	snap, err := w.snapshotAt(v, p)
	if ctx.Err() != nil {
		return
	}
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
	if !snap.ModulesPending() {
		// No module changed: the engine made the module findings from the
		// last pass's results. Publish both together, so that T11 never
		// flickers, and inspect nothing; a module pass queued for an older
		// snapshot is superseded.
		w.mu.Lock()
		delete(w.modJobs, root)
		w.mu.Unlock()
		w.pub.setYAMLAndModules(v, snap)
		return
	}
	w.pub.setYAML(v, snap)
	w.mu.Lock()
	w.modJobs[root] = moduleJob{v: v, snap: snap}
	w.mu.Unlock()
	kick(w.modKick)
}
