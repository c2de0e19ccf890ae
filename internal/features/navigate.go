package features

import (
	"sort"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// Definition returns where the thing under offset is defined:
//   - a module path under tools: (or its key): the module, at its
//     `export default` when the inspection found it, else at its start;
//   - a name in an agent's tools: its key under tools: in whichever file
//     declares it;
//   - an imports: entry: the imported file, at its start.
//
// It returns nil when there is no definition (a Beeuni or harness tool, a
// missing file).
func Definition(p *analysis.Project, modules Modules, path string, offset int) []Location {
	f, path := projectFile(p, path)
	if f == nil {
		return nil
	}
	ix := indexAt(p, f, offset)
	if e, _ := ix.toolAt(offset); e != nil {
		if abs := newModuleFinder(p, path).of(e); abs != "" {
			return []Location{moduleLocation(modules, abs)}
		}
		return nil
	}
	if _, r := ix.refAt(offset); r != nil {
		if loc, ok := declaration(p, r.Name); ok {
			return []Location{loc}
		}
		return nil
	}
	if e := ix.importAt(offset); e != nil && e.Target != "" && p.File(e.Target) != nil {
		return []Location{{File: e.Target}}
	}
	return nil
}

// moduleFinder answers, for the tools: entries of one file, the module
// each is loaded from, in O(log n) an entry: DocumentLinks asks for every
// entry, and a scan of every tool and finding per entry made the links of
// 10,000 tools cost 100 million comparisons.
type moduleFinder struct {
	modules map[string]string // tool name -> module, the first declared in the file
	missing []diag.Range      // T6 ranges in the file, by start
	maxEnd  []int             // maxEnd[i]: the largest end offset in missing[:i+1]
}

func newModuleFinder(p *analysis.Project, path string) *moduleFinder {
	mf := &moduleFinder{modules: map[string]string{}}
	if p.Model == nil {
		return mf
	}
	for _, t := range p.Model.Tools {
		if _, seen := mf.modules[t.Name]; !seen && samePath(t.File, path) && t.Module != "" {
			mf.modules[t.Name] = t.Module
		}
	}
	for _, fd := range p.Findings {
		if samePath(fd.File, path) && fd.Code == analysis.CodeMissing {
			mf.missing = append(mf.missing, fd.Range)
		}
	}
	sort.Slice(mf.missing, func(i, j int) bool { return mf.missing[i].Start.Offset < mf.missing[j].Start.Offset })
	mf.maxEnd = make([]int, len(mf.missing))
	for i, r := range mf.missing {
		mf.maxEnd[i] = r.End.Offset
		if i > 0 {
			mf.maxEnd[i] = max(mf.maxEnd[i], mf.maxEnd[i-1])
		}
	}
	return mf
}

// of returns the absolute module path of a tools: entry, when the session
// loads it from a module that exists ("" when T6 reports it missing).
func (mf *moduleFinder) of(e *toolEntry) string {
	abs := mf.modules[e.Name]
	if abs == "" {
		return ""
	}
	// A T6 range overlapping the value (ends included): one starting at
	// or before the value's end and ending at or after its start.
	v := e.Value()
	hi := sort.Search(len(mf.missing), func(i int) bool { return mf.missing[i].Start.Offset > v.End.Offset })
	if hi > 0 && mf.maxEnd[hi-1] >= v.Start.Offset {
		return "" // T6: the file does not exist
	}
	return abs
}

// moduleLocation points at a module's default export, or its start.
func moduleLocation(modules Modules, abs string) Location {
	if r := modules[abs]; r != nil && !r.DefaultExport.IsZero() {
		return Location{File: abs, Range: r.DefaultExport}
	}
	return Location{File: abs}
}

// declaration finds the key that declares a tool, in any file of p.
func declaration(p *analysis.Project, name string) (Location, bool) {
	for _, f := range p.Files {
		for _, e := range indexFile(p, f).tools {
			if e.Name == name {
				return Location{File: f.Path, Range: e.Key()}, true
			}
		}
	}
	return Location{}, false
}

// DocumentLinks returns every module path under tools: and every imports:
// entry of path that points at a file the project has (a module that exists,
// an imported file that loaded).
func DocumentLinks(p *analysis.Project, path string) []DocumentLink {
	f, path := projectFile(p, path)
	if f == nil {
		return nil
	}
	ix := indexFile(p, f)
	var out []DocumentLink
	mf := newModuleFinder(p, path)
	for i := range ix.tools {
		e := &ix.tools[i]
		if abs := mf.of(e); abs != "" {
			out = append(out, DocumentLink{Range: e.Value(), Target: abs})
		}
	}
	for _, e := range ix.imports {
		if e.Target != "" && p.File(e.Target) != nil {
			out = append(out, DocumentLink{Range: e.Range, Target: e.Target})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Range.Start.Offset < out[j].Range.Start.Offset })
	return out
}

// mention is one place a tool name is written.
type mention struct {
	file string
	rng  diag.Range
	decl bool // the key under tools:
}

// mentions lists every place a tool name is written in the files of p
// (only in path when path is not ""), in file order.
func mentions(p *analysis.Project, name, path string) []mention {
	var out []mention
	for _, f := range p.Files {
		if path != "" && !samePath(f.Path, path) {
			continue
		}
		ix := indexFile(p, f)
		for _, e := range ix.tools {
			if e.Name == name {
				out = append(out, mention{file: f.Path, rng: e.Key(), decl: true})
			}
		}
		for _, a := range ix.agents {
			for _, r := range a.Refs {
				if r.Name == name {
					out = append(out, mention{file: f.Path, rng: r.Range()})
				}
			}
		}
	}
	return out
}

// References returns every mention of the tool under offset (a tools: key
// or a name in an agent's tools) in every file of the project. With
// includeDecl, the tools: keys that declare it are included.
func References(p *analysis.Project, path string, offset int, includeDecl bool) []Location {
	f, _ := projectFile(p, path)
	if f == nil {
		return nil
	}
	name, _, ok := indexAt(p, f, offset).nameAt(offset)
	if !ok {
		return nil
	}
	var out []Location
	for _, m := range mentions(p, name, "") {
		if m.decl && !includeDecl {
			continue
		}
		out = append(out, Location{File: m.file, Range: m.rng})
	}
	return out
}

// DocumentHighlights returns every mention, in path, of the tool under
// offset. The declaring key is marked Write.
func DocumentHighlights(p *analysis.Project, path string, offset int) []Highlight {
	f, path := projectFile(p, path)
	if f == nil {
		return nil
	}
	name, _, ok := indexAt(p, f, offset).nameAt(offset)
	if !ok {
		return nil
	}
	var out []Highlight
	for _, m := range mentions(p, name, path) {
		out = append(out, Highlight{Range: m.rng, Write: m.decl})
	}
	return out
}
