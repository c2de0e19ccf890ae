// Package tsinspect inspects tool modules (rule T11): it tells whether the
// sandbox daemon would load a module, and why not, at the line of the
// TypeScript or JavaScript the user wrote. esbuild's Go API transforms the
// module to JavaScript (syntax errors with their positions in the input),
// whose syntax tree gives the imports that survive TypeScript's elision of
// type-only and unused imports, the exports, what runs at load and the
// default export's value; the tokens of the user's text give each value's
// place and extent. Module code never runs.
//
// The work is done by the packages under it, each with one job: jsfront
// (the front end: esbuild, the syntax tree, places in the user's text),
// resolve (where an import leads), loadtime (what surely runs at load and
// what of it throws), modfacts (the facts of a file's content and their
// cache) and jsvalue (the value reader). This package holds the Inspector
// and its cache of results, the public API, and the checks that turn the
// facts and values into findings.
package tsinspect

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/modfacts"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/resolve"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// Options tune an Inspector. The zero value is the default.
type Options struct {
	// MaxBytes is the largest module inspected; 0 means DefaultMaxBytes.
	MaxBytes int
	// Timeout bounds one module's inspection; 0 means DefaultTimeout.
	Timeout time.Duration
	// Parallelism bounds InspectAll; 0 means runtime.GOMAXPROCS(0).
	Parallelism int
	// CacheEntries bounds the result cache; 0 means DefaultCacheEntries, a
	// negative value disables the cache.
	CacheEntries int
	// HarnessPackages are packages a tool module must never import; nil means
	// DefaultHarnessPackages.
	HarnessPackages []string
	// NoGitignore turns off the check that a package resolves only through a
	// node_modules folder git ignores.
	NoGitignore bool
	// Yield, when set, is called before each inspection that the result
	// cache cannot answer, and may block to let more urgent work run first
	// (the language server's interactive work). It must return promptly
	// once ctx is done.
	Yield func(ctx context.Context)
}

const (
	DefaultMaxBytes     = 4 << 20
	DefaultTimeout      = 10 * time.Second
	DefaultCacheEntries = 4096
)

// DefaultHarnessPackages are the standard harness's packages.
var DefaultHarnessPackages = []string{"@opencode-ai/plugin", "@opencode-ai/sdk"}

// Inspector inspects modules and caches results by content. It is safe for
// concurrent use.
type Inspector struct {
	fsys    vfs.FS
	opts    Options
	harness map[string]bool
	cache   *cache
	facts   *modfacts.Cache

	mu      sync.Mutex
	flights map[cacheKey]*flight // inspections running now
}

// flight is one running inspection; callers asking for the same module
// content wait for it instead of starting another (a module that times out
// is inspected once, in the background, and its result cached when done).
type flight struct {
	done   chan struct{}
	result *Result
}

func (in *Inspector) flight(key cacheKey, repoRoot, module string, content []byte) *flight {
	in.mu.Lock()
	defer in.mu.Unlock()
	if f, ok := in.flights[key]; ok {
		return f
	}
	f := &flight{done: make(chan struct{})}
	in.flights[key] = f
	go func() {
		t := resolve.NewTracker(in.fsys)
		r := in.inspect(t, repoRoot, module, content)
		// kept for its positions, not its content (see diag.Lines.Compact)
		r.Lines = r.Lines.Compact()
		// The cache keeps the deps as long as the result: a copy of their
		// length, not the array append grew.
		in.cache.put(key, r, slices.Clone(t.Deps))
		f.result = r
		in.mu.Lock()
		delete(in.flights, key)
		in.mu.Unlock()
		close(f.done)
	}()
	return f
}

// New returns an Inspector reading through fsys.
func New(fsys vfs.FS, opts Options) *Inspector {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Parallelism <= 0 {
		opts.Parallelism = runtime.GOMAXPROCS(0)
	}
	if opts.CacheEntries == 0 {
		opts.CacheEntries = DefaultCacheEntries
	}
	if opts.HarnessPackages == nil {
		opts.HarnessPackages = DefaultHarnessPackages
	}
	h := map[string]bool{}
	for _, p := range opts.HarnessPackages {
		h[p] = true
	}
	return &Inspector{fsys: fsys, opts: opts, harness: h, cache: newCache(opts.CacheEntries),
		facts: modfacts.NewCache(opts.CacheEntries), flights: map[cacheKey]*flight{}}
}

// Result is what an inspection found out about one module.
type Result struct {
	Module string // absolute path
	// Loads is false when the daemon would skip the module.
	Loads bool
	// Reason says why not, in the daemon's words where it has them
	// ("Cannot find package 'zod'"); ReasonRange is where, in Module.
	Reason      string
	ReasonRange diag.Range
	// Undecided is set when Loads is true but the verdict depends on values
	// known only when the module runs (the default export, its parameters,
	// an import that cannot be checked): an M11 finding says which.
	Undecided bool
	// Findings have positions in the module's own source, or in a relative
	// file it imports (that file's syntax errors and failing imports, or a
	// value followed into it): Finding.File says which.
	Findings []diag.Finding
	// Lines indexes the module's content, for column conversion: a compact
	// index (diag.Lines.Compact), whose Content is nil for an ASCII module.
	Lines            *diag.Lines
	Description      string
	DescriptionKnown bool
	// Parameters is the schema as JSON (keys in source order), as far as
	// it is statically known: ParametersUnknown lists the sub-values left
	// out (each also an M11 finding at its position). Nil when the schema
	// itself is not known.
	Parameters        json.RawMessage
	ParametersUnknown []UnknownValue
	// DefaultExport is the `export default` statement (zero when none).
	DefaultExport diag.Range
	// Imports are the module's runtime imports, in source order.
	Imports []Import
	// EnvReads are the names execute reads from its context's `env`
	// (`context.env.X`), each at its first read, sorted by name
	// (contextenv.go).
	EnvReads []EnvRead
	// Incomplete is set when the inspection was cut short (cancelled, timed
	// out): Loads is then not a verdict.
	Incomplete bool
}

// UnknownValue is a part of a module's value that cannot be known
// statically.
type UnknownValue struct {
	// Path is where in the value, as property names and [index] joined by
	// dots ("properties.year.description"; "" for the value itself).
	Path string
	Why  string // why it is not known
}

// Import is one runtime import of a module.
type Import struct {
	Path  string     // as written
	Range diag.Range // the quoted path
	// Resolved is the file it resolves to ("" for builtins and failures).
	Resolved string
	OK       bool
}

// Inspect inspects one module of the repository rooted at repoRoot.
func (in *Inspector) Inspect(ctx context.Context, repoRoot, module string) *Result {
	module = filepath.Clean(module)
	repoRoot = filepath.Clean(repoRoot)
	if err := ctx.Err(); err != nil {
		return &Result{Module: module, Loads: true, Incomplete: true, Lines: diag.NewLines(nil)}
	}
	if info, err := in.fsys.Stat(module); err == nil && info.Mode().IsRegular() && info.Size() > int64(in.opts.MaxBytes) {
		// not read at all: a huge module costs nothing
		lines := diag.NewLines(nil)
		return &Result{Module: module, Loads: true, Lines: lines, Findings: []diag.Finding{{
			File: module, Range: lines.Range(0, 0), Severity: diag.Warning, Code: CodeNotInspected,
			Message: tooLargeMessage(info.Size(), in.opts.MaxBytes),
		}}}
	}
	content, err := in.fsys.ReadFile(module)
	if err != nil {
		return in.unreadable(module, err)
	}
	key := cacheKey{module: module, root: repoRoot, hash: sha256.Sum256(content)}
	if r, ok := in.cache.get(key, in.fsys); ok {
		return r
	}
	if in.opts.Yield != nil {
		// Only real work steps aside: a cached result costs microseconds.
		in.opts.Yield(ctx)
	}
	f := in.flight(key, repoRoot, module, content)
	timer := time.NewTimer(in.opts.Timeout)
	defer timer.Stop()
	select {
	case <-f.done:
		return f.result
	case <-ctx.Done():
		return &Result{Module: module, Loads: true, Incomplete: true, Lines: diag.NewLines(content).Compact()}
	case <-timer.C:
		lines := diag.NewLines(content).Compact()
		r := &Result{Module: module, Loads: true, Incomplete: true, Lines: lines}
		r.Findings = append(r.Findings, diag.Finding{
			File: module, Range: lines.Range(0, 0), Severity: diag.Warning, Code: CodeNotInspected,
			Message: fmt.Sprintf("not inspected: the inspection took longer than %s", in.opts.Timeout),
		})
		return r
	}
}

// InspectAll inspects modules in parallel, at most Options.Parallelism at a
// time (the number of cores by default). Results are in the order of
// modules; a module listed twice is inspected once.
func (in *Inspector) InspectAll(ctx context.Context, repoRoot string, modules []string) []*Result {
	out := make([]*Result, len(modules))
	first := map[string]int{}
	var jobs []int
	for i, m := range modules {
		c := filepath.Clean(m)
		if _, ok := first[c]; ok {
			continue
		}
		first[c] = i
		jobs = append(jobs, i)
	}
	sem := make(chan struct{}, in.opts.Parallelism)
	var wg sync.WaitGroup
	for _, i := range jobs {
		sem <- struct{}{}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			out[i] = in.Inspect(ctx, repoRoot, modules[i])
		}(i)
	}
	wg.Wait()
	for i, m := range modules {
		if out[i] == nil {
			out[i] = out[first[filepath.Clean(m)]]
		}
	}
	return out
}

// Unchanged returns the last inspection of module (in repoRoot) when
// nothing it read is among changed: the paths that changed since, clean and
// absolute (created, deleted, edited on disk or in an editor). Every file,
// folder and package.json the inspection read is matched against them and
// their folders (a folder created with a file in it, a folder deleted with
// its contents). The caller must know every change: a path missing from
// changed gives a stale result. ok is false when module has no inspection to
// reuse (never inspected, evicted, or one that read a changed path).
func (in *Inspector) Unchanged(repoRoot, module string, changed []string) (*Result, bool) {
	return in.cache.unchanged(filepath.Clean(module), filepath.Clean(repoRoot), changed)
}

func (in *Inspector) unreadable(module string, err error) *Result {
	lines := diag.NewLines(nil)
	return &Result{
		Module: module, Loads: false, Lines: lines,
		Reason: fmt.Sprintf("cannot read the module: %v", err),
		Findings: []diag.Finding{{
			File: module, Range: lines.Range(0, 0), Severity: diag.Error, Code: CodeNotInspected,
			Message: fmt.Sprintf("cannot read the module: %v", err),
		}},
	}
}

// IsFile reports whether module exists as a file (not a folder) on the
// inspector's file system. Callers skip missing modules, which are rule T6's.
func (in *Inspector) IsFile(module string) bool {
	info, err := in.fsys.Stat(module)
	return err == nil && !info.IsDir()
}

func tooLargeMessage(size int64, limit int) string {
	return fmt.Sprintf("not inspected: the module is %d bytes, over the %d-byte limit of the inspection", size, limit)
}
