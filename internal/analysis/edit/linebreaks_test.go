package edit

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// YAML breaks lines at NEL, LS and PS too, and yaml.v3 counts them in its
// marks: a comment holding one must not shift the edits of the lines after
// it (the edit used to find no safe way to rewrite the entry and refused).
func TestEjectAfterUnicodeLineBreak(t *testing.T) {
	for _, brk := range []string{"\u0085", "\u2028", "\u2029"} {
		t.Run(fmt.Sprintf("%U", []rune(brk)[0]), func(t *testing.T) {
			manifest := filepath.Join(testRoot, "beeuni.yaml")
			before := "# notes" + brk + "# more\ntools:\n  web_search: beeuni:web_search\n  memory: beeuni:memory\n"
			want := "# notes" + brk + "# more\ntools:\n  web_search: beeuni:web_search\n  memory: tools/memory.ts  # ejected from beeuni:memory\n"
			m := vfs.NewMem()
			m.WriteFile(manifest, []byte(before))
			p := load(t, m)
			c, err := Eject(p, m, "memory", false)
			if err != nil {
				t.Fatalf("Eject: %v", err)
			}
			got, err := ApplyText([]byte(before), c.EditsOf(manifest))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != want {
				t.Fatalf("beeuni.yaml after the eject:\n%q\nwant\n%q", got, want)
			}
			if err := Verify(context.Background(), p, m, c); err != nil {
				t.Fatalf("Verify: %v", err)
			}
		})
	}
}
