package analysis

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// maxImportedFiles bounds how many files one project may import.
const maxImportedFiles = 1000

// FindRoot returns the nearest ancestor folder of path (or path itself, when
// it is a folder) that holds beeuni.yaml.
func FindRoot(fsys vfs.FS, p string) (root string, ok bool) {
	dir := filepath.Clean(p)
	if info, err := fsys.Stat(dir); err != nil || !info.IsDir() {
		dir = filepath.Dir(dir)
	}
	for {
		if info, err := fsys.Stat(filepath.Join(dir, ManifestName)); err == nil && !info.IsDir() {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// Cache keeps parsed files between loads, so that a language server that
// reloads the project on every keystroke re-parses only the files whose
// content changed. An entry is keyed by the file's path and reused only when
// the content is byte-for-byte the same; a changed file is parsed again by
// chunks, reusing the chunks whose bytes did not change (chunkparse.go). A Cache is safe for concurrent use;
// the zero value is not: use NewCache.
type Cache struct {
	mu    sync.Mutex
	files map[string]*parsed
	// filesGen counts FilesChanged calls; memos hold the outcomes of one
	// project's entry rules (memo.go), by project root, each for the
	// filesGen it was made in. A load takes its project's memo out while
	// it runs, so that concurrent loads never share one.
	filesGen uint64
	memos    map[string]*resolveMemo
	parses   uint64 // parses made, to number them
	// chunkLines is the chunk size of the chunked parse (0: chunkTarget;
	// tests cut small files into many chunks).
	chunkLines int
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{files: map[string]*parsed{}, memos: map[string]*resolveMemo{}}
}

// FilesChanged tells the cache that files other than the YAML files it
// parsed may have changed: created, deleted, replaced by a link, opened or
// closed in an editor. The rules that look at the files around the
// manifests (T5's links, T6's modules) then run again for every entry; a
// caller that cannot tell when files change calls it before every load.
func (c *Cache) FilesChanged() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.filesGen++
	clear(c.memos)
}

// takeMemo returns root's memo for a load, removed from the cache until
// putMemo (a concurrent load of root gets a fresh one); nil without a cache.
func (c *Cache) takeMemo(root string) *resolveMemo {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	m := c.memos[root]
	delete(c.memos, root)
	if m == nil || m.filesGen != c.filesGen {
		m = newResolveMemo(c.filesGen)
	}
	m.startLoad()
	return m
}

// putMemo gives a memo back after a load, unless the files changed since.
func (c *Cache) putMemo(root string, m *resolveMemo) {
	if c == nil || m == nil {
		return
	}
	m.prune()
	c.mu.Lock()
	defer c.mu.Unlock()
	if m.filesGen == c.filesGen {
		c.memos[root] = m
	}
}

func (c *Cache) parse(p string, content []byte) *parsed {
	if c == nil {
		return parseFile(p, content)
	}
	c.mu.Lock()
	old := c.files[p]
	c.mu.Unlock()
	if old != nil && bytes.Equal(old.content, content) {
		return old
	}
	prev := old
	if prev == nil {
		prev = &parsed{}
	}
	target := c.chunkLines
	if target <= 0 {
		target = chunkTarget
	}
	np := parseFileAfter(p, content, prev, target)
	c.mu.Lock()
	c.parses++
	np.id = c.parses
	c.files[p] = np
	c.mu.Unlock()
	return np
}

// Forget drops the cached parse of path (for example when its file is
// deleted).
func (c *Cache) Forget(p string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.files, filepath.Clean(p))
}

// Load reads root/beeuni.yaml and its imports through fsys, checks every rule
// and resolves the model. The error is non-nil only when root/beeuni.yaml
// cannot be read; every problem inside the files is a finding.
func Load(ctx context.Context, fsys vfs.FS, root string) (*Project, error) {
	return LoadCached(ctx, fsys, root, nil)
}

// LoadCached is Load with a parse cache (nil: no cache). Files whose path
// and content match a cached entry are not parsed again; the rules, which
// are cheap, run again on every load.
func LoadCached(ctx context.Context, fsys vfs.FS, root string, cache *Cache) (*Project, error) {
	root = filepath.Clean(root)
	manifest := filepath.Join(root, ManifestName)
	content, err := fsys.ReadFile(manifest)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", manifest, err)
	}
	realRoot, err := fsys.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	l := &loader{
		ctx: ctx, fsys: fsys, root: root, realRoot: realRoot, cache: cache,
		budget: newExpandBudget(), byReal: map[string]*unit{}, dirs: map[string]*dirInfo{}, realDirs: map[string]realDir{},
		memo: cache.takeMemo(root),
	}
	defer cache.putMemo(root, l.memo)
	if l.memo != nil {
		l.dirs, l.realDirs = l.memo.dirs, l.memo.realDirs
	}
	rootUnit := l.addUnit(manifest, manifest, cache.parse(manifest, content), false)
	l.visitImports(rootUnit, []chainStep{{unit: rootUnit}})
	p := &Project{Root: root}
	for _, u := range l.units {
		p.Files = append(p.Files, u.file)
		l.findings = append(l.findings, u.parsed.findings...)
	}
	p.Model = l.resolve()
	l.checkHarnessFolder(p.Model)
	p.Findings = dedupe(l.findings)
	diag.Sort(p.Findings)
	return p, nil
}

// File returns the loaded YAML file with that absolute path, or nil.
func (p *Project) File(path string) *File {
	path = filepath.Clean(path)
	for _, f := range p.Files {
		if f.Path == path {
			return f
		}
	}
	return nil
}

// Rel returns path relative to the project root, slash-separated. A path
// outside the root comes back cleaned and slash-separated, unchanged.
func (p *Project) Rel(path string) string {
	return relTo(p.Root, path)
}

func relTo(root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(filepath.Clean(p))
	}
	return filepath.ToSlash(rel)
}

// unit is one loaded file with its parse.
type unit struct {
	real   string // the path with symbolic links resolved
	file   *File
	parsed *parsed
}

type chainStep struct {
	unit  *unit
	entry *yaml.Node // the import entry in the previous step's file that led here
}

type loader struct {
	ctx      context.Context
	fsys     vfs.FS
	root     string
	realRoot string
	cache    *Cache
	units    []*unit
	byReal   map[string]*unit
	findings []diag.Finding
	// dirs memoizes directory listings for module checks.
	dirs     map[string]*dirInfo
	realDirs map[string]realDir
	tools    *toolState
	budget   *expandBudget
	// lastEntry memoizes the last folder entry looked up.
	lastEntry entryMemo
	// memo keeps entry rules' outcomes between loads through a Cache (nil
	// without one).
	memo *resolveMemo
}

func (l *loader) addUnit(abs, real string, pr *parsed, imported bool) *unit {
	f := &File{
		Path: abs, Rel: relTo(l.root, abs), Content: pr.content, Lines: pr.lines, Doc: pr.doc,
		SyntaxError: pr.syntax, Imported: imported, chunks: pr.chunks, byChunks: pr.byChunks,
		marks: &YAMLMarks{p: pr.pos},
	}
	u := &unit{real: real, file: f, parsed: pr}
	l.units = append(l.units, u)
	l.byReal[real] = u
	return u
}

func (l *loader) add(u *unit, n *yaml.Node, sev diag.Severity, code, msg string, data map[string]string, related ...diag.Related) {
	l.findings = append(l.findings, diag.Finding{
		File: u.file.Path, Range: u.parsed.pos.nodeRange(n), Severity: sev, Code: code, Message: msg,
		Related: related, Data: data,
	})
}

// topValue returns the value of a top-level key of a file and its key node.
func topValue(pr *parsed, key string, b *expandBudget) (k, v *yaml.Node) {
	if pr.root == nil || pr.root.Kind != yaml.MappingNode {
		return nil, nil
	}
	for _, kv := range mapPairs(pr.root, b) {
		if kv.k.Kind == yaml.ScalarNode && kv.k.Value == key {
			return kv.k, kv.v
		}
	}
	return nil, nil
}

// visitImports loads the imports of u, depth first, in the order written.
func (l *loader) visitImports(u *unit, chain []chainStep) {
	if l.ctx.Err() != nil {
		return
	}
	key, v := topValue(u.parsed, "imports", l.budget)
	if key == nil {
		return
	}
	v = resolveAlias(v)
	if v == nil || v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return
	}
	if v.Kind != yaml.SequenceNode {
		l.add(u, v, diag.Error, CodeImportShape, msgImportsShape(), nil)
		return
	}
	seen := map[string]*yaml.Node{}
	for _, item := range v.Content {
		item := resolveAlias(item)
		if item == nil || item.Kind != yaml.ScalarNode || item.Tag != "!!str" {
			if item != nil {
				l.add(u, item, diag.Error, CodeImportShape, msgImportItem(), nil)
			}
			continue
		}
		raw := item.Value
		data := map[string]string{DataPath: raw}
		abs, problem := l.resolveRepoPath(raw)
		switch problem {
		case pathNotRelative:
			l.add(u, item, diag.Error, CodeImportPath, msgImportNotRelative(raw), data)
			continue
		case pathLeaves:
			l.add(u, item, diag.Error, CodeImportPath, msgImportLeaves(raw), data)
			continue
		}
		if !hasImportExtension(raw) {
			l.add(u, item, diag.Error, CodeImportExt, msgImportExt(raw), data)
			continue
		}
		switch problem {
		case pathLeavesLink:
			l.add(u, item, diag.Error, CodeImportPath, msgImportLeavesLink(raw), data)
			continue
		case pathBrokenLink:
			l.add(u, item, diag.Error, CodeImportPath, msgImportBrokenLink(raw), data)
			continue
		}
		canon := relTo(l.root, abs)
		if first, ok := seen[canon]; ok {
			firstLine := u.parsed.pos.nodeRange(first).Start.Line + 1
			l.add(u, item, diag.Error, CodeImportDup, msgImportDup(raw, firstLine), data,
				diag.Related{File: u.file.Path, Range: u.parsed.pos.nodeRange(first), Message: "the first entry"})
			continue
		}
		seen[canon] = item
		real, err := l.fsys.EvalSymlinks(abs)
		if err != nil {
			real = abs
		}
		// A cycle: the file is on the current chain.
		cycleAt := -1
		for i, step := range chain {
			if step.unit.file.Path == abs || step.unit.real == real {
				cycleAt = i
				break
			}
		}
		if cycleAt >= 0 {
			names := []string{}
			var related []diag.Related
			for i := cycleAt; i < len(chain); i++ {
				names = append(names, chain[i].unit.file.Rel)
				if i > cycleAt && chain[i].entry != nil {
					prev := chain[i-1].unit
					related = append(related, diag.Related{
						File: prev.file.Path, Range: prev.parsed.pos.nodeRange(chain[i].entry),
						Message: msgImportStep(prev.file.Rel, chain[i].unit.file.Rel),
					})
				}
			}
			names = append(names, chain[cycleAt].unit.file.Rel)
			related = append(related, diag.Related{
				File: u.file.Path, Range: u.parsed.pos.nodeRange(item),
				Message: msgImportStep(u.file.Rel, chain[cycleAt].unit.file.Rel),
			})
			l.add(u, item, diag.Error, CodeImportCycle, msgImportCycle(names), data, related...)
			continue
		}
		if _, ok := l.byReal[real]; ok {
			continue // already loaded through another import: load once
		}
		if len(l.units) > maxImportedFiles {
			l.add(u, item, diag.Error, CodeImportMissing, fmt.Sprintf("too many imported files (more than %d): `%s` is not loaded", maxImportedFiles, raw), data)
			continue
		}
		content, err := l.fsys.ReadFile(abs)
		if err != nil {
			switch {
			case isNotExist(err):
				l.add(u, item, diag.Error, CodeImportMissing, msgImportMissing(raw), data)
			case errors.Is(err, vfs.ErrNotRegular):
				l.add(u, item, diag.Error, CodeImportMissing, msgImportNotFile(raw), data)
			case errors.Is(err, vfs.ErrTooLarge):
				l.add(u, item, diag.Error, CodeImportMissing, msgImportTooLarge(raw), data)
			default:
				var pe *fs.PathError
				if errors.As(err, &pe) {
					err = pe.Err // the message names the file already
				}
				l.add(u, item, diag.Error, CodeImportMissing, msgImportUnreadable(raw, err), data)
			}
			continue
		}
		child := l.addUnit(abs, real, l.cache.parse(abs, content), true)
		l.visitImports(child, append(chain[:len(chain):len(chain)], chainStep{unit: child, entry: item}))
	}
}

func isNotExist(err error) bool {
	return err != nil && (errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), "not a directory"))
}

type pathProblem int

const (
	pathOK pathProblem = iota
	pathNotRelative
	pathLeaves
	pathLeavesLink
	pathBrokenLink // a folder on the way is a symbolic link that does not resolve
)

// hasSchemeOrDrive reports whether p starts like a URL scheme or a drive
// letter: ^[A-Za-z][A-Za-z0-9+.-]*:
func hasSchemeOrDrive(p string) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// resolveRepoPath checks a repo-relative path written by the user and
// returns its absolute form. It never reads the file.
func (l *loader) resolveRepoPath(raw string) (string, pathProblem) {
	if raw == "" || strings.HasPrefix(raw, "/") || strings.HasPrefix(raw, "\\") || strings.HasPrefix(raw, "~") ||
		hasSchemeOrDrive(raw) || strings.ContainsRune(raw, 0) {
		return "", pathNotRelative
	}
	if filepath.Separator == '/' && isCleanRel(raw) {
		// The common case (`tools/lookup.ts`): already clean, so the
		// absolute path is a concatenation.
		abs := joinClean(l.root, raw)
		return abs, l.linkProblem(abs)
	}
	clean := path.Clean(raw)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", pathLeaves
	}
	abs := filepath.Join(l.root, filepath.FromSlash(clean))
	return abs, l.linkProblem(abs)
}

// isCleanRel reports whether a slash-separated relative path is already in
// path.Clean's form and does not start with `..`: no empty, `.` or `..`
// element, no trailing slash, no backslash (a Windows separator).
func isCleanRel(p string) bool {
	if p == "" {
		return false
	}
	elemStart := 0
	for i := 0; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			if p[i] == '\\' {
				return false
			}
			continue
		}
		switch p[elemStart:i] {
		case "", ".", "..":
			return false
		}
		elemStart = i + 1
	}
	return true
}

// joinClean is filepath.Join(root, rel) for a clean root and a rel that
// isCleanRel accepts.
func joinClean(root, rel string) string {
	switch root {
	case "/":
		return root + rel
	case ".":
		return rel
	}
	return root + "/" + rel
}

// splitClean is filepath.Dir and filepath.Base of a clean absolute path.
func splitClean(abs string) (dir, base string) {
	i := strings.LastIndexByte(abs, filepath.Separator)
	if i < 0 || i == len(abs)-1 {
		return filepath.Dir(abs), filepath.Base(abs)
	}
	dir = abs[:i]
	if i == 0 || filepath.Separator != '/' {
		dir = filepath.Dir(abs)
	}
	return dir, abs[i+1:]
}

type realDir struct {
	real   string
	ok     bool // false: a link on the way does not resolve
	within bool // real is inside the repository
}

// realDirOf resolves the symbolic links of a directory, memoized. A
// directory that does not exist resolves through its nearest existing
// ancestor.
func (l *loader) realDirOf(dir string) (string, bool) {
	if r, ok := l.realDirs[dir]; ok {
		return r.real, r.ok
	}
	var res realDir
	parent := filepath.Dir(dir)
	if real, err := l.fsys.EvalSymlinks(dir); err == nil {
		res = realDir{real: real, ok: true}
	} else if mode, isEntry := l.dir(parent).lookup(filepath.Base(dir)); isEntry && mode&fs.ModeSymlink != 0 {
		res = realDir{real: dir, ok: false} // a link that does not resolve
	} else if parent != dir && vfs.Within(l.root, parent) {
		pr, pok := l.realDirOf(parent)
		res = realDir{real: filepath.Join(pr, filepath.Base(dir)), ok: pok}
	} else {
		res = realDir{real: dir, ok: true}
	}
	res.within = vfs.Within(l.realRoot, res.real)
	l.realDirs[dir] = res
	return res.real, res.ok
}

// linkProblem reports whether abs, with every symbolic link resolved, stays
// inside the repository. A folder on the way that is a dangling link is a
// problem (where it points cannot be checked); a dangling link as the file
// itself is just a missing file (T6, I4).
func (l *loader) linkProblem(abs string) pathProblem {
	dir, base := splitClean(abs)
	rd, ok := l.realDirs[dir]
	if !ok {
		l.realDirOf(dir)
		rd = l.realDirs[dir]
	}
	if !rd.ok {
		return pathBrokenLink
	}
	if !rd.within {
		return pathLeavesLink
	}
	if mode, ok := l.entry(abs, dir, base); ok && mode&fs.ModeSymlink != 0 {
		real, err := l.fsys.EvalSymlinks(abs)
		if err == nil && !vfs.Within(l.realRoot, real) {
			return pathLeavesLink
		}
	}
	return pathOK
}

type dirInfo struct {
	// sorted is the listing when its names strictly increase (os.ReadDir
	// sorts): looked up by binary search, no map built. Otherwise entries
	// maps each name to its type bits.
	sorted  []fs.DirEntry
	entries map[string]fs.FileMode
	// next is the index after the last name found in sorted: tools are
	// often declared in the order of their files, so it is tried first.
	next int
}

// lookup returns the type bits of a directory entry.
func (di *dirInfo) lookup(name string) (fs.FileMode, bool) {
	if di.sorted == nil {
		mode, ok := di.entries[name]
		return mode, ok
	}
	if i := di.next; i < len(di.sorted) && di.sorted[i].Name() == name {
		di.next = i + 1
		return di.sorted[i].Type(), true
	}
	i, found := slices.BinarySearchFunc(di.sorted, name, func(e fs.DirEntry, n string) int { return strings.Compare(e.Name(), n) })
	if !found {
		return 0, false
	}
	di.next = i + 1
	return di.sorted[i].Type(), true
}

func (l *loader) dir(d string) *dirInfo {
	if di, ok := l.dirs[d]; ok {
		return di
	}
	di := &dirInfo{}
	if list, err := l.fsys.ReadDir(d); err == nil {
		if namesIncrease(list) {
			di.sorted = list
		} else {
			di.entries = make(map[string]fs.FileMode, len(list))
			for _, e := range list {
				di.entries[e.Name()] = e.Type()
			}
		}
	}
	l.dirs[d] = di
	return di
}

func namesIncrease(list []fs.DirEntry) bool {
	for i := 1; i < len(list); i++ {
		if list[i-1].Name() >= list[i].Name() {
			return false
		}
	}
	return true
}

// entry looks up abs (split into dir and base) in its folder's listing.
// The last lookup is remembered: a tool's path is checked for links, then
// for existence.
func (l *loader) entry(abs, dir, base string) (fs.FileMode, bool) {
	if m := &l.lastEntry; m.valid && m.abs == abs {
		return m.mode, m.ok
	}
	mode, ok := l.dir(dir).lookup(base)
	l.lastEntry = entryMemo{valid: true, abs: abs, mode: mode, ok: ok}
	return mode, ok
}

type entryMemo struct {
	valid bool
	abs   string
	mode  fs.FileMode
	ok    bool
}

// fileState says whether abs exists and is a regular file (following links).
func (l *loader) fileState(abs string) (exists, regular bool) {
	dir, base := splitClean(abs)
	mode, ok := l.entry(abs, dir, base)
	if !ok {
		return false, false
	}
	if mode&fs.ModeSymlink != 0 {
		info, err := l.fsys.Stat(abs)
		if err != nil {
			return false, false
		}
		return true, info.Mode().IsRegular()
	}
	return true, mode.IsRegular()
}

// oneLine escapes control characters (a value the user wrote may hold a
// newline) so that every message prints on one line.
func oneLine(msg string) string {
	clean := true
	for _, r := range msg {
		if r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 {
			clean = false
			break
		}
	}
	if clean {
		return msg
	}
	var b strings.Builder
	for _, r := range msg {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// dedupe drops findings that are identical (an anchor merged twice).
func dedupe(fs []diag.Finding) []diag.Finding {
	type key struct {
		file       string
		start, end int
		code, msg  string
	}
	seen := make(map[key]bool, len(fs))
	out := fs[:0]
	for _, f := range fs {
		f.Message = oneLine(f.Message)
		k := key{f.File, f.Range.Start.Offset, f.Range.End.Offset, f.Code, f.Message}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, f)
	}
	return out
}
