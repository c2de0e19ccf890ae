package beeunitools

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// TestSourcesPassModuleInspection: an ejected copy must load, so our own
// module inspection (rule T11) finds nothing in it, not even a hint.
func TestSourcesPassModuleInspection(t *testing.T) {
	const root = "/repo"
	m := vfs.NewMem()
	for _, name := range Names() {
		src, _ := Source(name)
		m.WriteFile(filepath.Join(root, "tools", name+".ts"), src)
	}
	in := tsinspect.New(m, tsinspect.Options{})
	for _, name := range Names() {
		res := in.Inspect(context.Background(), root, filepath.Join(root, "tools", name+".ts"))
		if !res.Loads {
			t.Errorf("%s would not load: %s", name, res.Reason)
		}
		for _, f := range res.Findings {
			t.Errorf("%s:%d:%d: %s [%s]", name, f.Range.Start.Line+1, f.Range.Start.Col+1, f.Message, f.Code)
		}
		if !res.DescriptionKnown || res.Description == "" || len(res.Parameters) == 0 {
			t.Errorf("%s: description or parameters not statically known", name)
		}
	}
}
