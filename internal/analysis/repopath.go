package analysis

import (
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// RepoPathProblem says why a path written in a manifest (an import, a
// tool's module) names no file inside the repository.
type RepoPathProblem int

const (
	RepoPathOK RepoPathProblem = iota
	// RepoPathNotRelative: empty; absolute (a leading "/"); from a home
	// folder ("~"); or holding a colon (a drive letter, a URL scheme, an
	// NTFS stream), a backslash (a separator on Windows only, so that the
	// same text would name another file there) or a NUL byte.
	RepoPathNotRelative
	// RepoPathLeaves: its ".." elements climb out of the repository.
	RepoPathLeaves
	// RepoPathRoot: it names the repository's root folder itself (".",
	// "tools/..", "./"), which is no file.
	RepoPathRoot
)

// ResolveRepoPath checks a repo-relative, slash-separated path as written
// in a manifest and returns its absolute form under root (a clean path;
// root itself for RepoPathRoot, "" for the other problems). It never reads
// the file system: the loader checks the symbolic links on the way after
// it. The loader, the edit planner and the editor features all resolve
// paths with it, so that they agree on what a path names.
func ResolveRepoPath(root, raw string) (string, RepoPathProblem) {
	if raw == "" || raw[0] == '/' || raw[0] == '~' || strings.ContainsAny(raw, ":\\\x00") {
		return "", RepoPathNotRelative
	}
	if filepath.Separator == '/' && isCleanRel(raw) {
		// The common case (`tools/lookup.ts`): already clean, so the
		// absolute path is a concatenation.
		return joinClean(root, raw), RepoPathOK
	}
	clean := path.Clean(raw)
	switch {
	case clean == ".." || strings.HasPrefix(clean, "../"):
		return "", RepoPathLeaves
	case clean == ".":
		return root, RepoPathRoot
	}
	return filepath.Join(root, filepath.FromSlash(clean)), RepoPathOK
}

type pathProblem int

const (
	pathOK pathProblem = iota
	pathNotRelative
	pathLeaves
	pathLeavesLink
	pathBrokenLink // a folder on the way is a symbolic link that does not resolve
)

// resolveRepoPath is ResolveRepoPath under the loader's root, with the
// symbolic links on the way checked. The root folder itself is no problem
// here: it has no module or import extension, the check that follows.
func (l *loader) resolveRepoPath(raw string) (string, pathProblem) {
	abs, problem := ResolveRepoPath(l.root, raw)
	switch problem {
	case RepoPathNotRelative:
		return "", pathNotRelative
	case RepoPathLeaves:
		return "", pathLeaves
	}
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
