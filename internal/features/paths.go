package features

import (
	"path"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

// resolveRepoPath returns the absolute path of a repository-relative slash
// path, or "" when analysis.ResolveRepoPath finds a problem with it.
func resolveRepoPath(root, rel string) string {
	abs, problem := analysis.ResolveRepoPath(root, rel)
	if problem != analysis.RepoPathOK {
		return ""
	}
	return abs
}

// toolNameForModule proposes a tool name for a module file: its stem
// (the folder's name for an index file), snake_cased if needed. It returns
// "" when no valid name comes out.
func toolNameForModule(rel string) string {
	base := path.Base(rel)
	stem := strings.TrimSuffix(base, path.Ext(base))
	if stem == "index" {
		if dir := path.Base(path.Dir(rel)); dir != "." && dir != "/" {
			stem = dir
		}
	}
	if analysis.ValidToolName(stem) {
		return stem
	}
	return analysis.SnakeCase(stem)
}

// isHarnessName reports whether name belongs to the harness.
func isHarnessName(name string) bool {
	known, _ := analysis.HarnessTool(name)
	return known
}
