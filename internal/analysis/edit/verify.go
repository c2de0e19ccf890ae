package edit

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// Preview returns fsys as it would be after the change: edited and created
// files read their new content, deleted files are gone. Nothing is written.
func Preview(fsys vfs.FS, c *Change) (vfs.FS, error) {
	pf := &planFS{base: fsys, files: map[string][]byte{}, deleted: map[string]bool{}}
	for _, file := range c.Files() {
		edits := c.EditsOf(file)
		if len(edits) == 0 {
			continue
		}
		content, err := fsys.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", file, err)
		}
		if want, ok := c.Base[file]; ok && want != digest(content) {
			return nil, fmt.Errorf("%s changed since the edit was planned", file)
		}
		out, err := ApplyText(content, edits)
		if err != nil {
			return nil, err
		}
		pf.files[filepath.Clean(file)] = out
	}
	for _, nf := range c.Create {
		pf.files[filepath.Clean(nf.Path)] = nf.Content
	}
	for _, d := range c.Delete {
		pf.deleted[filepath.Clean(d)] = true
	}
	return pf, nil
}

// Verify re-loads the project as the change would leave it and checks that
// every file still parses, that no finding appears that was not there
// before, and, for a quick fix, that the finding it fixes is gone.
func Verify(ctx context.Context, p *analysis.Project, fsys vfs.FS, c *Change) error {
	return newVerifier(p, fsys).check(ctx, c)
}

// verifier checks changes planned on one loaded project as Verify does,
// for a request that checks many. Its loads share one parse cache: the
// first parses every file and runs every rule, each later one parses again
// only the chunks its change edits and runs again only the rules of the
// entries in them (analysis.Cache), as a keystroke's load does. A change
// equal to one loaded already (the same edits, files created and deleted)
// is not loaded again: it leaves the same project.
type verifier struct {
	p     *analysis.Project
	fsys  vfs.FS
	cache *analysis.Cache
	// before counts p's findings (countFindings), made on the first check.
	before map[findingKey]int
	// after holds what each change loaded leaves, by changeKey.
	after map[string]loaded
	// movedFiles is set while the cache's last load saw files created or
	// deleted: the cache keeps what the rules read of the files around
	// the manifests (T5, T6, the folders' listings) until FilesChanged.
	movedFiles bool
}

// loaded is what the project as a change leaves it gave: its findings
// counted, or why it would not load.
type loaded struct {
	now map[findingKey]int
	err error
}

func newVerifier(p *analysis.Project, fsys vfs.FS) *verifier {
	return &verifier{p: p, fsys: fsys, cache: analysis.NewCache(), after: map[string]loaded{}}
}

// check is Verify for one change of v's project. The error is ctx's when
// ctx ends, before the load or during it (a load that stopped may have
// missed files: what it gave is not kept).
func (v *verifier) check(ctx context.Context, c *Change) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	key := changeKey(c)
	l, ok := v.after[key]
	if !ok {
		l = v.load(ctx, c)
		if err := ctx.Err(); err != nil {
			return err
		}
		v.after[key] = l
	}
	if l.err != nil {
		return l.err
	}
	if v.before == nil {
		v.before = countFindings(v.p)
	}
	for k, n := range l.now {
		if n > v.before[k] {
			return fmt.Errorf("the change would add a finding %s in %s", k.code, v.p.Rel(k.file))
		}
	}
	if c.Fixes != nil {
		k := findingKey{file: c.Fixes.File, code: c.Fixes.Code, name: c.Fixes.Data[analysis.DataName]}
		if k.code == analysis.CodeShadow || k.code == analysis.CodeHarnessOnly {
			k.file = ""
		}
		if l.now[k] >= v.before[k] {
			return fmt.Errorf("the change would not fix %s", c.Fixes.Code)
		}
	}
	return nil
}

// load loads the project as c would leave it, through v's cache.
func (v *verifier) load(ctx context.Context, c *Change) loaded {
	after, err := Preview(v.fsys, c)
	if err != nil {
		return loaded{err: err}
	}
	moves := len(c.Create) > 0 || len(c.Delete) > 0
	if moves || v.movedFiles {
		v.cache.FilesChanged()
	}
	v.movedFiles = moves
	q, err := analysis.LoadCached(ctx, after, v.p.Root, v.cache)
	if err != nil {
		return loaded{err: fmt.Errorf("the project would not load: %w", err)}
	}
	return loaded{now: countFindings(q)}
}

// changeKey identifies what a change does to the files: its edits, the
// files it creates (with their content) and deletes. Two changes with one
// key leave the same project.
func changeKey(c *Change) string {
	var b strings.Builder
	field := func(s string) { fmt.Fprintf(&b, "%d:%s", len(s), s) }
	for _, file := range c.Files() {
		field(file)
		for _, e := range c.EditsOf(file) {
			fmt.Fprintf(&b, "%d-%d", e.Start, e.End)
			field(e.NewText)
		}
	}
	for _, nf := range c.Create {
		field("create " + nf.Path)
		field(fmt.Sprint(nf.Overwrite))
		field(digest(nf.Content))
	}
	for _, d := range c.Delete {
		field("delete " + d)
	}
	return b.String()
}

type findingKey struct{ file, code, name string }

// countFindings counts findings by file, code and tool name. A copy under
// harnesses/opencode/tools/ (H1, H2) counts once per tool name, wherever it
// is reported: declaring the tool restates it on the entry, it adds nothing.
func countFindings(p *analysis.Project) map[findingKey]int {
	out := map[findingKey]int{}
	for _, f := range p.Findings {
		k := findingKey{file: f.File, code: f.Code, name: f.Data[analysis.DataName]}
		if f.Code == analysis.CodeShadow || f.Code == analysis.CodeHarnessOnly {
			k.file = ""
			out[k] = 1
			continue
		}
		out[k]++
	}
	return out
}

// planFS lays planned contents and deletions over a base file system.
type planFS struct {
	base    vfs.FS
	files   map[string][]byte
	deleted map[string]bool
}

func (p *planFS) ReadFile(name string) ([]byte, error) {
	name = filepath.Clean(name)
	if c, ok := p.files[name]; ok {
		return c, nil
	}
	if p.deleted[name] {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return p.base.ReadFile(name)
}

func (p *planFS) Stat(name string) (fs.FileInfo, error) {
	name = filepath.Clean(name)
	if c, ok := p.files[name]; ok {
		return planInfo{name: filepath.Base(name), size: int64(len(c))}, nil
	}
	if p.deleted[name] {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	if info, err := p.base.Stat(name); err == nil || !p.holdsPlanned(name) {
		return info, err
	}
	return planInfo{name: filepath.Base(name), dir: true}, nil
}

// holdsPlanned reports whether a created file lies under dir.
func (p *planFS) holdsPlanned(dir string) bool {
	for f := range p.files {
		if strings.HasPrefix(f, dir+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

func (p *planFS) ReadDir(name string) ([]fs.DirEntry, error) {
	name = filepath.Clean(name)
	entries, err := p.base.ReadDir(name)
	if err != nil && !p.holdsPlanned(name) {
		return nil, err
	}
	byName := map[string]fs.DirEntry{}
	for _, e := range entries {
		if !p.deleted[filepath.Join(name, e.Name())] {
			byName[e.Name()] = e
		}
	}
	for f, c := range p.files {
		if filepath.Dir(f) == name {
			byName[filepath.Base(f)] = fs.FileInfoToDirEntry(planInfo{name: filepath.Base(f), size: int64(len(c))})
		} else if rel, err := filepath.Rel(name, f); err == nil && !strings.HasPrefix(rel, "..") {
			first := strings.SplitN(rel, string(filepath.Separator), 2)[0]
			if _, ok := byName[first]; !ok {
				byName[first] = fs.FileInfoToDirEntry(planInfo{name: first, dir: true})
			}
		}
	}
	out := make([]fs.DirEntry, 0, len(byName))
	for _, e := range byName {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

func (p *planFS) EvalSymlinks(name string) (string, error) {
	clean := filepath.Clean(name)
	if _, ok := p.files[clean]; ok {
		// A created file: resolve its folder, which may not exist yet.
		dir, err := p.EvalSymlinks(filepath.Dir(clean))
		if err != nil {
			return clean, nil
		}
		return filepath.Join(dir, filepath.Base(clean)), nil
	}
	if p.deleted[clean] {
		return "", &fs.PathError{Op: "lstat", Path: clean, Err: fs.ErrNotExist}
	}
	real, err := p.base.EvalSymlinks(name)
	if err != nil && p.holdsPlanned(clean) {
		return clean, nil
	}
	return real, err
}

type planInfo struct {
	name string
	size int64
	dir  bool
}

func (i planInfo) Name() string { return i.name }
func (i planInfo) Size() int64  { return i.size }
func (i planInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}
func (i planInfo) ModTime() time.Time { return time.Time{} }
func (i planInfo) IsDir() bool        { return i.dir }
func (i planInfo) Sys() any           { return nil }
