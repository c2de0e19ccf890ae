package edit

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/beeunitools"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// Refusal is why an eject or a return cannot run: one line, saying what to
// change. Forceable refusals are lifted by --force (the overwrite action).
type Refusal struct {
	Reason    string
	Forceable bool
}

func (r *Refusal) Error() string { return r.Reason }

func refuse(format string, args ...any) error {
	return &Refusal{Reason: fmt.Sprintf(format, args...)}
}

// EjectedComment is the comment that ends an ejected entry's line.
func EjectedComment(name string) string { return "# ejected from beeuni:" + name }

// EjectedPath is the module path eject writes, repo-relative.
func EjectedPath(name string) string { return "tools/" + name + ".ts" }

// EjectTitle is the menu title of the eject action.
func EjectTitle(name string, overwrite bool) string {
	if overwrite {
		return fmt.Sprintf("Eject %s (overwrite %s)", name, EjectedPath(name))
	}
	return "Eject " + name
}

// Eject plans giving the project its own copy of a Beeuni tool (SPEC
// section 7): create tools/<name>.ts with the embedded source and set
// `<name>: tools/<name>.ts  # ejected from beeuni:<name>` in the file that
// declares the entry. With no tools: key anywhere, the root file gets one
// listing the other four Beeuni tools too. The error, a *Refusal, is one
// line; force lifts the refusals for an existing file or another module.
func Eject(p *analysis.Project, fsys vfs.FS, name string, force bool) (*Change, error) {
	return eject(p, fsys, name, force, true)
}

// eject is Eject; verify false skips the check of the edited manifest (a
// parse of the whole file and of its meaning) and marks the change
// Unverified.
func eject(p *analysis.Project, fsys vfs.FS, name string, force, verify bool) (*Change, error) {
	if !analysis.IsBeeuniTool(name) {
		return nil, refuse("%q is not a Beeuni tool: eject one of %s", name, strings.Join(analysis.BeeuniTools(), ", "))
	}
	src, ok := beeunitools.Source(name)
	if !ok {
		return nil, refuse("no embedded source for %s", name)
	}
	rel := EjectedPath(name)
	target := filepath.Join(p.Root, filepath.FromSlash(rel))
	if err := checkToolsFolder(fsys, p.Root); err != nil {
		return nil, err
	}
	exists := false
	if _, err := fsys.Stat(target); err == nil {
		exists = true
	} else if _, lerr := fsys.EvalSymlinks(target); lerr == nil {
		exists = true // a dangling link: writing would follow it
	}
	if exists && !force {
		return nil, &Refusal{Reason: fmt.Sprintf("%s exists: edit it, or pass --force to overwrite it with the Beeuni source", rel), Forceable: true}
	}

	// A file that does not parse has its Y1 finding, with a position:
	// unclearMeaning says it before the bare "does not parse".
	if why := unclearMeaning(p); why != "" {
		return nil, refuse("cannot eject %s: %s", name, why)
	}
	m := prepare(p)
	if bad := m.unparsed(); bad != "" {
		return nil, refuse("%s does not parse: fix its YAML first", bad)
	}
	comment := EjectedComment(name)
	var f *yfile
	kept := "" // the other module a forced eject repoints the entry from
	var edits []TextEdit
	var intend func(map[string]any) bool
	switch ds := m.decls(name); {
	case len(ds) > 1:
		files := make([]string, len(ds))
		for i, d := range ds {
			files[i] = d.rel
		}
		return nil, refuse("%s is declared %d times (%s): keep one declaration, then eject", name, len(ds), strings.Join(files, ", "))
	case len(ds) == 1:
		d := ds[0]
		if err := d.unmerged("eject"); err != nil {
			return nil, err
		}
		f = d.file
		if d.value.Kind != yaml.ScalarNode || d.value.Tag != "!!str" {
			return nil, refuse("tools.%s in %s is not a string: set it to beeuni:%s first", name, d.rel, name)
		}
		value := d.value.Value
		// An entry that already names tools/<name>.ts whose file is missing
		// is ejected: the file is written and the line tagged (the file
		// that exists was refused above).
		if !strings.HasPrefix(value, analysis.BeeuniPrefix) && filepathCleanSlash(value) != rel {
			if !force {
				return nil, &Refusal{Reason: fmt.Sprintf("%s already points to %s: edit that module, or pass --force to point it at %s instead (%s stays on disk)", name, value, rel, value), Forceable: true}
			}
			kept = value
		}
		e, err := setValueWithComment(f, d, rel, comment)
		if err != nil {
			return nil, refuse("cannot rewrite tools.%s in %s safely: %v", name, d.rel, err)
		}
		edits = e
		intend = func(doc map[string]any) bool {
			tools, ok := child(doc, "tools", false)
			if !ok {
				return false
			}
			tools[name] = rel
			return true
		}
	case m.hasToolsKey():
		// The project removed the tool: add it back, as the project's copy.
		var key, tools *yaml.Node
		f, key, tools = m.toolsTarget()
		e, err := f.addEntries(tools, key, []entry{{key: name, value: rel, comment: comment}})
		if err != nil {
			return nil, refuse("cannot add %s to tools: in %s safely: %v", name, p.Rel(f.path), err)
		}
		edits = e
		intend = func(doc map[string]any) bool {
			tools, ok := child(doc, "tools", true)
			if !ok {
				return false
			}
			tools[name] = rel
			return true
		}
	default:
		// No tools: key: the session gets all five. Write all five, so that
		// ejecting removes nothing.
		f = m.files[0]
		var entries []entry
		for _, n := range analysis.BeeuniTools() {
			if n == name {
				entries = append(entries, entry{key: n, value: rel, comment: comment})
			} else {
				entries = append(entries, entry{key: n, value: analysis.BeeuniPrefix + n})
			}
		}
		e, err := f.addTopKey("tools", entries)
		if err != nil {
			return nil, refuse("cannot add a tools: key to %s safely: %v", p.Files[0].Rel, err)
		}
		edits = e
		intend = func(doc map[string]any) bool {
			if _, had := doc["tools"]; had {
				return false
			}
			tools := map[string]any{}
			for _, e := range entries {
				tools[e.key] = e.value
			}
			doc["tools"] = tools
			return true
		}
	}
	if verify {
		if _, err := checked(f, edits, intend); err != nil {
			return nil, refuse("cannot eject %s: %v", name, err)
		}
	}
	title := EjectTitle(name, exists)
	if kept != "" {
		overwrite := ""
		if exists {
			overwrite = ", overwritten"
		}
		title = fmt.Sprintf("Eject %s (point it at %s%s instead of %s, kept on disk)", name, rel, overwrite, kept)
	}
	return &Change{
		Title:      title,
		Kept:       kept,
		Kind:       KindRefactor,
		Edits:      edits,
		Create:     []NewFile{{Path: target, Content: src, Overwrite: force}},
		Show:       target,
		Base:       map[string]string{f.path: f.sum()},
		Unverified: !verify,
	}, nil
}

// EjectActions returns the eject actions the editor offers for name: the
// action itself, or, when it is refused, the refused action disabled with
// its reason and, where --force would help, the explicit overwrite action.
func EjectActions(p *analysis.Project, fsys vfs.FS, name string) []*Change {
	return ejectActions(p, fsys, name, true)
}

func ejectActions(p *analysis.Project, fsys vfs.FS, name string, verify bool) []*Change {
	c, err := eject(p, fsys, name, false, verify)
	if err == nil {
		return []*Change{c}
	}
	out := []*Change{{Title: EjectTitle(name, false), Kind: KindRefactor, Disabled: err.Error()}}
	var r *Refusal
	if errors.As(err, &r) && r.Forceable {
		if fc, ferr := eject(p, fsys, name, true, verify); ferr == nil {
			out = append(out, fc) // titled for what --force does
		}
	}
	return out
}

// checkToolsFolder refuses a tools folder (or file) that leads out of the
// repository or is not a folder.
func checkToolsFolder(fsys vfs.FS, root string) error {
	dir := filepath.Join(root, "tools")
	real, err := fsys.EvalSymlinks(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return refuse("cannot check tools/: %v", err)
	}
	realRoot, err := fsys.EvalSymlinks(root)
	if err != nil {
		return refuse("cannot resolve the repository folder: %v", err)
	}
	if !vfs.Within(realRoot, real) {
		return refuse("tools/ is a symbolic link out of the repository (to %s): eject writes only inside the repository", real)
	}
	info, err := fsys.Stat(dir)
	if err != nil {
		return refuse("cannot check tools/: %v", err)
	}
	if !info.IsDir() {
		return refuse("tools is a file, not a folder: move it away, then eject")
	}
	return nil
}

// setValueWithComment rewrites an entry's value and ends its line with
// comment, replacing a comment that stood there (a flow mapping's `,` or `}`
// stays before the comment).
func setValueWithComment(f *yfile, d decl, value, comment string) ([]TextEdit, error) {
	s, e, err := f.scalarSpan(d.value, isFlow(d.tools))
	if err != nil {
		return nil, err
	}
	if e == s {
		return nil, errUnsupported
	}
	edits := []TextEdit{{File: f.path, Start: s, End: e, NewText: requote(d.value, value)}}
	if comment != "" {
		if c, ok := f.setLineComment(e, comment); ok {
			edits = append(edits, c...)
		}
	}
	return edits, nil
}

// ReturnTitle is the menu title of the return action.
func ReturnTitle(name string) string { return "Return to beeuni:" + name }

// ReturnActions are the return actions of name: ReturnToBeeuni's change
// and, when it deletes the module (titled ReturnDeleteTitle), the same
// change keeping the file.
func ReturnActions(p *analysis.Project, fsys vfs.FS, name string) []*Change {
	c, err := ReturnToBeeuni(p, fsys, name)
	if err != nil {
		return nil
	}
	if len(c.Delete) == 0 {
		return []*Change{c}
	}
	keep := *c
	keep.Title, keep.Delete = ReturnKeepTitle(name), nil
	return []*Change{c, &keep}
}

// ReturnToBeeuni plans going back to the maintained tool (SPEC section 7):
// the entry becomes `<name>: beeuni:<name>` (dropping the `# ejected from`
// comment) and the module file is deleted when it is still the copy eject
// wrote and nothing else uses it (keepReason; no other entry names it),
// under ReturnDeleteTitle. Otherwise the change keeps the file and is
// titled ReturnKeepTitle.
func ReturnToBeeuni(p *analysis.Project, fsys vfs.FS, name string) (*Change, error) {
	if !analysis.IsBeeuniTool(name) {
		return nil, refuse("%q is not a Beeuni tool: only %s can return to beeuni:", name, strings.Join(analysis.BeeuniTools(), ", "))
	}
	m := prepare(p)
	ds := m.decls(name)
	switch {
	case len(ds) == 0:
		if bad := m.unparsed(); bad != "" {
			return nil, refuse("%s does not parse: fix its YAML first", bad)
		}
		return nil, refuse("%s is not declared under tools:", name)
	case len(ds) > 1:
		return nil, refuse("%s is declared %d times: keep one declaration first", name, len(ds))
	}
	d := ds[0]
	if err := d.unmerged("return"); err != nil {
		return nil, err
	}
	if d.value.Kind != yaml.ScalarNode || d.value.Tag != "!!str" {
		return nil, refuse("tools.%s in %s is not a string", name, d.rel)
	}
	module := d.value.Value
	if strings.HasPrefix(module, analysis.BeeuniPrefix) {
		return nil, refuse("%s is not ejected: it is %s", name, module)
	}
	f := d.file
	target := analysis.BeeuniPrefix + name
	s, e, err := f.scalarSpan(d.value, isFlow(d.tools))
	if err != nil || s == e {
		return nil, refuse("cannot rewrite tools.%s in %s safely", name, d.rel)
	}
	edits := []TextEdit{{File: f.path, Start: s, End: e, NewText: requote(d.value, target)}}
	cs, ce, found, ok := f.commentAfter(e)
	if ok && found {
		// Remove the marker eject added, and only it: a user's comment
		// before it stays.
		text := strings.TrimRight(string(f.content[cs:ce]), " \t")
		if marker := EjectedComment(name); text == marker || strings.HasSuffix(text, " "+marker) {
			ms := cs + len(text) - len(marker)
			for ms > e && isBlank(f.content[ms-1]) {
				ms--
			}
			edits = append(edits, TextEdit{File: f.path, Start: ms, End: ce})
		}
	}
	if _, err := checked(f, edits, func(doc map[string]any) bool {
		tools, ok := child(doc, "tools", false)
		if ok {
			tools[name] = target
		}
		return ok
	}); err != nil {
		return nil, refuse("cannot return %s: %v", name, err)
	}
	c := &Change{
		Title: ReturnTitle(name),
		Kind:  KindRefactor,
		Edits: edits,
		Base:  map[string]string{f.path: f.sum()},
	}
	abs := repoPath(p.Root, module)
	why := ""
	switch {
	case abs == "":
		why = fmt.Sprintf("%s is not a path inside the repository", module)
	case m.moduleUsedElsewhere(module, d):
		why = fmt.Sprintf("another entry names %s", module)
	default:
		why = keepReason(p, fsys, name, abs)
	}
	if why == "" {
		c.Title = ReturnDeleteTitle(name, p.Rel(abs))
		c.Delete = []string{abs}
	} else {
		c.Title = ReturnKeepTitle(name)
	}
	return c, nil
}

// moduleUsedElsewhere reports whether another tools entry (merged ones
// included) names module.
func (m *manifests) moduleUsedElsewhere(module string, self decl) bool {
	for _, f := range m.files {
		if f == nil {
			continue
		}
		for j := range f.tree.Tools.Entries {
			d := &f.tree.Tools.Entries[j]
			if d.Value == self.value || d.Kind() != analysis.ValuePath {
				continue
			}
			if filepathCleanSlash(d.Resolved().Value) == filepathCleanSlash(module) {
				return true
			}
		}
	}
	return false
}

func filepathCleanSlash(p string) string {
	return filepath.ToSlash(filepath.Clean(filepath.FromSlash(p)))
}
