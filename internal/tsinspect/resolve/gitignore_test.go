package resolve

import (
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

func TestIgnoredByGit(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string // path -> .gitignore content
		target string
		want   bool
	}{
		{"no gitignore", nil, "/r/node_modules", false},
		{"bare name", map[string]string{"/r/.gitignore": "node_modules\n"}, "/r/tools/node_modules", true},
		{"trailing slash", map[string]string{"/r/.gitignore": "node_modules/\n"}, "/r/node_modules", true},
		{"anchored matches the root only", map[string]string{"/r/.gitignore": "/node_modules\n"}, "/r/tools/node_modules", false},
		{"anchored at the root", map[string]string{"/r/.gitignore": "/node_modules\n"}, "/r/node_modules", true},
		{"double star", map[string]string{"/r/.gitignore": "**/node_modules\n"}, "/r/a/b/node_modules", true},
		{"negation", map[string]string{"/r/.gitignore": "node_modules\n!tools/node_modules\n"}, "/r/tools/node_modules", false},
		{"parent folder ignored", map[string]string{"/r/.gitignore": "vendor/\n"}, "/r/vendor/node_modules", true},
		{"negation cannot re-include under an ignored folder", map[string]string{"/r/.gitignore": "vendor/\n!vendor/node_modules\n"}, "/r/vendor/node_modules", true},
		{"nested gitignore", map[string]string{"/r/tools/.gitignore": "node_modules\n"}, "/r/tools/node_modules", true},
		{"nested gitignore elsewhere", map[string]string{"/r/other/.gitignore": "node_modules\n"}, "/r/tools/node_modules", false},
		{"comments and wildcards", map[string]string{"/r/.gitignore": "# node_modules\nnode_*\r\n"}, "/r/node_modules", true},
		{"other names", map[string]string{"/r/.gitignore": "dist\n*.log\n"}, "/r/node_modules", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := vfs.NewMem()
			for p, c := range tc.files {
				mem.WriteFile(p, []byte(c))
			}
			if got := IgnoredByGit(NewTracker(mem), "/r", tc.target); got != tc.want {
				t.Errorf("ignoredByGit(%s) = %v, want %v", tc.target, got, tc.want)
			}
		})
	}
}
