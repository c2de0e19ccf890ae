package lsp

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// scanRoots returns every folder under dir holding beeuni.yaml, skipping
// dependencies, hidden folders and symbolic links, at most limit folders
// visited.
func scanRoots(ctx context.Context, fsys vfs.FS, dir string, limit int) []string {
	var roots []string
	queue := []string{dir}
	for visited := 0; len(queue) > 0 && visited < limit; visited++ {
		if ctx.Err() != nil {
			break
		}
		cur := queue[0]
		queue = queue[1:]
		entries, err := fsys.ReadDir(cur)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			switch {
			case e.Type()&fs.ModeSymlink != 0:
			case e.IsDir():
				if name == "node_modules" || strings.HasPrefix(name, ".") {
					continue
				}
				queue = append(queue, filepath.Join(cur, name))
			case name == analysis.ManifestName:
				roots = append(roots, cur)
			}
		}
	}
	return roots
}

// skippedByScan reports whether a path lies in a folder the workspace scan
// skips (dependencies and hidden folders): a manifest there is no project
// of the workspace unless the user opens it.
func skippedByScan(path string) bool {
	for _, part := range strings.Split(filepath.ToSlash(filepath.Dir(path)), "/") {
		if part == "node_modules" || strings.HasPrefix(part, ".") && part != "." && part != ".." {
			return true
		}
	}
	return false
}
