package analysis

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

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

// Load reads root/beeuni.yaml and its imports through fsys, checks every rule
// and resolves the model. The error is non-nil only when root/beeuni.yaml
// cannot be read, or ctx is done: a load stops soon after (stop.go) and
// returns ctx's error, a load whose ctx is done before it starts reads
// nothing. Every problem inside the files is a finding.
func Load(ctx context.Context, fsys vfs.FS, root string) (*Project, error) {
	return LoadCached(ctx, fsys, root, nil)
}

// LoadCached is Load with a parse cache (nil: no cache). Files whose path
// and content match a cached entry are not parsed again; the rules, which
// are cheap, run again on every load. A load that stops keeps nothing in
// the cache.
func LoadCached(ctx context.Context, fsys vfs.FS, root string, cache *Cache) (*Project, error) {
	return loadWith(ctx, fsys, root, cache, defaultRules)
}

// loadWith is LoadCached with the checks of rules (tests add their own).
func loadWith(ctx context.Context, fsys vfs.FS, root string, cache *Cache, rules *ruleSet) (*Project, error) {
	root = filepath.Clean(root)
	if err := ctx.Err(); err != nil {
		return nil, stoppedLoading(root, err)
	}
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
		stop: stopper{ctx: ctx}, fsys: fsys, root: root, realRoot: realRoot, cache: cache, rules: rules,
		byReal: map[string]*unit{}, dirs: map[string]*dirInfo{}, realDirs: map[string]realDir{},
		memo: cache.takeMemo(root, rules),
	}
	l.files = entryFiles{repoPath: l.resolveRepoPath, fileState: l.fileState}
	if l.memo != nil {
		l.dirs, l.realDirs = l.memo.dirs, l.memo.realDirs
	}
	p := l.load(manifest, content)
	if err := l.stop.stoppedErr(); err != nil {
		// The memo holds what the stopped load left half done: the
		// next load makes a new one.
		return nil, stoppedLoading(root, err)
	}
	cache.putMemo(root, l.memo)
	return p, nil
}

// load is loadWith's work, from the manifest's content on. Once l.stop
// stops, it returns as soon as it can, with an incomplete project.
func (l *loader) load(manifest string, content []byte) *Project {
	pr, err := l.cache.parse(&l.stop, manifest, content)
	if err != nil {
		return nil
	}
	rootUnit := l.addUnit(manifest, manifest, pr, false)
	l.visitImports(rootUnit, []chainStep{{unit: rootUnit}})
	if l.stop.stopped() {
		return nil
	}
	p := &Project{Root: l.root, Unread: l.unread}
	for _, u := range l.units {
		p.Files = append(p.Files, u.file)
		l.findings = append(l.findings, u.parsed.findings...)
	}
	p.Model = l.resolve()
	if l.stop.stopped() {
		return nil
	}
	l.checkHarnessFolder(p.Model)
	p.Findings = dedupe(&l.stop, l.findings)
	if l.stop.stopped() {
		return nil
	}
	diag.Sort(p.Findings)
	return p
}

// stoppedLoading is the error of a load of root that stopped because its
// context is done (err: the context's error).
func stoppedLoading(root string, err error) error {
	return fmt.Errorf("loading %s stopped: %w", root, err)
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

type loader struct {
	stop     stopper // the load's context, looked at as it works
	fsys     vfs.FS
	root     string
	realRoot string
	cache    *Cache
	rules    *ruleSet
	units    []*unit
	byReal   map[string]*unit
	findings []diag.Finding
	unread   []string // imports named but not read (Project.Unread)
	// dirs memoizes directory listings for module checks.
	dirs      map[string]*dirInfo
	realDirs  map[string]realDir
	tools     *toolSet
	checking  toolEntry  // the declaration the tool checks are on (checkTool)
	agent     agentEntry // the agent the agent checks are on (readAgent)
	agentRead Agent      // what they read of it
	files     entryFiles // what the files checks may read
	// lastEntry memoizes the last folder entry looked up.
	lastEntry entryMemo
	// memo keeps entry rules' outcomes between loads through a Cache (nil
	// without one).
	memo *resolveMemo
}

func (l *loader) addUnit(abs, real string, pr *parsed, imported bool) *unit {
	f := &File{
		Path: abs, Rel: relTo(l.root, abs), Lines: pr.lines, Doc: pr.doc,
		SyntaxError: pr.syntax, Imported: imported, chunks: pr.chunks, byChunks: pr.byChunks,
		marks: &YAMLMarks{p: pr.pos}, tree: pr.tree,
	}
	u := &unit{real: real, file: f, parsed: pr}
	l.units = append(l.units, u)
	l.byReal[real] = u
	return u
}

// report adds a finding of rule r on node n of u.
func (l *loader) report(r *Rule, u *unit, n *yaml.Node, msg string, data map[string]string, related ...diag.Related) {
	l.findings = append(l.findings, r.finding(u.file.Path, u.parsed.pos.nodeRange(n), msg, data, related))
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

// dedupe drops findings that are identical (an anchor merged twice). A
// finding is a unit of work of stop: once it stops, what dedupe returns
// is incomplete.
func dedupe(stop *stopper, fs []diag.Finding) []diag.Finding {
	type key struct {
		file       string
		start, end int
		code, msg  string
	}
	seen := make(map[key]bool, len(fs))
	out := fs[:0]
	for _, f := range fs {
		if stop.stopped() {
			break
		}
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
