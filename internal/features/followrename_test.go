package features

import (
	"context"
	"sort"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// TestFollowMoves: the manifest after the edits, for each kind of move.
func TestFollowMoves(t *testing.T) {
	const manifest = `# 日本語 🎉
imports:
  - shared.yaml
  - './conf/more.yaml'
tools:
  web_search: beeuni:web_search
  lookup: tools/lookup.ts
  dotted: ./tools/dotted.ts
  single: 'tools/single.ts'
  double: "tools/double.ts"
  nested: tools/deep/nested.ts
  base: &p tools/aliased.ts
  alias: *p
  tagged: !!str tools/tagged.ts
`
	files := map[string]string{
		"/r/beeuni.yaml":           manifest,
		"/r/shared.yaml":           "tools:\n  crm: tools/crm.ts\n",
		"/r/conf/more.yaml":        "tools: {}\n",
		"/r/tools/lookup.ts":       "export default {}\n",
		"/r/tools/dotted.ts":       "export default {}\n",
		"/r/tools/single.ts":       "export default {}\n",
		"/r/tools/double.ts":       "export default {}\n",
		"/r/tools/deep/nested.ts":  "export default {}\n",
		"/r/tools/aliased.ts":      "export default {}\n",
		"/r/tools/crm.ts":          "export default {}\n",
		"/r/tools/tagged.ts":       "export default {}\n",
		"/r/tools/unrelated.ts":    "export default {}\n",
		"/r/harnesses/x/README.md": "",
	}
	for _, c := range []struct {
		name  string
		moves []Move
		want  map[string]string // file -> content after the edits
	}{
		{
			name:  "a module renamed",
			moves: []Move{{"/r/tools/lookup.ts", "/r/tools/find_order.ts"}},
			want:  map[string]string{"/r/beeuni.yaml": replace(manifest, "lookup: tools/lookup.ts", "lookup: tools/find_order.ts")},
		},
		{
			name:  "./ and quotes kept",
			moves: []Move{{"/r/tools/dotted.ts", "/r/lib/dotted.ts"}, {"/r/tools/single.ts", "/r/tools/it's.ts"}, {"/r/tools/double.ts", "/r/tools/dou\"ble.ts"}},
			want: map[string]string{"/r/beeuni.yaml": replace(replace(replace(manifest,
				"./tools/dotted.ts", "./lib/dotted.ts"),
				"'tools/single.ts'", "'tools/it''s.ts'"),
				`"tools/double.ts"`, `"tools/dou\"ble.ts"`)},
		},
		{
			name:  "a plain path that needs quotes",
			moves: []Move{{"/r/tools/lookup.ts", "/r/tools/look up: now.ts"}},
			want:  map[string]string{"/r/beeuni.yaml": replace(manifest, "lookup: tools/lookup.ts", `lookup: "tools/look up: now.ts"`)},
		},
		{
			name:  "a folder moved: every path inside it, in every file",
			moves: []Move{{"/r/tools", "/r/src/tools"}},
			want: map[string]string{
				"/r/beeuni.yaml": replace(replace(replace(replace(replace(replace(replace(manifest,
					"tools/lookup.ts", "src/tools/lookup.ts"),
					"./tools/dotted.ts", "./src/tools/dotted.ts"),
					"'tools/single.ts'", "'src/tools/single.ts'"),
					`"tools/double.ts"`, `"src/tools/double.ts"`),
					"tools/deep/nested.ts", "src/tools/deep/nested.ts"),
					"&p tools/aliased.ts", "&p src/tools/aliased.ts"),
					"!!str tools/tagged.ts", "!!str src/tools/tagged.ts"),
				"/r/shared.yaml": "tools:\n  crm: src/tools/crm.ts\n",
			},
		},
		{
			name:  "imports",
			moves: []Move{{"/r/shared.yaml", "/r/common/shared.yaml"}, {"/r/conf", "/r/config"}},
			want:  map[string]string{"/r/beeuni.yaml": replace(replace(manifest, "  - shared.yaml", "  - common/shared.yaml"), "'./conf/more.yaml'", "'./config/more.yaml'")},
		},
		{
			name:  "out of the project, or a file no path names: nothing",
			moves: []Move{{"/r/tools/lookup.ts", "/elsewhere/lookup.ts"}, {"/r/tools/unrelated.ts", "/r/tools/other.ts"}, {"/r/tool", "/r/x"}},
			want:  map[string]string{},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			fsys := vfs.NewMem()
			for p, s := range files {
				fsys.WriteFile(p, []byte(s))
			}
			p, err := analysis.Load(context.Background(), fsys, "/r")
			if err != nil {
				t.Fatal(err)
			}
			byFile := map[string][]TextEdit{}
			for _, e := range FollowMoves(p, c.moves) {
				byFile[e.File] = append(byFile[e.File], e)
			}
			got := map[string]string{}
			for file, edits := range byFile {
				sort.Slice(edits, func(i, j int) bool { return edits[i].Start > edits[j].Start })
				content := []byte(files[file])
				for _, e := range edits {
					content = append(content[:e.Start:e.Start], append([]byte(e.NewText), content[e.End:]...)...)
				}
				got[file] = string(content)
			}
			for file, want := range c.want {
				if got[file] != want {
					t.Errorf("%s after the edits:\n%s\nwant:\n%s", file, got[file], want)
				}
			}
			for file := range got {
				if _, ok := c.want[file]; !ok {
					t.Errorf("%s edited, want it untouched:\n%s", file, got[file])
				}
			}
		})
	}
}

func replace(s, old, new string) string {
	for i := 0; i+len(old) <= len(s); i++ {
		if s[i:i+len(old)] == old {
			return s[:i] + new + s[i+len(old):]
		}
	}
	panic("no " + old)
}
