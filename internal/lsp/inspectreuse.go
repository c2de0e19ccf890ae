package lsp

import (
	"slices"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
)

// moduleBase is a ModuleBase and the modules of the last load it served.
type moduleBase struct {
	base  *analysis.ModuleBase
	tools *analysis.ToolModules
}

// reuseInspection returns proj's module inspection made from the results
// of the last one, when no module can have changed since it read them and
// it covers every module proj declares (a keystroke in beeuni.yaml then
// costs no inspection and no disk read); else nil. With dropQueued (proj is
// the newest load) it drops a queued module job of the project, which the
// returned inspection supersedes.
//
// The inspection is made from the project's analysis.ModuleBase, kept
// while proj declares the same modules in the same order (a keystroke
// rarely changes them), so that a keystroke only places T11 again.
func (w *workspace) reuseInspection(p *project, proj *analysis.Project, gen uint64, dropQueued bool) *analysis.Inspection {
	if !w.s.currentSettings().InspectModules {
		return nil
	}
	w.mu.Lock()
	modGen := w.modGen
	w.mu.Unlock()
	p.mu.Lock()
	prev, prevModGen, seq := p.inspected, p.inspModGen, p.inspectedSeq
	bases := p.bases
	if p.basesSeq != seq {
		bases = [2]moduleBase{}
	}
	p.mu.Unlock()
	if prev == nil || prevModGen != modGen {
		return nil
	}
	var insp *analysis.Inspection
	var base *analysis.ModuleBase
	var tools *analysis.ToolModules
	if w.disk.on() {
		for i, b := range bases {
			if b.base != nil && b.tools.Same(proj) {
				// The modules of a recent load, tool for tool: they
				// were listed then, and no file was created or deleted
				// since (that moves the module generation on).
				base, tools = b.base, b.tools
				bases[0], bases[i] = bases[i], bases[0]
				insp = base.InspectionWith(proj, tools)
				break
			}
		}
	}
	if insp == nil {
		base = bases[0].base
		if base != nil {
			same, ok := w.sameModules(proj, prev, base)
			if !ok {
				return nil
			}
			if !same {
				base = nil
			}
		}
		if base == nil {
			modules, ok := w.knownModules(proj, prev)
			if !ok {
				return nil
			}
			b, complete := analysis.NewModuleBase(modules, prev)
			if !complete {
				return nil
			}
			base = b
		}
		tools = base.ToolModules(proj)
		insp = base.InspectionWith(proj, tools)
		if bases[0].base != nil && bases[0].base != base {
			bases[1] = bases[0]
		}
		bases[0] = moduleBase{base, tools}
	}
	p.mu.Lock()
	if gen < p.inspGen {
		p.mu.Unlock()
		return nil
	}
	p.insp, p.inspGen = insp, gen
	if p.inspectedSeq == seq {
		p.bases, p.basesSeq = bases, seq
	}
	p.mu.Unlock()
	if dropQueued {
		w.mu.Lock()
		delete(w.modJobs, p.root)
		w.mu.Unlock()
	}
	return insp
}

// sameModules reports whether knownModules(proj, prev) would list exactly
// base's modules, without building the list: each module proj declares is
// base's next one, one declared again, or one prev lacks that is no file
// (T6 reports it). ok is false, as knownModules says, when a module prev
// lacks exists.
func (w *workspace) sameModules(proj *analysis.Project, prev map[string]*tsinspect.Result, base *analysis.ModuleBase) (same, ok bool) {
	if !w.disk.on() {
		return slices.Equal(analysis.ModulePaths(proj, w.insp), base.Modules()), true
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
		if w.insp.IsFile(t.Module) {
			return false, false
		}
	}
	return next == base.Len(), true
}

// knownModules lists proj's modules as analysis.ModulePaths does, without
// a Stat for the modules prev holds when the file watchers are on: they
// were files when inspected, and a file created or deleted since would have
// moved the module generation on. ok is false when a module prev lacks
// exists (it needs a module pass).
func (w *workspace) knownModules(proj *analysis.Project, prev map[string]*tsinspect.Result) (modules []string, ok bool) {
	if !w.disk.on() {
		// Without watchers nothing says a module was deleted: look.
		return analysis.ModulePaths(proj, w.insp), true
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
			if w.insp.IsFile(t.Module) {
				return nil, false
			}
			continue // T6 reports it
		}
		modules = append(modules, t.Module)
	}
	return modules, true
}
