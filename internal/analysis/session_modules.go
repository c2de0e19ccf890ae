package analysis

import (
	"context"
	"slices"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
)

// moduleState is what a project's snapshots get their module findings
// from: the results of its last module pass, and the bases made of them.
type moduleState struct {
	// inspected holds the results of the last module pass, which reuse
	// draws from: a reused inspection keeps only the modules its load
	// declares, and a tool that disappears for one keystroke (a typo in
	// its key) must not cost a module pass when it comes back.
	inspected map[string]*tsinspect.Result
	// modGen is the session's module generation when that pass read the
	// modules: while it is still current, no module changed.
	modGen uint64
	// doneGen is the Gen of the newest snapshot given its module findings
	// (by a pass or by reuse): a pass for an older snapshot is stale. It
	// orders snapshots, which a pass may complete after a newer one.
	doneGen uint64
	// bases are what the inspections reused since the pass are made from
	// (ModuleBase over inspected's results), the latest first. Two are
	// kept: a typo in a tool's key takes its module out of the model for a
	// keystroke, and the next keystroke brings it back.
	bases [2]moduleBase
	// passes counts the module passes, for ModulePasses: what a test (or
	// a person reading a session) asks to tell a change that cost a pass
	// from one that reused the results; nothing is decided by it.
	passes uint64
}

// moduleBase is a ModuleBase and the modules of the last load it served.
type moduleBase struct {
	base  *ModuleBase
	tools *ToolModules
}

// ModulePasses returns the number of module passes run for root: a
// snapshot whose module findings are reused from the last pass runs none.
func (s *Session) ModulePasses(root string) uint64 {
	r := s.lookup(root)
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.mods.passes
}

// InspectModules completes snap, which is ModulesPending, with its module
// findings: from the last pass's results when they now cover its modules
// (a pass ended since snap was made), else by a module pass (with Watched,
// only the modules the changes since the last pass concern are inspected
// again). The pass yields as snap's inspector says and stops when ctx is
// cancelled (nil is returned then). It returns nil too when a newer
// snapshot of the project has its module findings already: snap's would be
// older news.
func (s *Session) InspectModules(ctx context.Context, snap *Snapshot) *Snapshot {
	r := s.lookup(snap.Root)
	if r == nil {
		return nil // forgotten
	}
	r.mu.Lock()
	if snap.Gen < r.mods.doneGen {
		r.mu.Unlock()
		return nil
	}
	if snap.inspect {
		if insp := s.reuseLocked(r, snap); insp != nil {
			done := snap.withModules(insp)
			r.storeLocked(done)
			r.mu.Unlock()
			return done
		}
	}
	prev, prevGen := r.mods.inspected, r.mods.modGen
	r.mu.Unlock()
	modGen := s.moduleGen()
	var insp *Inspection
	if snap.inspect {
		insp = s.inspect(ctx, snap, prev, prevGen, modGen)
	}
	if ctx.Err() != nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if snap.Gen < r.mods.doneGen {
		return nil
	}
	done := snap.withModules(insp)
	r.mods.doneGen, r.mods.modGen = snap.Gen, modGen
	r.mods.inspected = nil
	if insp != nil {
		r.mods.inspected = insp.Results
	}
	r.mods.bases = [2]moduleBase{}
	r.mods.passes++
	r.storeLocked(done)
	return done
}

// inspect is a module pass over snap's project at module generation
// modGen: with file watchers, and the paths changed since the last pass
// known, only the modules those paths concern are inspected again; else
// every module.
func (s *Session) inspect(ctx context.Context, snap *Snapshot, prev map[string]*tsinspect.Result, prevGen, modGen uint64) *Inspection {
	if snap.watched && prev != nil {
		if changed, ok := s.modChangesSince(prevGen, modGen); ok {
			return InspectModulesAfter(ctx, snap.Project, s.insp, prev, changed)
		}
	}
	return InspectModules(ctx, snap.Project, s.insp)
}

// reuseLocked returns snap's module inspection made from the results of
// the last pass, when no module can have changed since it read them and
// they cover every module snap's project declares (a keystroke in
// beeuni.yaml then costs no inspection and no disk read); else nil. The
// inspection is made from a ModuleBase kept while the project declares the
// same modules in the same order (a keystroke rarely changes them), so
// that a keystroke only places T11 again. r.mu is held.
func (s *Session) reuseLocked(r *rootState, snap *Snapshot) *Inspection {
	m := &r.mods
	if s.insp == nil || m.inspected == nil || m.modGen != s.moduleGen() || snap.Gen < m.doneGen {
		return nil
	}
	proj, prev := snap.Project, m.inspected
	if snap.watched {
		for i, b := range m.bases {
			if b.base != nil && b.tools.Same(proj) {
				// The modules of a recent load, tool for tool: they were
				// listed then, and no file was created or deleted since
				// (that moves the module generation on).
				m.bases[0], m.bases[i] = m.bases[i], m.bases[0]
				m.doneGen = snap.Gen
				return b.base.InspectionWith(proj, b.tools)
			}
		}
	}
	base := m.bases[0].base
	if base != nil {
		same, ok := s.sameModules(snap, prev, base)
		if !ok {
			return nil
		}
		if !same {
			base = nil
		}
	}
	if base == nil {
		modules, ok := s.knownModules(snap, prev)
		if !ok {
			return nil
		}
		b, complete := NewModuleBase(modules, prev)
		if !complete {
			return nil
		}
		base = b
	}
	tools := base.ToolModules(proj)
	if m.bases[0].base != nil && m.bases[0].base != base {
		m.bases[1] = m.bases[0]
	}
	m.bases[0] = moduleBase{base, tools}
	m.doneGen = snap.Gen
	return base.InspectionWith(proj, tools)
}

// sameModules reports whether knownModules(snap, prev) would list exactly
// base's modules, without building the list: each module the project
// declares is base's next one, one declared again, or one prev lacks that
// is no file (T6 reports it). ok is false, as knownModules says, when a
// module prev lacks exists.
func (s *Session) sameModules(snap *Snapshot, prev map[string]*tsinspect.Result, base *ModuleBase) (same, ok bool) {
	proj := snap.Project
	if !snap.watched {
		return slices.Equal(ModulePaths(proj, s.insp), base.Modules()), true
	}
	if proj == nil || proj.Model == nil {
		return base.Len() == 0, true
	}
	next := 0 // base's modules matched so far
	for _, t := range proj.Model.Tools {
		if t.Module == "" {
			continue
		}
		if at, in := base.Position(t.Module); in {
			switch {
			case at == next:
				next++
			case at > next:
				return false, true // declared in another order
			}
			continue // at < next: declared again
		}
		if prev[t.Module] != nil {
			return false, true // inspected, but not in the base
		}
		if s.insp.IsFile(t.Module) {
			return false, false
		}
	}
	return next == base.Len(), true
}

// knownModules lists the project's modules as ModulePaths does, without a
// Stat for the modules prev holds when the file watchers are on: they were
// files when inspected, and a file created or deleted since would have
// moved the module generation on. ok is false when a module prev lacks
// exists (it needs a module pass).
func (s *Session) knownModules(snap *Snapshot, prev map[string]*tsinspect.Result) (modules []string, ok bool) {
	proj := snap.Project
	if !snap.watched {
		// Without watchers nothing says a module was deleted: look.
		return ModulePaths(proj, s.insp), true
	}
	if proj == nil || proj.Model == nil {
		return nil, true
	}
	modules = make([]string, 0, len(proj.Model.Tools))
	seen := make(map[string]bool, len(proj.Model.Tools))
	for _, t := range proj.Model.Tools {
		if t.Module == "" || seen[t.Module] {
			continue
		}
		seen[t.Module] = true
		if prev[t.Module] == nil {
			if s.insp.IsFile(t.Module) {
				return nil, false
			}
			continue // T6 reports it
		}
		modules = append(modules, t.Module)
	}
	return modules, true
}
