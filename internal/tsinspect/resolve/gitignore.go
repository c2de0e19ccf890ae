package resolve

import (
	"path"
	"path/filepath"
	"strings"
)

// IgnoredByGit reports whether target (a folder inside repoRoot) is ignored
// by the .gitignore files of repoRoot and the folders down to it. It
// understands the common forms: comments, `!` negation, a leading or
// trailing `/`, `*`, `?`, `[...]` and `**/`. It does not read
// .git/info/exclude or the global excludes file.
func IgnoredByGit(t *Tracker, repoRoot, target string) bool {
	rel, err := filepath.Rel(repoRoot, target)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	// A path is ignored when it or one of its parent folders is.
	for n := 1; n <= len(parts); n++ {
		if ignoredPath(t, repoRoot, parts[:n]) {
			return true
		}
	}
	return false
}

// ignoredPath applies the .gitignore files above the folder parts (relative
// to repoRoot, the last part being the folder itself); the last matching
// pattern decides.
func ignoredPath(t *Tracker, repoRoot string, parts []string) bool {
	ignored := false
	for d := 0; d < len(parts); d++ {
		dir := filepath.Join(append([]string{repoRoot}, parts[:d]...)...)
		data, err := t.ReadFile(filepath.Join(dir, ".gitignore"))
		if err != nil {
			continue
		}
		relToDir := strings.Join(parts[d:], "/")
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimRight(line, "\r")
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			line = strings.TrimRight(line, " ")
			neg := strings.HasPrefix(line, "!")
			if neg {
				line = line[1:]
			}
			if gitMatch(line, relToDir) {
				ignored = !neg
			}
		}
	}
	return ignored
}

// gitMatch matches one pattern against a folder path relative to the
// .gitignore's folder.
func gitMatch(pattern, rel string) bool {
	pattern = strings.TrimSuffix(pattern, "/") // our target is a folder
	if pattern == "" {
		return false
	}
	anchored := strings.Contains(pattern, "/")
	pattern = strings.TrimPrefix(pattern, "/")
	if !anchored {
		// matches the last component at any depth
		base := rel[strings.LastIndex(rel, "/")+1:]
		ok, _ := path.Match(pattern, base)
		return ok
	}
	if strings.HasPrefix(pattern, "**/") {
		rest := pattern[3:]
		segs := strings.Split(rel, "/")
		for i := range segs {
			if ok, _ := path.Match(rest, strings.Join(segs[i:], "/")); ok {
				return true
			}
		}
		return false
	}
	ok, _ := path.Match(pattern, rel)
	return ok
}
