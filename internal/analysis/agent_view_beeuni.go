package analysis

import (
	"context"
	"path/filepath"

	"github.com/beeuni/beeuni-lsp/internal/beeunitools"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// beeuniSourcesRoot is where InspectBeeuniTools places the embedded
// sources in its in-memory file system (no file on disk is read).
const beeuniSourcesRoot = "/beeuni"

// InspectBeeuniTools reads the five Beeuni tools' definitions from their
// embedded sources (internal/beeunitools) with the module reader the
// project's modules get: what a model receives for `beeuni:<name>`. The
// results are by tool name; ctx cut short leaves a result Incomplete.
func InspectBeeuniTools(ctx context.Context) map[string]*tsinspect.Result {
	m := vfs.NewMem()
	names := beeunitools.Names()
	paths := make([]string, len(names))
	for i, name := range names {
		src, _ := beeunitools.Source(name)
		paths[i] = filepath.Join(beeuniSourcesRoot, "tools", name+".ts")
		m.WriteFile(paths[i], src)
	}
	results := tsinspect.New(m, tsinspect.Options{}).InspectAll(ctx, beeuniSourcesRoot, paths)
	out := make(map[string]*tsinspect.Result, len(names))
	for i, r := range results {
		if r != nil && !r.Incomplete {
			out[names[i]] = r
		}
	}
	return out
}
