package resolve

import (
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// nodeBuiltins are the Node core modules Bun accepts without the `node:`
// prefix (Decision: `import fs from 'fs'` loads in the sandbox, so it is
// fine; `node:` is the documented form).
var nodeBuiltins = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`assert assert/strict async_hooks buffer child_process cluster console constants
		crypto dgram diagnostics_channel dns dns/promises domain events fs fs/promises http http2 https inspector
		module net os path path/posix path/win32 perf_hooks process punycode querystring readline readline/promises
		repl stream stream/consumers stream/promises stream/web string_decoder sys timers timers/promises tls
		trace_events tty url util util/types v8 vm wasi worker_threads zlib`) {
		nodeBuiltins[n] = true
	}
}

// Outcome classifies an import.
type Outcome int

const (
	ResolvedBuiltin Outcome = iota // node:*, a Node builtin, bun, bun:*
	ResolvedFile                   // a relative file
	ResolvedPackage                // a package from a node_modules
	ResolveHarness                 // a harness package: never allowed
	ResolveMissing                 // will not resolve
	ResolveOutside                 // a relative path leaving the repository
	ResolveUnknown                 // cannot be known statically (URL, absolute path)
)

type Resolution struct {
	Outcome Outcome
	// File is the resolved file of a relative import, or the package's entry.
	File string
	// Message is the daemon's words for a failure ("Cannot find package 'zod'").
	Message string
	// NodeModules is the node_modules folder a package resolved through.
	NodeModules string
}

// Resolver resolves imports of one module inside one repository, recording
// every file and folder it looks at.
type Resolver struct {
	Files    *Tracker
	RepoRoot string
	Harness  map[string]bool
	realRoot string // repoRoot with symbolic links resolved, computed once
	// tsconfigs memoizes the nearest tsconfig.json by folder (nil: none)
	tsconfigs map[string]*tsconfig
	jsx       *jsfront.JSXOptions // the root tsconfig's, read once
}

// inside reports whether p, with symbolic links resolved, is inside the
// repository. Nothing outside it is read: a config release holds only the
// repository's files.
func (r *Resolver) inside(p string) bool {
	if !vfs.Within(r.RepoRoot, p) {
		return false
	}
	if r.realRoot == "" {
		r.realRoot = r.RepoRoot
		if real, err := r.Files.fsys.EvalSymlinks(r.RepoRoot); err == nil {
			r.realRoot = real
		}
	}
	real, err := r.Files.fsys.EvalSymlinks(p)
	if err != nil {
		return true // does not exist: nothing to read
	}
	return vfs.Within(r.realRoot, real) || vfs.Within(r.RepoRoot, real)
}

// PackageName splits a bare specifier into its package name and subpath
// ("@scope/pkg/sub" -> "@scope/pkg", "sub").
func PackageName(spec string) (name, sub string) {
	parts := strings.SplitN(spec, "/", 3)
	if strings.HasPrefix(spec, "@") {
		if len(parts) < 2 {
			return spec, ""
		}
		name = parts[0] + "/" + parts[1]
		if len(parts) == 3 {
			sub = parts[2]
		}
		return name, sub
	}
	name = parts[0]
	if len(parts) > 1 {
		sub = strings.Join(parts[1:], "/")
	}
	return name, sub
}

func (r *Resolver) Resolve(spec, fromDir string) Resolution {
	switch {
	case spec == "bun" || strings.HasPrefix(spec, "bun:") || strings.HasPrefix(spec, "node:"):
		return Resolution{Outcome: ResolvedBuiltin}
	case strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == "..":
		return r.relative(spec, fromDir)
	case strings.HasPrefix(spec, "/") || strings.Contains(spec, "://") || filepath.IsAbs(spec):
		return Resolution{Outcome: ResolveUnknown}
	}
	name, _ := PackageName(spec)
	if r.Harness[name] {
		return Resolution{Outcome: ResolveHarness, Message: fmt.Sprintf("%s is a harness package: a tool module never imports one", name)}
	}
	if nodeBuiltins[spec] {
		return Resolution{Outcome: ResolvedBuiltin}
	}
	tc := r.nearestTsconfig(fromDir)
	if tc != nil {
		if f, ok := r.resolveAlias(tc, spec); ok && tc.baseURLInherited {
			return Resolution{Outcome: ResolveUnknown, Message: fmt.Sprintf(
				"'%s' cannot be checked statically: it resolves to %s only through a baseUrl inherited with `extends`, which Bun does not always apply; set baseUrl in the tsconfig.json itself",
				spec, filepath.ToSlash(r.Rel(f)))}
		} else if ok {
			return Resolution{Outcome: ResolvedFile, File: f}
		}
	}
	res := r.bare(spec, fromDir)
	if res.Outcome == ResolveMissing && tc != nil && tc.unsure {
		return Resolution{Outcome: ResolveUnknown, Message: fmt.Sprintf(
			"'%s' cannot be checked statically: a tsconfig.json this inspector cannot read whole (a package `extends`, or invalid text) may map it", spec)}
	}
	return res
}

// scriptExts are tried, in Bun's order, for an import without a known
// extension; an import ending in .js may name a .ts file.
var scriptExts = []string{".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".json"}

// probe finds the file an import names: the path itself, the path with an
// extension, a TypeScript file for a .js name, or an index file.
func (r *Resolver) probe(p string) (string, bool) {
	if r.Files.IsFile(p) {
		return p, true
	}
	ext := path.Ext(p)
	base := strings.TrimSuffix(p, ext)
	switch ext {
	case ".js", ".jsx":
		for _, e := range []string{".ts", ".tsx"} {
			if r.Files.IsFile(base + e) {
				return base + e, true
			}
		}
	case ".mjs":
		if r.Files.IsFile(base + ".mts") {
			return base + ".mts", true
		}
	case ".cjs":
		if r.Files.IsFile(base + ".cts") {
			return base + ".cts", true
		}
	}
	for _, e := range scriptExts {
		if r.Files.IsFile(p + e) {
			return p + e, true
		}
	}
	if r.Files.IsDir(p) {
		if f, ok := r.packageEntry(p, ""); ok {
			return f, true
		}
	}
	return "", false
}

func (r *Resolver) relative(spec, fromDir string) Resolution {
	target := filepath.Join(fromDir, filepath.FromSlash(spec))
	if !vfs.Within(r.RepoRoot, target) {
		return Resolution{Outcome: ResolveOutside, Message: fmt.Sprintf("Cannot find module '%s': it is outside the repository, and a config release holds only the repository's files", spec)}
	}
	if f, ok := r.probe(target); ok {
		if !r.inside(f) {
			return Resolution{Outcome: ResolveOutside, Message: fmt.Sprintf("Cannot find module '%s': it leaves the repository through a symbolic link, and a config release holds only the repository's files", spec)}
		}
		return Resolution{Outcome: ResolvedFile, File: f}
	}
	return Resolution{Outcome: ResolveMissing, Message: fmt.Sprintf("Cannot find module '%s'", spec)}
}

// bare resolves a package from the node_modules folders beside or above the
// module, up to the repository root.
func (r *Resolver) bare(spec, fromDir string) Resolution {
	name, sub := PackageName(spec)
	dir := fromDir
	for vfs.Within(r.RepoRoot, dir) {
		nm := filepath.Join(dir, "node_modules")
		// A node_modules (or a package in it) linked from outside the
		// repository is not in a config release: it provides nothing, and
		// it is never read.
		if r.Files.IsDir(nm) && r.insideReal(nm) {
			pkgDir := filepath.Join(nm, filepath.FromSlash(name))
			if r.Files.IsDir(pkgDir) && r.insideReal(pkgDir) {
				if f, ok := r.packageEntry(pkgDir, sub); ok {
					return Resolution{Outcome: ResolvedPackage, File: f, NodeModules: nm}
				}
				return Resolution{Outcome: ResolveMissing, NodeModules: nm,
					Message: fmt.Sprintf("Cannot find module '%s': %s has no file for it", spec, filepath.ToSlash(r.Rel(pkgDir)))}
			}
		}
		if dir == r.RepoRoot {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return Resolution{Outcome: ResolveMissing, Message: fmt.Sprintf("Cannot find package '%s'", name)}
}

// insideReal reports whether p, with its symbolic links resolved, stays
// inside the repository. A path that does not resolve is judged by its name.
func (r *Resolver) insideReal(p string) bool {
	real, err := r.Files.fsys.EvalSymlinks(p)
	if err != nil {
		return vfs.Within(r.RepoRoot, p)
	}
	if vfs.Within(r.RepoRoot, real) {
		return true
	}
	realRoot, err := r.Files.fsys.EvalSymlinks(r.RepoRoot)
	return err == nil && vfs.Within(realRoot, real)
}

func (r *Resolver) Rel(p string) string {
	if rel, err := filepath.Rel(r.RepoRoot, p); err == nil {
		return rel
	}
	return p
}

// packageJSON is the part of package.json that resolution reads.
type packageJSON struct {
	Main    string          `json:"main"`
	Module  string          `json:"module"`
	Exports json.RawMessage `json:"exports"`
}

// conditions Bun matches in "exports", in the order it prefers them.
var conditions = []string{"bun", "import", "require", "node", "module", "default"}

// packageEntry finds the file a package (sub)path loads. When package.json
// uses a form this resolver does not follow, it answers "found" rather than
// risk a false error.
func (r *Resolver) packageEntry(pkgDir, sub string) (string, bool) {
	if !r.insideReal(pkgDir) {
		return "", false // never read a package.json outside the repository
	}
	data, err := r.Files.ReadFile(filepath.Join(pkgDir, "package.json"))
	var pkg packageJSON
	if err == nil {
		if json.Unmarshal(data, &pkg) != nil {
			return pkgDir, true // a broken package.json: not ours to judge
		}
	}
	if len(pkg.Exports) > 0 && string(pkg.Exports) != "null" {
		key := "."
		if sub != "" {
			key = "./" + sub
		}
		target, decided := exportsTarget(pkg.Exports, key)
		if !decided {
			return pkgDir, true
		}
		if target == "" {
			return "", false
		}
		f := filepath.Join(pkgDir, filepath.FromSlash(target))
		if r.Files.IsFile(f) {
			return f, true
		}
		return "", false
	}
	if sub != "" {
		return r.probe(filepath.Join(pkgDir, filepath.FromSlash(sub)))
	}
	for _, m := range []string{pkg.Module, pkg.Main} {
		if m == "" {
			continue
		}
		if f, ok := r.probe(filepath.Join(pkgDir, filepath.FromSlash(m))); ok {
			return f, true
		}
	}
	for _, e := range scriptExts {
		f := filepath.Join(pkgDir, "index"+e)
		if r.Files.IsFile(f) {
			return f, true
		}
	}
	return "", false
}

// exportsTarget finds key ("." or "./sub") in an "exports" value. decided is
// false when the value uses a form not followed here (patterns with several
// stars, arrays of fallbacks, unknown conditions only).
func exportsTarget(raw json.RawMessage, key string) (target string, decided bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if key == "." {
			return s, true
		}
		return "", true
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return "", false
	}
	subpaths := false
	for k := range obj {
		if strings.HasPrefix(k, ".") {
			subpaths = true
			break
		}
	}
	if !subpaths {
		if key != "." {
			return "", true
		}
		return conditionTarget(raw, 0)
	}
	if v, ok := obj[key]; ok {
		return conditionTarget(v, 0)
	}
	// patterns: the one with the longest prefix wins, as in Node
	best, bestPrefix := "", -1
	for k := range obj {
		star := strings.Index(k, "*")
		if star < 0 || strings.Count(k, "*") != 1 {
			continue
		}
		prefix, suffix := k[:star], k[star+1:]
		if strings.HasPrefix(key, prefix) && strings.HasSuffix(key, suffix) && len(key) >= len(prefix)+len(suffix) &&
			(len(prefix) > bestPrefix || len(prefix) == bestPrefix && k > best) {
			best, bestPrefix = k, len(prefix)
		}
	}
	if bestPrefix < 0 {
		return "", true
	}
	star := strings.Index(best, "*")
	match := key[star : len(key)-(len(best)-star-1)]
	t, ok := conditionTarget(obj[best], 0)
	if !ok {
		return "", false
	}
	return strings.ReplaceAll(t, "*", match), true
}

func conditionTarget(raw json.RawMessage, depth int) (string, bool) {
	if depth > 8 {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	if string(raw) == "null" {
		return "", true
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return "", false // an array of fallbacks
	}
	for _, c := range conditions {
		if v, ok := obj[c]; ok {
			return conditionTarget(v, depth+1)
		}
	}
	return "", false
}

func IsRelative(spec string) bool {
	return strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == ".."
}
