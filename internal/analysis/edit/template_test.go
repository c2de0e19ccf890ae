package edit

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// TestModuleTemplatePassesInspection: the T6 fix creates a module that loads,
// in every module extension.
func TestModuleTemplatePassesInspection(t *testing.T) {
	m := vfs.NewMem()
	in := tsinspect.New(m, tsinspect.Options{})
	for _, ext := range analysis.ModuleExtensions() {
		p := filepath.Join(testRoot, "tools", "weather_now"+ext)
		m.WriteFile(p, ModuleTemplate("weather_now", ext))
		res := in.Inspect(context.Background(), testRoot, p)
		if !res.Loads {
			t.Errorf("%s: the template would not load: %s", ext, res.Reason)
		}
		for _, f := range res.Findings {
			t.Errorf("%s:%d: %s [%s]", ext, f.Range.Start.Line+1, f.Message, f.Code)
		}
	}
}
