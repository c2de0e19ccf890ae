package tsinspect

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/beeuni/beeuni-lsp/internal/bunload"
	"github.com/beeuni/beeuni-lsp/internal/bunload/buntest"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/loadtime"
)

// The differential test against Bun, the runtime the daemon loads modules
// with (BEEUNI_BUN, from scripts/install-bun.sh: see buntest.Binary).
func bunBinary(t *testing.T) string { t.Helper(); return buntest.Binary(t) }

// runBun loads module (repository-relative) of a temporary copy of files in
// a fresh Bun process, as the daemon does (internal/bunload).
func runBun(t *testing.T, bun string, files []txtar.File, module string) bunVerdict {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "repo")
	for _, f := range files {
		p := filepath.Join(repo, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	v, err := bunload.Load(ctx, bun, repo, filepath.Join(repo, filepath.FromSlash(module)))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestBunCorpus checks every recorded `-- bun --` section against Bun itself
// (-update records them), then holds the inspector to Bun on generated
// mutations of every corpus module (testdata/corpus/mutations.golden lists
// the disagreements).
func TestBunCorpus(t *testing.T) {
	bun := bunBinary(t)
	cases := loadCorpus(t, "testdata/corpus")
	var mutations score
	for _, c := range cases {
		files := workspace(c.ar)
		got := runBun(t, bun, files, c.module)
		switch {
		case *update:
			rewriteBunSection(t, c, got)
		case c.bun == nil:
			t.Errorf("%s: no `-- bun --` section; Bun says:\n%s(run with -update to record it)", c.name, formatVerdict(got))
		case formatVerdict(got) != formatVerdict(*c.bun):
			t.Errorf("%s: the recorded `-- bun --` section differs from what Bun says (run with -update to record it)\n--- bun\n%s--- recorded\n%s", c.name, formatVerdict(got), formatVerdict(*c.bun))
		}
		for _, m := range mutate(files, c.module) {
			v := runBun(t, bun, m.files, c.module)
			mutations.add(c.name+"#"+m.name, "", inspectFiles(m.files, c.module), v)
		}
	}
	checkGolden(t, "testdata/corpus/mutations.golden", mutations.String())
}

// TestBunFixtures holds the inspector to Bun on every module of the golden
// fixtures (testdata/*.txtar): testdata/bun/fixtures.golden lists the
// disagreements.
func TestBunFixtures(t *testing.T) {
	bun := bunBinary(t)
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var s score
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		ar := txtar.Parse(data)
		var modules []string
		for _, f := range ar.Files {
			if f.Name == "modules" {
				modules = strings.Fields(string(f.Data))
			}
		}
		if modules == nil {
			for _, f := range ar.Files {
				if strings.HasPrefix(f.Name, "tools/") {
					modules = append(modules, f.Name)
				}
			}
		}
		ws := workspace(ar)
		for _, m := range modules {
			v := runBun(t, bun, ws, m)
			s.add(strings.TrimSuffix(filepath.Base(file), ".txtar")+":"+m, "", inspectFiles(ws, m), v)
		}
	}
	checkGolden(t, "testdata/bun/fixtures.golden", s.String())
}

func rewriteBunSection(t *testing.T, c corpusCase, v bunVerdict) {
	t.Helper()
	file := filepath.Join("testdata/corpus", c.name+".txtar")
	ar := &txtar.Archive{Comment: c.ar.Comment}
	for _, f := range c.ar.Files {
		if f.Name != "bun" {
			ar.Files = append(ar.Files, f)
		}
	}
	// the bun section goes right before want, or last
	bunFile := txtar.File{Name: "bun", Data: []byte(formatVerdict(v))}
	at := len(ar.Files)
	for i, f := range ar.Files {
		if f.Name == "want" {
			at = i
		}
	}
	ar.Files = append(ar.Files[:at], append([]txtar.File{bunFile}, ar.Files[at:]...)...)
	if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mutation is a generated variant of a corpus workspace.
type mutation struct {
	name  string
	files []txtar.File
}

// mutate makes the edits people make by mistake, each once, to the module:
// delete its first import, rename its first const (its reads become
// undeclared), break the schema's type, cut the file short, drop the
// default export, point the first relative import at a missing file.
func mutate(files []txtar.File, module string) []mutation {
	var src string
	for _, f := range files {
		if f.Name == module {
			src = string(f.Data)
		}
	}
	edits := []struct {
		name string
		edit func(string) string
	}{
		{"drop-first-import", func(s string) string {
			lines := strings.SplitAfter(s, "\n")
			for i, l := range lines {
				if strings.HasPrefix(l, "import ") && strings.Contains(l, " from ") {
					return strings.Join(append(lines[:i:i], lines[i+1:]...), "")
				}
			}
			return s
		}},
		{"rename-first-const", func(s string) string {
			lines := strings.SplitAfter(s, "\n")
			for i, l := range lines {
				if rest, ok := strings.CutPrefix(l, "const "); ok {
					lines[i] = "const renamed_" + rest
					return strings.Join(lines, "")
				}
			}
			return s
		}},
		{"schema-type-array", func(s string) string { return strings.Replace(s, "type: 'object'", "type: 'array'", 1) }},
		{"cut-short", func(s string) string { return s[:len(s)*2/3] }},
		{"no-default-export", func(s string) string { return strings.Replace(s, "export default ", "export const tool = ", 1) }},
		{"missing-helper", func(s string) string { return strings.Replace(s, "from './", "from './missing/", 1) }},
	}
	var out []mutation
	for _, e := range edits {
		changed := e.edit(src)
		if changed == src {
			continue
		}
		m := mutation{name: e.name}
		for _, f := range files {
			if f.Name == module {
				f.Data = []byte(changed)
			}
			m.files = append(m.files, f)
		}
		out = append(out, m)
	}
	return out
}

// TestBunGlobals checks that every global Bun gives a module is in
// bunGlobalNames, so that reading one is never "declared nowhere".
func TestBunGlobals(t *testing.T) {
	bun := bunBinary(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "globals.mjs")
	const src = `const s = new Set(); for (let o = globalThis; o; o = Object.getPrototypeOf(o)) for (const k of Object.getOwnPropertyNames(o)) s.add(k);
for (const k of ['require', 'module', 'exports', '__dirname', '__filename']) if (eval('typeof ' + k) !== 'undefined') s.add(k);
console.log([...s].filter((k) => /^[A-Za-z_$][\w$]*$/.test(k)).join(' '))`
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bun, "--no-install", script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "NO_COLOR=1"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bun: %v", err)
	}
	names := strings.Fields(string(out))
	if len(names) < 100 {
		t.Fatalf("bun listed %d globals: %q", len(names), out)
	}
	for _, n := range names {
		if !loadtime.IsBunGlobal(n) {
			t.Errorf("Bun's global %q is missing from bunGlobalNames (loadtime/globals.go)", n)
		}
	}
}
