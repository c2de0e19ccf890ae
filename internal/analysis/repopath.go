package analysis

import (
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

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
