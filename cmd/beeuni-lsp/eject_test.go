package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/beeunitools"
	"github.com/beeuni/beeuni-lsp/internal/vfs/vfstest"
)

// ejectWant is SPEC section 7's block for web_search in beeuni.yaml.
const ejectWant = `  ✓  Ejected web_search
  wrote   tools/web_search.ts (the Beeuni source, now the project's to change)
  set     beeuni.yaml: tools.web_search: tools/web_search.ts

Next:
  1. Edit tools/web_search.ts. Keep the default export: { description, parameters, execute(args, context) }.
  2. beeuni validate
  3. git add tools/web_search.ts beeuni.yaml && git commit -m "Own the web_search tool"
  4. Open a change request: git push origin HEAD && beeuni cr open --title "Own the web_search tool"
Sessions load the copy after the change request merges.
`

const starter = `tools:
  web_search: beeuni:web_search      # maintained by Beeuni, updated automatically
  image_search: beeuni:image_search
  scrape_webpage: beeuni:scrape_webpage
  memory: beeuni:memory
  show: beeuni:show
  # lookup_order: tools/lookup_order.ts   # your own tool: a module in your repo
`

func runEject(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, dir: dir}, append([]string{"tools", "eject"}, args...))
	return out.String(), errOut.String(), code
}

func TestToolsEjectPrintsTheSpecBlock(t *testing.T) {
	dir := t.TempDir()
	vfstest.WriteFiles(t, dir, map[string]string{"beeuni.yaml": starter})
	stdout, stderr, code := runEject(t, dir, "web_search")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if stdout != ejectWant {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout, ejectWant)
	}
	got := vfstest.Snapshot(t, dir)
	src, _ := beeunitools.Source("web_search")
	if got[filepath.Join("tools", "web_search.ts")] != string(src) {
		t.Error("tools/web_search.ts is not the embedded Beeuni source")
	}
	want := strings.Replace(starter, "web_search: beeuni:web_search      # maintained by Beeuni, updated automatically", "web_search: tools/web_search.ts  # ejected from beeuni:web_search", 1)
	if got["beeuni.yaml"] != want {
		t.Errorf("beeuni.yaml:\n%s\nwant:\n%s", got["beeuni.yaml"], want)
	}
	// Validate-level check: the project still loads with no finding.
	var out, errOut bytes.Buffer
	if code := run(context.Background(), env{stdout: &out, stderr: &errOut, dir: dir}, []string{"validate", "--no-inspect"}); code != 0 {
		t.Errorf("validate after eject: exit %d\n%s%s", code, out.String(), errOut.String())
	}
}

func TestToolsEjectNamesTheImportedFileItChanged(t *testing.T) {
	dir := t.TempDir()
	vfstest.WriteFiles(t, dir, map[string]string{
		"beeuni.yaml":        "imports:\n  - imports/tools.yaml\n",
		"imports/tools.yaml": "tools:\n  memory: beeuni:memory\n",
	})
	stdout, stderr, code := runEject(t, filepath.Join(dir, "imports"), "memory", "..")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, line := range []string{
		"  set     imports/tools.yaml: tools.memory: tools/memory.ts\n",
		"  3. git add tools/memory.ts imports/tools.yaml && git commit -m \"Own the memory tool\"\n",
	} {
		if !strings.Contains(stdout, line) {
			t.Errorf("stdout lacks %q:\n%s", line, stdout)
		}
	}
	if got := vfstest.Snapshot(t, dir)[filepath.Join("imports", "tools.yaml")]; got != "tools:\n  memory: tools/memory.ts  # ejected from beeuni:memory\n" {
		t.Errorf("imports/tools.yaml = %q", got)
	}
}

func TestToolsEjectRefusesAndLeavesTheProjectUntouched(t *testing.T) {
	outside := t.TempDir()
	cases := []struct {
		name   string
		files  map[string]string
		link   string // tools -> outside
		args   []string
		stderr string
	}{
		{"file exists", map[string]string{"beeuni.yaml": starter, "tools/web_search.ts": "// mine\n"}, "", []string{"web_search"},
			"beeuni-lsp: tools/web_search.ts exists: edit it, or pass --force to overwrite it with the Beeuni source\n"},
		{"another module", map[string]string{"beeuni.yaml": "tools:\n  web_search: integrations/search.ts\n", "integrations/search.ts": "x"}, "", []string{"web_search"},
			"beeuni-lsp: web_search already points to integrations/search.ts: edit that module, or pass --force to point it at tools/web_search.ts instead (integrations/search.ts stays on disk)\n"},
		{"not a Beeuni tool", map[string]string{"beeuni.yaml": starter}, "", []string{"lookup_order"},
			"beeuni-lsp: \"lookup_order\" is not a Beeuni tool: eject one of web_search, image_search, scrape_webpage, memory, show\n"},
		// Issue 12 items 4: an edit whose meaning is unclear is refused (it
		// used to add a second memory: line to the first block, exit 0).
		{"duplicate tools key", map[string]string{"beeuni.yaml": "tools:\n  web_search: beeuni:web_search\nagents: {}\ntools:\n  memory: beeuni:memory\n"}, "", []string{"memory"},
			"beeuni-lsp: cannot eject memory: beeuni.yaml:4:1: key `tools` written a second time in its mapping [T10]; fix it first\n"},
		{"duplicate tool key", map[string]string{"beeuni.yaml": "tools:\n  memory: beeuni:memory\n  memory: beeuni:memory\n"}, "", []string{"--force", "memory"},
			"beeuni-lsp: cannot eject memory: beeuni.yaml:3:3: key `memory` written a second time in its mapping [T10]; fix it first\n"},
		{"several documents", map[string]string{"beeuni.yaml": "tools:\n  memory: beeuni:memory\n---\nextra: 1\n"}, "", []string{"memory"},
			"beeuni-lsp: cannot eject memory: beeuni.yaml:3:1: a manifest holds one YAML document: remove this `---` and what follows, or move it to an imported file [Y1]; fix it first\n"},
		// Each Y1 says what it is, with its position: a syntax error is no
		// "second YAML document starts here", nor a bare "does not parse".
		{"a syntax error after the first document", map[string]string{"beeuni.yaml": "tools:\n  memory: beeuni:memory\n---\nextra: [1,\n"}, "", []string{"memory"},
			"beeuni-lsp: cannot eject memory: beeuni.yaml:5:1: YAML syntax error: did not find expected node content [Y1]; fix it first\n"},
		{"tools links out", map[string]string{"beeuni.yaml": starter}, "tools", []string{"--force", "web_search"},
			"beeuni-lsp: tools/ is a symbolic link out of the repository (to " + outside + "): eject writes only inside the repository\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			vfstest.WriteFiles(t, dir, c.files)
			if c.link != "" {
				if err := os.Symlink(outside, filepath.Join(dir, c.link)); err != nil {
					t.Fatal(err)
				}
			}
			before := vfstest.Snapshot(t, dir)
			stdout, stderr, code := runEject(t, dir, c.args...)
			if code != 1 || stdout != "" || stderr != c.stderr {
				t.Fatalf("exit %d, stdout %q, stderr %q; want 1 and %q", code, stdout, stderr, c.stderr)
			}
			after := vfstest.Snapshot(t, dir)
			if len(after) != len(before) {
				t.Fatalf("files changed: %v -> %v", before, after)
			}
			for k, v := range before {
				if after[k] != v {
					t.Fatalf("%s changed", k)
				}
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 0 {
				t.Fatalf("wrote outside the repository: %v", entries)
			}
		})
	}
}

func TestToolsEjectForceOverwrites(t *testing.T) {
	dir := t.TempDir()
	vfstest.WriteFiles(t, dir, map[string]string{"beeuni.yaml": starter, "tools/web_search.ts": "// an old copy\n"})
	stdout, stderr, code := runEject(t, dir, "web_search", "--force")
	if code != 0 || stdout != ejectWant {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	src, _ := beeunitools.Source("web_search")
	if got := vfstest.Snapshot(t, dir)[filepath.Join("tools", "web_search.ts")]; got != string(src) {
		t.Error("--force did not overwrite tools/web_search.ts with the Beeuni source")
	}
}

func TestToolsEjectUsage(t *testing.T) {
	dir := t.TempDir()
	vfstest.WriteFiles(t, dir, map[string]string{"beeuni.yaml": starter})
	for _, args := range [][]string{{}, {"--force"}, {"--dry-run", "web_search"}, {"web_search", ".", "extra"}} {
		_, stderr, code := runEject(t, dir, args...)
		if code != 2 || !strings.HasPrefix(stderr, "beeuni-lsp: ") {
			t.Errorf("tools eject %v: exit %d, stderr %q; want a usage error (2)", args, code, stderr)
		}
	}
	_, stderr, code := runEject(t, t.TempDir(), "web_search")
	if code != 2 || !strings.Contains(stderr, "no beeuni.yaml") {
		t.Errorf("no manifest: exit %d, stderr %q; want 2", code, stderr)
	}
}

// --force on an entry that points to another module repoints it and says
// that the old module stays on disk, untouched (other modules may import
// it); the user's comment on the line is kept before the marker.
func TestToolsEjectForceFromAnotherModuleKeepsIt(t *testing.T) {
	dir := t.TempDir()
	vfstest.WriteFiles(t, dir, map[string]string{
		"beeuni.yaml":            "tools:\n  web_search: integrations/search.ts  # our fork\n",
		"integrations/search.ts": "// ours\n",
	})
	stdout, stderr, code := runEject(t, dir, "--force", "web_search")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	kept := "  kept    integrations/search.ts (tools.web_search no longer names it; delete it if nothing else imports it)\n"
	want := strings.Replace(ejectWant, "tools.web_search: tools/web_search.ts\n", "tools.web_search: tools/web_search.ts\n"+kept, 1)
	if stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout, want)
	}
	got := vfstest.Snapshot(t, dir)
	if got[filepath.Join("integrations", "search.ts")] != "// ours\n" {
		t.Error("the old module changed")
	}
	if want := "tools:\n  web_search: tools/web_search.ts  # our fork # ejected from beeuni:web_search\n"; got["beeuni.yaml"] != want {
		t.Errorf("beeuni.yaml = %q, want %q", got["beeuni.yaml"], want)
	}
}

// An entry that already names tools/NAME.ts whose file is missing is
// ejected: the source is written and the line tagged (it used to be refused
// as "already ejected ... edit that file", naming a file that did not
// exist).
func TestToolsEjectWritesAMissingEjectedFile(t *testing.T) {
	dir := t.TempDir()
	vfstest.WriteFiles(t, dir, map[string]string{"beeuni.yaml": "tools:\n  web_search: tools/web_search.ts\n"})
	stdout, stderr, code := runEject(t, dir, "web_search")
	if code != 0 || stdout != ejectWant {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	got := vfstest.Snapshot(t, dir)
	src, _ := beeunitools.Source("web_search")
	if got[filepath.Join("tools", "web_search.ts")] != string(src) {
		t.Error("tools/web_search.ts is not the Beeuni source")
	}
	if want := "tools:\n  web_search: tools/web_search.ts  # ejected from beeuni:web_search\n"; got["beeuni.yaml"] != want {
		t.Errorf("beeuni.yaml = %q, want %q", got["beeuni.yaml"], want)
	}
}

// A key written twice outside what the eject edits (two agents of one
// name) is the agents' problem: the eject goes on, and that key stays as it
// was.
func TestToolsEjectDespiteADuplicateAgent(t *testing.T) {
	dir := t.TempDir()
	const agents = "agents:\n  helper:\n    tools: [read]\n  helper:\n    tools: [bash]\n"
	vfstest.WriteFiles(t, dir, map[string]string{"beeuni.yaml": "tools:\n  web_search: beeuni:web_search\n" + agents})
	stdout, stderr, code := runEject(t, dir, "web_search")
	if code != 0 || stdout != ejectWant {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	want := "tools:\n  web_search: tools/web_search.ts  # ejected from beeuni:web_search\n" + agents
	if got := vfstest.Snapshot(t, dir)["beeuni.yaml"]; got != want {
		t.Errorf("beeuni.yaml = %q, want %q", got, want)
	}
}

// Ejecting a Beeuni tool the project removed adds its entry, which gives
// sessions the tool again: the block says so; ejecting one the project
// loads does not.
func TestToolsEjectSaysItAddsARemovedToolBack(t *testing.T) {
	for _, tc := range []struct {
		manifest string
		added    bool
	}{
		{"tools:\n  web_search: beeuni:web_search\n", true},
		{"tools:\n  web_search: beeuni:web_search\n  memory: beeuni:memory\n", false},
		{"agents:\n  a:\n    tools: all\n", false},
	} {
		dir := t.TempDir()
		vfstest.WriteFiles(t, dir, map[string]string{"beeuni.yaml": tc.manifest})
		stdout, stderr, code := runEject(t, dir, "memory")
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", tc.manifest, code, stderr)
		}
		line := "  set     beeuni.yaml: tools.memory: tools/memory.ts\n" +
			"  added   memory back: the project had removed this Beeuni tool, and sessions get it again, as tools/memory.ts\n"
		if strings.Contains(stdout, line) != tc.added || strings.Contains(stdout, "  added ") != tc.added {
			t.Errorf("%q: added line %v:\n%s", tc.manifest, tc.added, stdout)
		}
	}
}
