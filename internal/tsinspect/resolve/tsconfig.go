package resolve

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// tsconfig.go reads what Bun takes from tsconfig.json files, as Bun does
// (each finding held to Bun in testdata/corpus):
//
//   - `compilerOptions.paths` and `baseUrl` of the tsconfig.json nearest to
//     the importing file (its folder, then each parent up to the repository
//     root): a bare import matching a `paths` pattern, or found under
//     `baseUrl`, is a file of the repository. `paths` targets are relative
//     to `baseUrl`; without one, only targets that start with `./` or
//     `../` apply, relative to the tsconfig's folder. A `baseUrl` inherited through `extends` is
//     not applied consistently by Bun (held to Bun: `".."` in an extended
//     file is not followed, `"."` is): an import that resolves only
//     through one is undecided;
//   - the JSX options (`jsx`, `jsxFactory`, `jsxFragmentFactory`,
//     `jsxImportSource`) of the tsconfig.json at the repository root only:
//     Bun takes them from the tsconfig.json of its working folder, not from
//     the file's (Decision: the daemon runs in the checkout's root).
//
// Files are JSON with comments and trailing commas; a relative `extends`
// (up to 8 levels) is followed. A tsconfig that cannot be read whole (a
// package `extends`, invalid text) makes a bare import that does not
// resolve undecided rather than an error.

const maxTsconfigExtends = 8

type tsconfig struct {
	baseURL          string   // absolute; "" when unset
	baseURLInherited bool     // baseURL comes from an extended file
	paths            []tsPath // sorted by pattern
	jsx              jsfront.JSXOptions
	unsure           bool // a part could not be read
}

type tsPath struct {
	pattern string
	targets []string
	dir     string // the folder of the tsconfig that defines it
}

type tsconfigJSON struct {
	Extends         json.RawMessage `json:"extends"`
	CompilerOptions struct {
		BaseURL *string             `json:"baseUrl"`
		Paths   map[string][]string `json:"paths"`
		jsfront.JSXOptions
	} `json:"compilerOptions"`
}

// nearestTsconfig is the tsconfig.json of dir or of its nearest parent
// inside the repository; nil when there is none.
func (r *Resolver) nearestTsconfig(dir string) *tsconfig {
	if r.tsconfigs == nil {
		r.tsconfigs = map[string]*tsconfig{}
	}
	var walked []string
	var found *tsconfig
	for d := dir; vfs.Within(r.RepoRoot, d); d = filepath.Dir(d) {
		if tc, ok := r.tsconfigs[d]; ok {
			found = tc
			break
		}
		walked = append(walked, d)
		if tc, ok := r.readTsconfig(filepath.Join(d, "tsconfig.json"), 0); ok {
			found = tc
			break
		}
		if d == r.RepoRoot || filepath.Dir(d) == d {
			break
		}
	}
	for _, d := range walked {
		r.tsconfigs[d] = found
	}
	return found
}

// RootJSX is the JSX options of the repository root's tsconfig.json.
func (r *Resolver) RootJSX() jsfront.JSXOptions {
	if r.jsx == nil {
		r.jsx = &jsfront.JSXOptions{}
		if tc, ok := r.readTsconfig(filepath.Join(r.RepoRoot, "tsconfig.json"), 0); ok {
			*r.jsx = tc.jsx
		}
	}
	return *r.jsx
}

// readTsconfig reads one tsconfig file and what it extends; ok is false
// when the file does not exist.
func (r *Resolver) readTsconfig(file string, depth int) (*tsconfig, bool) {
	data, err := r.Files.ReadFile(file)
	if err != nil {
		return nil, false
	}
	tc := &tsconfig{}
	var raw tsconfigJSON
	if json.Unmarshal(stripJSONC(data), &raw) != nil {
		tc.unsure = true
		return tc, true
	}
	dir := filepath.Dir(file)
	if len(raw.Extends) > 0 && string(raw.Extends) != "null" {
		var ext string
		if json.Unmarshal(raw.Extends, &ext) != nil || !IsRelative(ext) || depth >= maxTsconfigExtends {
			tc.unsure = true // a package or a list: not followed
		} else {
			p := filepath.Join(dir, filepath.FromSlash(ext))
			if !strings.HasSuffix(p, ".json") && !r.Files.IsFile(p) {
				p += ".json"
			}
			if !vfs.Within(r.RepoRoot, p) {
				tc.unsure = true
			} else if parent, ok := r.readTsconfig(p, depth+1); ok {
				*tc = *parent
				tc.baseURLInherited = tc.baseURL != ""
			} else {
				tc.unsure = true
			}
		}
	}
	co := raw.CompilerOptions
	if co.BaseURL != nil {
		tc.baseURL = filepath.Join(dir, filepath.FromSlash(*co.BaseURL))
		tc.baseURLInherited = false
	}
	if co.Paths != nil {
		tc.paths = nil
		for pattern, targets := range co.Paths {
			tc.paths = append(tc.paths, tsPath{pattern: pattern, targets: targets, dir: dir})
		}
		sort.Slice(tc.paths, func(i, j int) bool { return tc.paths[i].pattern < tc.paths[j].pattern })
	}
	if co.Mode != "" || co.Factory != "" || co.Fragment != "" || co.ImportSource != "" {
		tc.jsx = co.JSXOptions
	}
	return tc, true
}

// resolveAlias resolves a bare import through `paths` (the longest
// matching pattern, its targets in order) or `baseUrl`, as files of the
// repository.
func (r *Resolver) resolveAlias(tc *tsconfig, spec string) (string, bool) {
	best, bestLen, star := -1, -1, ""
	for i, p := range tc.paths {
		prefix, suffix, hasStar := strings.Cut(p.pattern, "*")
		switch {
		case !hasStar && p.pattern == spec:
			if len(p.pattern) > bestLen {
				best, bestLen, star = i, len(p.pattern), ""
			}
		case hasStar && strings.HasPrefix(spec, prefix) && strings.HasSuffix(spec, suffix) && len(spec) >= len(prefix)+len(suffix):
			if len(prefix) > bestLen {
				best, bestLen, star = i, len(prefix), spec[len(prefix):len(spec)-len(suffix)]
			}
		}
	}
	if best >= 0 {
		for _, target := range tc.paths[best].targets {
			base := tc.baseURL
			if base == "" {
				if !IsRelative(target) && !strings.HasPrefix(target, "./") && !strings.HasPrefix(target, "../") {
					continue // Bun does not apply it without a baseUrl
				}
				base = tc.paths[best].dir
			}
			p := filepath.Join(base, filepath.FromSlash(strings.Replace(target, "*", star, 1)))
			if !vfs.Within(r.RepoRoot, p) {
				continue
			}
			if f, ok := r.probe(p); ok && r.inside(f) {
				return f, true
			}
		}
	}
	if tc.baseURL == "" {
		return "", false
	}
	p := filepath.Join(tc.baseURL, filepath.FromSlash(spec))
	if vfs.Within(r.RepoRoot, p) {
		if f, ok := r.probe(p); ok && r.inside(f) {
			return f, true
		}
	}
	return "", false
}

// stripJSONC turns JSON with comments and trailing commas into JSON: the
// comments go first, then the commas before a closing bracket.
func stripJSONC(data []byte) []byte {
	return stripTrailingCommas(stripComments(data))
}

// skipString returns the index of the quote closing the string at i.
func skipString(data []byte, i int) int {
	j := i + 1
	for j < len(data) && data[j] != '"' {
		if data[j] == '\\' {
			j++
		}
		j++
	}
	if j >= len(data) {
		return len(data) - 1
	}
	return j
}

func stripComments(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			j := skipString(data, i)
			out = append(out, data[i:j+1]...)
			i = j
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			i += 2
			for i+1 < len(data) && !(data[i] == '*' && data[i+1] == '/') {
				i++
			}
			i++
			out = append(out, ' ')
		default:
			out = append(out, c)
		}
	}
	return out
}

func stripTrailingCommas(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			j := skipString(data, i)
			out = append(out, data[i:j+1]...)
			i = j
		case ',':
			j := i + 1
			for j < len(data) && strings.IndexByte(" \t\r\n", data[j]) >= 0 {
				j++
			}
			if j < len(data) && (data[j] == '}' || data[j] == ']') {
				continue
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}
