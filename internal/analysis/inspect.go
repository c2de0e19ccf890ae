package analysis

import (
	"context"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
)

// Inspection is the outcome of inspecting every tool module of a project.
type Inspection struct {
	// Findings holds one T11 finding on each manifest path value whose module
	// would not load, A4 on the agents whose `secrets:` lacks a name a tool
	// they can call reads from `context.env`, then the module files' own
	// findings (each module once), sorted with diag.Sort.
	Findings []diag.Finding
	// Results are the inspections by absolute module path.
	Results map[string]*tsinspect.Result
}

// InspectModules inspects the modules of the project's tools (overridden
// and project tools whose path passed T5). A module that does not exist is
// T6's business and is skipped here. T11's Data holds "name" (the tool)
// and "module" (the module's repository-relative path).
func InspectModules(ctx context.Context, p *Project, insp *tsinspect.Inspector) *Inspection {
	if p == nil || p.Model == nil || insp == nil {
		return &Inspection{Results: map[string]*tsinspect.Result{}}
	}
	modules := ModulePaths(p, insp)
	results := insp.InspectAll(ctx, p.Root, modules)
	byModule := make(map[string]*tsinspect.Result, len(results))
	for i, r := range results {
		if r == nil || r.Incomplete && ctx.Err() != nil {
			continue
		}
		byModule[modules[i]] = r
	}
	out, _ := InspectionFrom(p, modules, byModule)
	return out
}

// InspectModulesAfter is InspectModules after a module pass whose results
// were prev, when the files in changed (clean absolute paths) are all that
// changed since that pass started: a module prev holds whose inspection read
// none of them keeps it (no read, no hash, no check of its dependencies);
// the others are inspected. The caller must know every path that changed;
// with nothing to go by, call InspectModules.
func InspectModulesAfter(ctx context.Context, p *Project, insp *tsinspect.Inspector, prev map[string]*tsinspect.Result, changed []string) *Inspection {
	if p == nil || p.Model == nil || insp == nil {
		return &Inspection{Results: map[string]*tsinspect.Result{}}
	}
	modules := make([]string, 0, len(p.Model.Tools))
	byModule := make(map[string]*tsinspect.Result, len(p.Model.Tools))
	var again []string
	for _, t := range p.Model.Tools {
		if t.Module == "" {
			continue
		}
		if _, seen := byModule[t.Module]; seen {
			continue
		}
		if r, ok := insp.Unchanged(p.Root, t.Module, changed); ok && !r.Incomplete && prev[t.Module] == r {
			// The last pass's result (a module inspected before it, and
			// not in it, may have changed in between), a file then and
			// not changed since.
			byModule[t.Module] = r
			modules = append(modules, t.Module)
			continue
		}
		byModule[t.Module] = nil // seen: a nil result is left out by InspectionFrom
		if !insp.IsFile(t.Module) {
			continue // T6 reports it
		}
		modules = append(modules, t.Module)
		again = append(again, t.Module)
	}
	for i, r := range insp.InspectAll(ctx, p.Root, again) {
		if r != nil && !(r.Incomplete && ctx.Err() != nil) {
			byModule[again[i]] = r
		}
	}
	out, _ := InspectionFrom(p, modules, byModule)
	return out
}

// ModulePaths returns the module files InspectModules inspects: each
// existing module of an overridden or project tool, once, in declaration
// order.
func ModulePaths(p *Project, insp *tsinspect.Inspector) []string {
	if p == nil || p.Model == nil || insp == nil {
		return nil
	}
	modules := make([]string, 0, len(p.Model.Tools))
	seen := make(map[string]bool, len(p.Model.Tools))
	for _, t := range p.Model.Tools {
		if t.Module == "" || seen[t.Module] {
			continue
		}
		seen[t.Module] = true
		if !insp.IsFile(t.Module) {
			continue // T6 reports it
		}
		modules = append(modules, t.Module)
	}
	return modules
}

// InspectionFrom builds p's Inspection from module results already known
// (a previous inspection's Results, when no module changed since): the
// module findings and T11 on each manifest entry, at p's positions. It
// inspects nothing. complete is false when a module of modules has no
// result (the Inspection then leaves it out).
func InspectionFrom(p *Project, modules []string, results map[string]*tsinspect.Result) (insp *Inspection, complete bool) {
	base, complete := NewModuleBase(modules, results)
	return base.Inspection(p), complete
}

// ModuleBase is the part of an Inspection that depends on the module
// results alone, not on the manifest's text: the modules, their results
// and the module files' own findings. The language server builds one when
// a module pass ends and makes the Inspection of every keystroke in the
// manifest from it (Inspection), which then only places T11. A ModuleBase
// and the Results map of the Inspections it makes are shared and must not
// be modified.
type ModuleBase struct {
	modules  []string
	index    map[string]int               // position of each module in modules
	results  map[string]*tsinspect.Result // the modules' results
	findings []diag.Finding               // the module files' own findings, sorted
	failing  map[string]*tsinspect.Result // the modules that will not load
	secrets  *secretReads                 // what the modules read of context.env (A4)
}

// NewModuleBase gathers the results of modules (each module once, in
// declaration order, as ModulePaths lists them) from results. complete is
// false when a module has no result (the base then leaves it out).
func NewModuleBase(modules []string, results map[string]*tsinspect.Result) (base *ModuleBase, complete bool) {
	b := &ModuleBase{
		modules: make([]string, 0, len(modules)),
		index:   make(map[string]int, len(modules)),
		results: make(map[string]*tsinspect.Result, len(modules)),
	}
	complete = true
	// A finding in a file that several modules import (a shared schema) is
	// reported once.
	type shared struct {
		file, code, message string
		start, end          int
	}
	seen := map[shared]bool{}
	for _, m := range modules {
		r := results[m]
		if r == nil {
			complete = false
			continue
		}
		if _, dup := b.index[m]; dup {
			continue
		}
		b.index[m] = len(b.modules)
		b.modules = append(b.modules, m)
		b.results[m] = r
		if !r.Loads {
			if b.failing == nil {
				b.failing = map[string]*tsinspect.Result{}
			}
			b.failing[m] = r
		}
		for _, f := range r.Findings {
			if f.File != m {
				k := shared{f.File, f.Code, f.Message, f.Range.Start.Offset, f.Range.End.Offset}
				if seen[k] {
					continue
				}
				seen[k] = true
			}
			b.findings = append(b.findings, f)
		}
	}
	diag.Sort(b.findings)
	b.secrets = newSecretReads(b.results)
	return b, complete
}

// Len returns the number of modules of the base.
func (b *ModuleBase) Len() int { return len(b.modules) }

// Position returns the place of module in the base's modules (the order
// NewModuleBase was given), and whether the base holds it.
func (b *ModuleBase) Position(module string) (int, bool) {
	i, ok := b.index[module]
	return i, ok
}

// Modules returns the base's modules, in order. The slice must not be
// modified.
func (b *ModuleBase) Modules() []string { return b.modules }

// Inspection returns p's Inspection from the base: its Results (the
// base's map, shared), the module files' findings, T11 on each entry of p
// whose module will not load and A4 on p's agents, at p's positions.
func (b *ModuleBase) Inspection(p *Project) *Inspection {
	var moduleLoad []diag.Finding
	if len(b.failing) > 0 && p != nil && p.Model != nil {
		for i := range p.Model.Tools {
			if r := b.failing[p.Model.Tools[i].Module]; r != nil {
				moduleLoad = appendModuleLoad(moduleLoad, p, p.Model.Tools[i], r)
			}
		}
	}
	return b.inspection(moduleLoad, b.secrets.findings(p, b.secrets.readerTools(p)))
}

// ToolModules records the module each tool of one load declares, and
// which tools declare a module of a base that will not load, so that the
// next load declaring the same modules (a keystroke elsewhere in the
// manifest) gets its Inspection without a lookup per tool. It is
// immutable.
type ToolModules struct {
	root    string
	modules []string      // Model.Tools[i].Module
	failing []failingTool // the tools whose module the base says will not load
	readers *secretTools  // the tools whose module reads context.env (A4)
}

// failingTool is a tool whose module will not load, with what T11 on it
// says before the tool's name.
type failingTool struct {
	tool          int
	rel, sayPrior string
}

// ToolModules records p's tools' modules, and the tools whose module will
// not load, for InspectionWith.
func (b *ModuleBase) ToolModules(p *Project) *ToolModules {
	tm := &ToolModules{}
	if p == nil || p.Model == nil {
		return tm
	}
	tm.root = p.Root
	tm.modules = make([]string, len(p.Model.Tools))
	for i, t := range p.Model.Tools {
		tm.modules[i] = t.Module
		if r := b.failing[t.Module]; r != nil && t.Module != "" {
			rel := p.Rel(t.Module)
			tm.failing = append(tm.failing, failingTool{tool: i, rel: rel, sayPrior: moduleLoadPrior(rel, r)})
		}
	}
	tm.readers = b.secrets.readerTools(p)
	return tm
}

// Same reports whether p declares the same modules as the load tm was
// made from, tool for tool.
func (tm *ToolModules) Same(p *Project) bool {
	if p == nil || p.Model == nil {
		return len(tm.modules) == 0
	}
	if p.Root != tm.root || len(p.Model.Tools) != len(tm.modules) {
		return false
	}
	for i := range p.Model.Tools {
		if p.Model.Tools[i].Module != tm.modules[i] {
			return false
		}
	}
	return true
}

// InspectionWith is Inspection for a p of which tm.Same(p) holds, where
// tm was made by b.ToolModules: only the tools declaring a module that
// will not load, or one that reads context.env, are visited.
func (b *ModuleBase) InspectionWith(p *Project, tm *ToolModules) *Inspection {
	var moduleLoad []diag.Finding
	for _, ft := range tm.failing {
		t := p.Model.Tools[ft.tool]
		if t.File == "" {
			continue
		}
		moduleLoad = append(moduleLoad, moduleLoadFinding(p, t, ft.rel, ft.sayPrior+t.Name+moduleLoadAfter, b.failing[t.Module]))
	}
	return b.inspection(moduleLoad, b.secrets.findings(p, tm.readers))
}

// inspection merges the base's module findings with moduleLoad, T11 in
// tool order, and secrets, A4 (sorted).
func (b *ModuleBase) inspection(moduleLoad, secrets []diag.Finding) *Inspection {
	diag.Sort(moduleLoad)
	// Stable sorting the module findings followed by T11 then A4 gives
	// this merge.
	out := &Inspection{Results: b.results, Findings: diag.Merge(b.findings, moduleLoad)}
	if len(secrets) > 0 {
		out.Findings = diag.Merge(out.Findings, secrets)
	}
	if len(out.Findings) == 0 {
		out.Findings = nil
	}
	return out
}

// appendModuleLoad appends T11 on tool t, whose module will not load (r
// says why), unless t has no declaring file.
func appendModuleLoad(fs []diag.Finding, p *Project, t *Tool, r *tsinspect.Result) []diag.Finding {
	if t.Module == "" || t.File == "" {
		return fs
	}
	rel := p.Rel(t.Module)
	return append(fs, moduleLoadFinding(p, t, rel, moduleLoadMessage(t.Name, rel, r), r))
}

// moduleLoadFinding is T11 on tool t of p, whose module (rel from the
// root) will not load, r says why.
func moduleLoadFinding(p *Project, t *Tool, rel, message string, r *tsinspect.Result) diag.Finding {
	f := diag.Finding{
		File:     t.File,
		Range:    p.File(t.File).Range(t.Value),
		Severity: ruleModuleLoad.Severity,
		Code:     ruleModuleLoad.Code,
		Message:  message,
		Data:     map[string]string{"name": t.Name, "module": rel},
	}
	if !r.ReasonRange.IsZero() || r.Reason != "" {
		f.Related = []diag.Related{{File: t.Module, Range: r.ReasonRange, Message: r.Reason}}
	}
	return f
}
