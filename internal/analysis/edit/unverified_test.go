package edit

import (
	"reflect"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

// TestUnverifiedActionsPlanTheSameChanges: the unverified variants offer
// the same actions with the same edits, only marked Unverified, at every
// offset of the manifest (ejects, returns, refusals, source actions).
func TestUnverifiedActionsPlanTheSameChanges(t *testing.T) {
	manifests := []string{
		benchManifest,
		"agents:\n  a:\n    tools: [read]\n", // no tools: key: the source actions
		"tools:\n  web_search: beeuni:web_search\n  memory: tools/memory.ts\n",
	}
	ejects := 0
	for _, manifest := range manifests {
		m := memFrom(map[string]string{"beeuni.yaml": manifest, "tools/lookup_order.ts": "export default {}\n", "tools/memory.ts": "export default {}\n"})
		p, err := analysis.Load(t.Context(), m, testRoot)
		if err != nil {
			t.Fatal(err)
		}
		file := p.Files[0].Path
		for off := 0; off <= len(manifest); off++ {
			want := Refactors(p, m, file, off)
			got := RefactorsUnverified(p, m, file, off)
			ejects += compareUnverified(t, manifest, off, got, want)
		}
		compareUnverified(t, manifest, -1, SourceActionsUnverified(p, m), SourceActions(p, m))
	}
	if ejects == 0 {
		t.Error("no eject action was compared")
	}
}

func compareUnverified(t *testing.T, manifest string, off int, got, want []*Change) (ejects int) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%q at %d: %d unverified changes, %d checked", manifest, off, len(got), len(want))
		return 0
	}
	for i := range got {
		g := *got[i]
		if strings.HasPrefix(g.Title, "Eject") && g.Disabled == "" {
			ejects++
			if !g.Unverified {
				t.Errorf("%q at %d: %s not marked unverified", manifest, off, g.Title)
			}
		}
		g.Unverified = false
		if !reflect.DeepEqual(&g, want[i]) {
			t.Errorf("%q at %d: unverified %+v, checked %+v", manifest, off, g, *want[i])
		}
	}
	return ejects
}
