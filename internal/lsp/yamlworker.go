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

// The adaptive pause of a project's YAML worker (loadWhileDirty), in one
// place.
const (
	// minBurstPause: a pause shorter than this is not taken. When loads
	// are this quick, analysing each keystroke costs less than the timer.
	minBurstPause = 2 * time.Millisecond
	// maxBurstPause caps the pause: every millisecond of it is latency
	// the keystroke budget pays (docs/performance.md, "Budgets"), and a
	// slow load coalesces a burst by itself.
	maxBurstPause = 10 * time.Millisecond
)

// yamlWorker is the YAML worker of project p, from its registration until
// ctx is done (p removed, or the server stopping): woken when p is dirty,
// it loads p while it is dirty. One goroutine for the project's life: its
// stack, grown for yaml.v3's recursion through the manifest's nesting, is
// not grown again by copying at every keystroke (docs/performance.md,
// "What keeps a keystroke cheap"). A panic in a load is
// recovered and logged; the worker goes on.
func (w *workspace) yamlWorker(ctx context.Context, p *project) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.wake:
		}
		_, _ = w.s.recovered("diagnostics", func() (any, error) { w.loadWhileDirty(ctx, p); return nil, nil })
	}
}

// loadWhileDirty loads p while it is dirty. An analysis that a change
// supersedes while it runs is not cancelled: it runs to its end and
// publishes (the freshest findings there are), then the latest text is
// analysed; a result thrown away leaves a burst of typing with no
// diagnostics at all until it ends (docs/server.md, "Diagnostics
// pipeline", with the figures). Only ctx ends a load early (p removed, or
// the server stopping): the engine stops a load soon after its context is
// done.
func (w *workspace) loadWhileDirty(ctx context.Context, p *project) {
	// A user waits for this project's diagnostics: its module inspection
	// steps aside until they are published (priority.go).
	defer w.s.interactive.beginProject(p.root)()
	defer func() {
		w.mu.Lock()
		p.loading, p.burst = false, false
		if p.dirty {
			kick(p.wake) // dirtied after the last look, or a panic
		}
		w.cond.Broadcast()
		w.mu.Unlock()
	}()
	var lastLoad time.Duration
	for ctx.Err() == nil {
		w.mu.Lock()
		if !p.dirty {
			w.mu.Unlock()
			return
		}
		p.loading = true
		// Adaptive pause: a change that arrived while the last load ran
		// means a burst of keystrokes is coming in; when loads are slow,
		// wait a little so that the rest of the burst costs one load. A
		// change that finds the worker idle is analysed at once.
		pause := time.Duration(0)
		if p.burst {
			pause = lastLoad / 2
		}
		p.burst = false
		w.mu.Unlock()
		if pause > minBurstPause {
			select {
			case <-ctx.Done():
				return
			case <-time.After(min(pause, maxBurstPause)):
			}
		}
		w.mu.Lock()
		p.dirty = false
		w.mu.Unlock()
		start := time.Now()
		w.analyze(ctx, w.s.currentView(), p)
		lastLoad = time.Since(start)
	}
}

// analyze takes p's snapshot of v, publishes its YAML findings and hands
// its module pass to p's module worker when it needs one. Once ctx is done
// (p removed, or the server stopping) it publishes nothing: the load
// stopped, or its findings are for no one.
func (w *workspace) analyze(ctx context.Context, v *view, p *project) {
	root := p.root
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
		p.modJob = nil
		w.mu.Unlock()
		w.pub.setYAMLAndModules(v, snap)
		return
	}
	w.pub.setYAML(v, snap)
	w.queueModules(p, moduleJob{v: v, snap: snap})
}
