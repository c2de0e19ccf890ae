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
		if abs := moduleOf(p, path, e); abs != "" {
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

// moduleOf returns the absolute module path of a tools: entry in path, when
// the session loads it from a module that exists.
func moduleOf(p *analysis.Project, path string, e *toolEntry) string {
	if p.Model == nil {
		return ""
	}
	for _, t := range p.Model.Tools {
		if t.Name != e.Name || !samePath(t.File, path) || t.Module == "" {
			continue
		}
		for _, fd := range p.Findings {
			if samePath(fd.File, path) && fd.Code == analysis.CodeMissing && overlaps(fd.Range, e.Value()) {
				return "" // T6: the file does not exist
			}
		}
		return t.Module
	}
	return ""
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
	for i := range ix.tools {
		e := &ix.tools[i]
		if abs := moduleOf(p, path, e); abs != "" {
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
	file  string
	rng   diag.Range
	decl  bool // the key under tools:
	where string
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
