package edit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/beeunitools"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
	"github.com/beeuni/beeuni-lsp/internal/vfs/vfstest"
)

func sameTree(t *testing.T, before, after map[string]string) {
	t.Helper()
	var diffs []string
	for k, v := range before {
		if after[k] != v {
			diffs = append(diffs, "changed or gone: "+k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			diffs = append(diffs, "new: "+k)
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		t.Fatalf("the project changed:\n%s", strings.Join(diffs, "\n"))
	}
}

func loadDisk(t *testing.T, dir string) *analysis.Project {
	t.Helper()
	p, err := analysis.Load(context.Background(), vfs.NewDisk(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const template = "tools:\n  web_search: beeuni:web_search      # maintained by Beeuni, updated automatically\n  memory: beeuni:memory\n"

func TestApplyEjectWritesModuleAndManifest(t *testing.T) {
	dir := t.TempDir()
	vfstest.WriteFiles(t, dir, map[string]string{"beeuni.yaml": template})
	p := loadDisk(t, dir)
	c, err := Eject(p, vfs.NewDisk(), "web_search", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(context.Background(), dir, c); err != nil {
		t.Fatal(err)
	}
	got := vfstest.Snapshot(t, dir)
	want := "tools:\n  web_search: tools/web_search.ts  # ejected from beeuni:web_search\n  memory: beeuni:memory\n"
	if got["beeuni.yaml"] != want {
		t.Errorf("beeuni.yaml = %q, want %q", got["beeuni.yaml"], want)
	}
	if !strings.Contains(got[filepath.Join("tools", "web_search.ts")], "export default {") {
		t.Errorf("tools/web_search.ts was not written with the Beeuni source")
	}
	for name := range got {
		if strings.Contains(name, ".beeuni-") {
			t.Errorf("a temporary file was left: %s", name)
		}
	}
	// Return to beeuni: sets the line back and deletes the file.
	r, err := ReturnToBeeuni(loadDisk(t, dir), vfs.NewDisk(), "web_search")
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(context.Background(), dir, r); err != nil {
		t.Fatal(err)
	}
	got = vfstest.Snapshot(t, dir)
	if got["beeuni.yaml"] != "tools:\n  web_search: beeuni:web_search\n  memory: beeuni:memory\n" {
		t.Errorf("after return, beeuni.yaml = %q", got["beeuni.yaml"])
	}
	if _, ok := got[filepath.Join("tools", "web_search.ts")]; ok {
		t.Error("return left tools/web_search.ts")
	}
}

// TestApplyRollsBackHalfWay fails each rename of an eject and a return in
// turn: whichever step fails, the project is left exactly as it was.
func TestApplyRollsBackHalfWay(t *testing.T) {
	for _, action := range []string{"eject", "return"} {
		for failAt := 1; failAt <= 2; failAt++ {
			dir := t.TempDir()
			files := map[string]string{"beeuni.yaml": template}
			if action == "return" {
				files["beeuni.yaml"] = "tools:\n  web_search: tools/web_search.ts  # ejected from beeuni:web_search\n"
				src, _ := beeunitools.Source("web_search")
				files["tools/web_search.ts"] = string(src)
			}
			vfstest.WriteFiles(t, dir, files)
			before := vfstest.Snapshot(t, dir)
			p := loadDisk(t, dir)
			var c *Change
			var err error
			if action == "eject" {
				c, err = Eject(p, vfs.NewDisk(), "web_search", false)
			} else {
				c, err = ReturnToBeeuni(p, vfs.NewDisk(), "web_search")
			}
			if err != nil {
				t.Fatal(err)
			}
			calls := 0
			failing := func(oldpath, newpath string) error {
				calls++
				if calls == failAt {
					return errors.New("disk full")
				}
				return os.Rename(oldpath, newpath)
			}
			if err := apply(context.Background(), dir, c, failing); err == nil {
				t.Fatalf("%s: rename %d failed but Apply reported success", action, failAt)
			}
			sameTree(t, before, vfstest.Snapshot(t, dir))
		}
	}
}

func TestApplyRefusesPathsOutsideTheRepository(t *testing.T) {
	outside := t.TempDir()
	dir := t.TempDir()
	vfstest.WriteFiles(t, dir, map[string]string{"beeuni.yaml": template})
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "x.ts"), filepath.Join(dir, "link.ts")); err != nil {
		t.Fatal(err)
	}
	before := vfstest.Snapshot(t, dir)
	cases := map[string]*Change{
		"absolute elsewhere":     {Create: []NewFile{{Path: filepath.Join(outside, "a.ts"), Content: []byte("x")}}},
		"dot-dot":                {Create: []NewFile{{Path: filepath.Join(dir, "..", filepath.Base(outside), "a.ts"), Content: []byte("x")}}},
		"through a folder link":  {Create: []NewFile{{Path: filepath.Join(dir, "out", "a.ts"), Content: []byte("x")}}},
		"through a file link":    {Create: []NewFile{{Path: filepath.Join(dir, "link.ts"), Content: []byte("x"), Overwrite: true}}},
		"delete outside":         {Delete: []string{filepath.Join(outside, "keep")}},
		"the root itself":        {Delete: []string{dir}},
		"existing, no overwrite": {Create: []NewFile{{Path: filepath.Join(dir, "beeuni.yaml"), Content: []byte("x")}}},
		"stale base": {Edits: []TextEdit{{File: filepath.Join(dir, "beeuni.yaml"), Start: 0, End: 0, NewText: "# x\n"}},
			Base: map[string]string{filepath.Join(dir, "beeuni.yaml"): digest([]byte("other"))}},
		"disabled": {Disabled: "tools/web_search.ts exists"},
	}
	vfstest.WriteFiles(t, outside, map[string]string{"keep": "k"})
	for name, c := range cases {
		if err := Apply(context.Background(), dir, c); err == nil {
			t.Errorf("%s: Apply succeeded", name)
		}
	}
	sameTree(t, before, vfstest.Snapshot(t, dir))
	if got := vfstest.Snapshot(t, outside); len(got) != 2 || got["keep"] != "k" {
		t.Errorf("something was written or deleted outside the repository: %v", got)
	}
}

func TestEjectRefusals(t *testing.T) {
	cases := []struct {
		name, archive, tool string
		force               bool
		want                string
		forceable           bool
	}{
		{"not a Beeuni tool", "-- beeuni.yaml --\ntools: {}\n", "bash", false, `"bash" is not a Beeuni tool: eject one of web_search, image_search, scrape_webpage, memory, show`, false},
		{"file exists", "-- beeuni.yaml --\ntools:\n  show: beeuni:show\n-- tools/show.ts --\nx\n", "show", false, "tools/show.ts exists: edit it, or pass --force to overwrite it with the Beeuni source", true},
		{"points to another module", "-- beeuni.yaml --\ntools:\n  show: ui/show.ts\n-- ui/show.ts --\nx\n", "show", false, "show already points to ui/show.ts: edit that module, or pass --force to point it at tools/show.ts instead (ui/show.ts stays on disk)", true},
		{"tools is a link out", "-- beeuni.yaml --\ntools:\n  show: beeuni:show\n-- tools -> /elsewhere --\n-- /elsewhere/a --\n", "show", true, "tools/ is a symbolic link out of the repository (to /elsewhere): eject writes only inside the repository", false},
		{"declared twice", "-- beeuni.yaml --\nimports: [b.yaml]\ntools:\n  show: beeuni:show\n-- b.yaml --\ntools:\n  show: beeuni:show\n", "show", false, "show is declared 2 times (beeuni.yaml, b.yaml): keep one declaration, then eject", false},
		{"not a string", "-- beeuni.yaml --\ntools:\n  show: [a]\n", "show", false, "tools.show in beeuni.yaml is not a string: set it to beeuni:show first", false},
		{"syntax error", "-- beeuni.yaml --\ntools: [\n", "show", false, "cannot eject show: beeuni.yaml:2:1: YAML syntax error: did not find expected node content [Y1]; fix it first", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{}
			for _, f := range strings.Split(c.archive, "-- ")[1:] {
				head, body, _ := strings.Cut(f, " --\n")
				files[head] = body
			}
			m := vfs.NewMem()
			for name, body := range files {
				if i := strings.Index(name, " -> "); i >= 0 {
					m.Symlink(filepath.Join(testRoot, name[:i]), name[i+4:])
					continue
				}
				if strings.HasPrefix(name, "/") {
					m.WriteFile(name, []byte(body))
					continue
				}
				m.WriteFile(filepath.Join(testRoot, filepath.FromSlash(name)), []byte(body))
			}
			p := load(t, m)
			_, err := Eject(p, m, c.tool, c.force)
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("Eject = %v, want a refusal", err)
			}
			if r.Reason != c.want || r.Forceable != c.forceable {
				t.Errorf("refusal %q (forceable %v), want %q (%v)", r.Reason, r.Forceable, c.want, c.forceable)
			}
			if strings.Contains(r.Reason, "\n") {
				t.Error("a refusal must be one line")
			}
			if c.forceable {
				actions := EjectActions(p, m, c.tool)
				title := EjectTitle(c.tool, true)
				if c.name == "points to another module" {
					title = "Eject show (point it at tools/show.ts instead of ui/show.ts, kept on disk)"
				}
				if len(actions) != 2 || actions[0].Disabled != c.want || actions[1].Disabled != "" || actions[1].Title != title || !actions[1].Create[0].Overwrite {
					t.Errorf("EjectActions = %+v, want the disabled action and the overwrite action", actions)
				}
			}
		})
	}
}
