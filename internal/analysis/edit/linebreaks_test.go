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

// A file that mixes line breaks keeps every byte outside the inserted span:
// an inserted line takes the break of the line it is inserted after (it
// used to take the file's first break and turn the neighbouring `\r\n`
// into `\n`).
func TestEjectKeepsMixedLineBreaks(t *testing.T) {
	for _, tc := range []struct{ name, before, want string }{
		{
			name:   "entry added to a CRLF block in a LF file",
			before: "# head\ntools:\r\n  web_search: beeuni:web_search\r\nagents: {}\n",
			want:   "# head\ntools:\r\n  web_search: beeuni:web_search\r\n  memory: tools/memory.ts  # ejected from beeuni:memory\r\nagents: {}\n",
		},
		{
			name:   "entry added under an empty CRLF tools key in a LF file",
			before: "# head\ntools:\r\nagents: {}\n",
			want:   "# head\ntools:\r\n  memory: tools/memory.ts  # ejected from beeuni:memory\r\nagents: {}\n",
		},
		{
			name:   "tools key added after a LF last line in a CRLF file",
			before: "# head\r\nagents: {}\n",
			want: "# head\r\nagents: {}\ntools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n" +
				"  scrape_webpage: beeuni:scrape_webpage\n  memory: tools/memory.ts  # ejected from beeuni:memory\n  show: beeuni:show\n",
		},
		{
			name:   "tools key added to a comments-only file ending in CRLF, first break LF",
			before: "# one\n# two\r\n",
			want: "# one\n# two\r\ntools:\r\n  web_search: beeuni:web_search\r\n  image_search: beeuni:image_search\r\n" +
				"  scrape_webpage: beeuni:scrape_webpage\r\n  memory: tools/memory.ts  # ejected from beeuni:memory\r\n  show: beeuni:show\r\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			manifest := filepath.Join(testRoot, "beeuni.yaml")
			m := vfs.NewMem()
			m.WriteFile(manifest, []byte(tc.before))
			p := load(t, m)
			c, err := Eject(p, m, "memory", false)
			if err != nil {
				t.Fatalf("Eject: %v", err)
			}
			got, err := ApplyText([]byte(tc.before), c.EditsOf(manifest))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("beeuni.yaml after the eject:\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// The ejected line keeps the user's own comment and ends with the marker
// (SPEC section 7); only the template's comment, which the eject makes
// false, is replaced; a line already tagged is not tagged twice. An entry
// that already names tools/<name>.ts whose file is missing is ejected (it
// used to be refused as "already ejected", naming a file that did not
// exist). A forced eject from another module says which module it keeps.
func TestEjectKeepsTheUserComment(t *testing.T) {
	for _, tc := range []struct {
		name, before, want, kept string
		force                    bool
	}{
		{"a user comment", "tools:\n  scrape_webpage: beeuni:scrape_webpage  # used by the researcher\n",
			"tools:\n  scrape_webpage: tools/scrape_webpage.ts  # used by the researcher # ejected from beeuni:scrape_webpage\n", "", false},
		{"the template's comment", "tools:\n  scrape_webpage: beeuni:scrape_webpage      # maintained by Beeuni, updated automatically\n",
			"tools:\n  scrape_webpage: tools/scrape_webpage.ts  # ejected from beeuni:scrape_webpage\n", "", false},
		{"no comment", "tools:\n  scrape_webpage: beeuni:scrape_webpage\n",
			"tools:\n  scrape_webpage: tools/scrape_webpage.ts  # ejected from beeuni:scrape_webpage\n", "", false},
		{"already names the file, which is missing", "tools:\n  scrape_webpage: tools/scrape_webpage.ts  # mine\n",
			"tools:\n  scrape_webpage: tools/scrape_webpage.ts  # mine # ejected from beeuni:scrape_webpage\n", "", false},
		{"already tagged, file missing", "tools:\n  scrape_webpage: tools/scrape_webpage.ts  # ejected from beeuni:scrape_webpage\n",
			"tools:\n  scrape_webpage: tools/scrape_webpage.ts  # ejected from beeuni:scrape_webpage\n", "", false},
		{"forced from another module", "tools:\n  scrape_webpage: lib/scrape.ts  # ours\n",
			"tools:\n  scrape_webpage: tools/scrape_webpage.ts  # ours # ejected from beeuni:scrape_webpage\n", "lib/scrape.ts", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			manifest := filepath.Join(testRoot, "beeuni.yaml")
			m := vfs.NewMem()
			m.WriteFile(manifest, []byte(tc.before))
			m.WriteFile(filepath.Join(testRoot, "lib", "scrape.ts"), []byte("export default {}\n"))
			p := load(t, m)
			c, err := Eject(p, m, "scrape_webpage", tc.force)
			if err != nil {
				t.Fatalf("Eject: %v", err)
			}
			got, err := ApplyText([]byte(tc.before), c.EditsOf(manifest))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("beeuni.yaml after the eject:\n%q\nwant\n%q", got, tc.want)
			}
			if len(c.Create) != 1 || c.Create[0].Path != filepath.Join(testRoot, "tools", "scrape_webpage.ts") || c.Kept != tc.kept || len(c.Delete) != 0 {
				t.Fatalf("change creates %+v, keeps %q, deletes %v; want tools/scrape_webpage.ts, %q, nothing", c.Create, c.Kept, c.Delete, tc.kept)
			}
			if err := Verify(context.Background(), p, m, c); err != nil {
				t.Fatalf("Verify: %v", err)
			}
		})
	}
}

// Return to beeuni: removes the marker eject added and keeps the user's
// comment before it.
func TestReturnKeepsTheUserComment(t *testing.T) {
	manifest := filepath.Join(testRoot, "beeuni.yaml")
	before := "tools:\n  scrape_webpage: tools/scrape_webpage.ts  # used by the researcher # ejected from beeuni:scrape_webpage\n"
	want := "tools:\n  scrape_webpage: beeuni:scrape_webpage  # used by the researcher\n"
	m := vfs.NewMem()
	m.WriteFile(manifest, []byte(before))
	m.WriteFile(filepath.Join(testRoot, "tools", "scrape_webpage.ts"), []byte("export default {}\n"))
	c, err := ReturnToBeeuni(load(t, m), m, "scrape_webpage")
	if err != nil {
		t.Fatalf("ReturnToBeeuni: %v", err)
	}
	got, err := ApplyText([]byte(before), c.EditsOf(manifest))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("beeuni.yaml after the return:\n%q\nwant\n%q", got, want)
	}
}
