package analysis

import (
	"path/filepath"
	"slices"
	"sort"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
)

// Snapshot is one project as a Session computed it from one state of the
// files: the load (parsed files, model, YAML findings), the module
// inspection made for that load when there is one, and the versions of the
// open documents it was computed from. A Snapshot is never modified: the
// module pass that completes it (Session.InspectModules) makes a new one.
// Every field and every value it returns is shared: read-only.
type Snapshot struct {
	Root string
	// Gen is the generation of the files it was computed from
	// (Changes.Gen): a higher Gen is a newer state.
	Gen uint64
	// Project is the load.
	Project *Project
	// Inspection is the module inspection made for Project (T11, A4, the
	// module files' findings); nil while the module pass has not run for
	// it (ModulesPending), or when inspection is off.
	Inspection *Inspection

	pending  bool                         // the module pass has not run for Project
	told     uint64                       // Session.told when it was made
	inspect  bool                         // Changes.InspectModules
	watched  bool                         // Changes.Watched
	modules  map[string]*tsinspect.Result // the newest module results known when made
	versions map[string]int32             // the open documents' versions
	lastGood map[string]*Project          // by file: the newest load in which it parsed
}

// ModulesPending reports whether the snapshot still needs a module pass
// (Session.InspectModules) for its module findings.
func (s *Snapshot) ModulesPending() bool { return s.pending }

// Modules returns the module results the editor features read (a module's
// description, its exports): the snapshot's inspection's, else, while its
// pass is pending, those of the newest pass before it; nil when inspection
// is off or no pass has ended.
func (s *Snapshot) Modules() map[string]*tsinspect.Result {
	if s.Inspection != nil {
		return s.Inspection.Results
	}
	return s.modules
}

// Version returns the version of the open document path was read from,
// and false when it was not open.
func (s *Snapshot) Version(path string) (int32, bool) {
	v, ok := s.versions[path]
	return v, ok
}

// Findings returns every finding of the snapshot in path: the YAML ones
// and the module inspection's, in diag.Sort's order. Both lists are
// sorted by file first, so path's findings are a run of each, found by
// binary search: a code action at 10,000 tools does not walk them all.
func (s *Snapshot) Findings(path string) []diag.Finding {
	path = filepath.Clean(path)
	yamlRun := fileRun(s.Project.Findings, path)
	if s.Inspection == nil {
		return slices.Clone(yamlRun)
	}
	return diag.Merge(yamlRun, fileRun(s.Inspection.Findings, path))
}

// fileRun returns the findings of path in fs, sorted by diag.Sort.
func fileRun(fs []diag.Finding, path string) []diag.Finding {
	start := sort.Search(len(fs), func(i int) bool { return fs[i].File >= path })
	end := start
	for end < len(fs) && fs[end].File == path {
		end++
	}
	return fs[start:end:end]
}

// Fallback returns the load the features read path in: the snapshot's,
// unless path has a syntax error there, then the newest load in which it
// parsed (when there is one), so that completion, hover and navigation
// keep working while the user types broken YAML.
func (s *Snapshot) Fallback(path string) *Project {
	if f := s.Project.File(path); f != nil && f.SyntaxError != nil {
		if good := s.lastGood[f.Path]; good != nil {
			return good
		}
	}
	return s.Project
}

// Holds reports whether path is one of the project's files: a loaded YAML
// file (the manifest, an imported file) or a tool module.
func (s *Snapshot) Holds(path string) bool {
	p := s.Project
	if p.File(path) != nil {
		return true
	}
	if p.Model != nil {
		for _, t := range p.Model.Tools {
			if t.Module == path {
				return true
			}
		}
	}
	return false
}

// Awaits reports whether path is an import the project names but could
// not read (Project.Unread): a file appearing there changes the project.
func (s *Snapshot) Awaits(path string) bool {
	return slices.Contains(s.Project.Unread, filepath.Clean(path))
}

// withModules returns a copy of s completed by a module pass (insp nil:
// inspection is off).
func (s *Snapshot) withModules(insp *Inspection) *Snapshot {
	c := *s
	c.Inspection, c.pending, c.modules = insp, false, nil
	if insp != nil {
		c.modules = insp.Results
	}
	return &c
}
