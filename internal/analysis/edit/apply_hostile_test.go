package edit_test

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/analysis/edit"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
	"github.com/beeuni/beeuni-lsp/internal/vfs/vfstest"
)

// Eject and quick fixes never write outside the repository, nor through a
// symbolic link that points out of it: each case below is a repository on
// disk next to an "outside" folder, and a change that would land outside.
// Apply must refuse it, and the outside folder must be byte for byte as it
// was.

func TestHostileApplyNeverWritesOutside(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	outside := filepath.Join(base, "outside")
	mustWrite(t, filepath.Join(root, "beeuni.yaml"), "tools:\n  web_search: beeuni:web_search\n")
	mustWrite(t, filepath.Join(root, "linked.yaml"), "placeholder")
	mustWrite(t, filepath.Join(outside, "victim.yaml"), "tools: {}\n")
	mustWrite(t, filepath.Join(outside, "victim.ts"), "original\n")
	must(t, os.Remove(filepath.Join(root, "linked.yaml")))
	must(t, os.Symlink(filepath.Join(outside, "victim.yaml"), filepath.Join(root, "linked.yaml")))
	must(t, os.Symlink(outside, filepath.Join(root, "out")))
	must(t, os.Symlink(filepath.Join(outside, "victim.ts"), filepath.Join(root, "victim.ts")))
	must(t, os.Symlink(filepath.Join(outside, "new.ts"), filepath.Join(root, "dangling.ts")))
	before := vfstest.Snapshot(t, outside)

	tests := []struct {
		name   string
		change *edit.Change
		says   string
	}{
		{"create outside by path", &edit.Change{Create: []edit.NewFile{{Path: filepath.Join(root, "../outside/x.ts"), Content: []byte("x")}}}, "outside the repository"},
		{"create absolute elsewhere", &edit.Change{Create: []edit.NewFile{{Path: filepath.Join(outside, "y.ts"), Content: []byte("y")}}}, "outside the repository"},
		{"create through a linked folder", &edit.Change{Create: []edit.NewFile{{Path: filepath.Join(root, "out/z.ts"), Content: []byte("z")}}}, "symbolic link"},
		{"create through a deeper linked folder", &edit.Change{Create: []edit.NewFile{{Path: filepath.Join(root, "out/new/dir/z.ts"), Content: []byte("z")}}}, "symbolic link"},
		{"overwrite a file linked out", &edit.Change{Create: []edit.NewFile{{Path: filepath.Join(root, "victim.ts"), Content: []byte("pwned"), Overwrite: true}}}, "symbolic link out of the repository"},
		{"overwrite a dangling link out", &edit.Change{Create: []edit.NewFile{{Path: filepath.Join(root, "dangling.ts"), Content: []byte("pwned"), Overwrite: true}}}, "symbolic link"},
		{"edit a manifest linked out", &edit.Change{Edits: []edit.TextEdit{{File: filepath.Join(root, "linked.yaml"), Start: 0, End: 0, NewText: "# pwned\n"}}}, "symbolic link out of the repository"},
		{"delete through a linked folder", &edit.Change{Delete: []string{filepath.Join(root, "out/victim.ts")}}, "symbolic link"},
		{"the repository root itself", &edit.Change{Delete: []string{root}}, "outside the repository"},
		{"a good write with a bad one", &edit.Change{Create: []edit.NewFile{
			{Path: filepath.Join(root, "tools/fine.ts"), Content: []byte("fine")},
			{Path: filepath.Join(root, "out/bad.ts"), Content: []byte("bad")},
		}}, "symbolic link"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := edit.Apply(context.Background(), root, tc.change)
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("Apply = %v, want a refusal saying %q", err, tc.says)
			}
			if got := vfstest.Snapshot(t, outside); !maps.Equal(got, before) {
				t.Errorf("the outside folder changed:\n%q\nwas:\n%q", got, before)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(root, "tools/fine.ts")); err == nil {
		t.Error("a change with one bad write still wrote its good one: all or nothing")
	}
	// Deleting a link that points out removes the link, never its target.
	if err := edit.Apply(context.Background(), root, &edit.Change{Delete: []string{filepath.Join(root, "victim.ts")}}); err != nil {
		t.Fatalf("deleting a link inside the repository: %v", err)
	}
	if got := vfstest.Snapshot(t, outside); !maps.Equal(got, before) {
		t.Errorf("deleting a link changed its target outside:\n%q", got)
	}
}

func TestHostileEjectNeverWritesOutside(t *testing.T) {
	for _, layout := range []struct {
		name string
		link func(root, outside string) error
	}{
		{"tools folder linked out", func(root, outside string) error { return os.Symlink(outside, filepath.Join(root, "tools")) }},
		{"tools/web_search.ts linked out", func(root, outside string) error {
			if err := os.MkdirAll(filepath.Join(root, "tools"), 0o755); err != nil {
				return err
			}
			return os.Symlink(filepath.Join(outside, "web_search.ts"), filepath.Join(root, "tools/web_search.ts"))
		}},
		{"tools/web_search.ts a dangling link out", func(root, outside string) error {
			if err := os.MkdirAll(filepath.Join(root, "tools"), 0o755); err != nil {
				return err
			}
			return os.Symlink(filepath.Join(outside, "nothing-yet.ts"), filepath.Join(root, "tools/web_search.ts"))
		}},
		{"beeuni.yaml linked out", func(root, outside string) error {
			mustWrite(t, filepath.Join(outside, "beeuni.yaml"), "tools:\n  web_search: beeuni:web_search\n")
			if err := os.Remove(filepath.Join(root, "beeuni.yaml")); err != nil {
				return err
			}
			return os.Symlink(filepath.Join(outside, "beeuni.yaml"), filepath.Join(root, "beeuni.yaml"))
		}},
	} {
		t.Run(layout.name, func(t *testing.T) {
			base := t.TempDir()
			root, outside := filepath.Join(base, "repo"), filepath.Join(base, "outside")
			mustWrite(t, filepath.Join(root, "beeuni.yaml"), "tools:\n  web_search: beeuni:web_search\n")
			mustWrite(t, filepath.Join(outside, "web_search.ts"), "the user's own file\n")
			must(t, layout.link(root, outside))
			before := vfstest.Snapshot(t, outside)
			fsys := vfs.NewDisk()
			p, err := analysis.Load(context.Background(), fsys, root)
			if err != nil {
				t.Fatal(err)
			}
			for _, force := range []bool{false, true} {
				c, err := edit.Eject(p, fsys, "web_search", force)
				if err != nil {
					continue // refused: nothing to apply
				}
				if err := edit.Apply(context.Background(), root, c); err == nil {
					t.Errorf("eject (force %v) applied", force)
				}
			}
			if got := vfstest.Snapshot(t, outside); !maps.Equal(got, before) {
				t.Errorf("the outside folder changed:\n%q\nwas:\n%q", got, before)
			}
		})
	}
}

func mustWrite(t *testing.T, p, content string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(p), 0o755))
	must(t, os.WriteFile(p, []byte(content), 0o644))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
