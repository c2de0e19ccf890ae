package analysis

import (
	"path/filepath"
	"testing"
)

// TestResolveRepoPath is the table of what a path written in a manifest
// names: the loader, the edit planner and the editor features resolve
// paths with ResolveRepoPath alone.
func TestResolveRepoPath(t *testing.T) {
	const root = "/repo"
	tests := []struct {
		raw     string
		abs     string
		problem RepoPathProblem
	}{
		{"tools/a.ts", "/repo/tools/a.ts", RepoPathOK},
		{"a.ts", "/repo/a.ts", RepoPathOK},
		{"./tools/a.ts", "/repo/tools/a.ts", RepoPathOK},
		{"tools//a.ts", "/repo/tools/a.ts", RepoPathOK},
		{"tools/x/../a.ts", "/repo/tools/a.ts", RepoPathOK},
		{".hidden/a.ts", "/repo/.hidden/a.ts", RepoPathOK},
		{"..a/b.ts", "/repo/..a/b.ts", RepoPathOK},
		{"a..ts", "/repo/a..ts", RepoPathOK},
		{"tools/ä ö.ts", "/repo/tools/ä ö.ts", RepoPathOK},
		{"", "", RepoPathNotRelative},
		{"/etc/x.ts", "", RepoPathNotRelative},
		{"//server/x.ts", "", RepoPathNotRelative},
		{"~/x.ts", "", RepoPathNotRelative},
		{"~user/x.ts", "", RepoPathNotRelative},
		{`\tools\a.ts`, "", RepoPathNotRelative},
		{`tools\a.ts`, "", RepoPathNotRelative}, // a separator on Windows only
		{"C:/x.ts", "", RepoPathNotRelative},
		{"c:x.ts", "", RepoPathNotRelative},
		{"https://example.com/x.ts", "", RepoPathNotRelative},
		{"file:x.ts", "", RepoPathNotRelative},
		{"tools/a.ts:stream", "", RepoPathNotRelative}, // an NTFS stream
		{"tools/a\x00.ts", "", RepoPathNotRelative},
		{"..", "", RepoPathLeaves},
		{"../x.ts", "", RepoPathLeaves},
		{"tools/../../x.ts", "", RepoPathLeaves},
		{"./../x.ts", "", RepoPathLeaves},
		{".", "/repo", RepoPathRoot},
		{"./", "/repo", RepoPathRoot},
		{"tools/..", "/repo", RepoPathRoot},
	}
	for _, tt := range tests {
		abs, problem := ResolveRepoPath(root, tt.raw)
		if want := filepath.FromSlash(tt.abs); abs != want || problem != tt.problem {
			t.Errorf("ResolveRepoPath(%q) = %q, %d; want %q, %d", tt.raw, abs, problem, want, tt.problem)
		}
	}
}
