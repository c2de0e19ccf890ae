package analysis_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
	"github.com/beeuni/beeuni-lsp/internal/vfs/vfstest"
)

// Hostile workspaces, on the real disk: repositories nobody here wrote.
// Each test builds one in t.TempDir(), loads it through a file system that
// records every read, and checks the finding that explains the problem,
// that the load ends, and that nothing outside the repository is read.

// outsideFile writes a file next to the repository (never to be read).
func outsideFile(t *testing.T, root, name, content string) string {
	t.Helper()
	p := filepath.Join(filepath.Dir(root), name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// findingAt returns the findings with code whose range starts at the
// first occurrence of needle in the root manifest.
func findingsWith(p *analysis.Project, code, inMessage string) []diag.Finding {
	var out []diag.Finding
	for _, f := range p.Findings {
		if f.Code == code && strings.Contains(f.Message, inMessage) {
			out = append(out, f)
		}
	}
	return out
}

func wantFinding(t *testing.T, p *analysis.Project, file, code, inMessage, at string) diag.Finding {
	t.Helper()
	fs := findingsWith(p, code, inMessage)
	if len(fs) == 0 {
		t.Fatalf("no %s finding saying %q; findings:\n%s", code, inMessage, dump(p.Findings))
	}
	f := fs[0]
	if f.File != file {
		t.Errorf("%s finding in %s, want %s", code, f.File, file)
	}
	if at != "" {
		content := p.File(file).Content()
		if got := string(content[f.Range.Start.Offset:f.Range.End.Offset]); !strings.Contains(got, at) {
			t.Errorf("%s finding covers %q, want it on %q", code, got, at)
		}
	}
	return f
}

func dump(fs []diag.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "  %s:%d:%d %s %s\n", filepath.Base(f.File), f.Range.Start.Line+1, f.Range.Start.Col+1, f.Code, f.Message)
	}
	return b.String()
}

func TestHostilePathsLeavingTheRepositoryAreReportedAndNeverRead(t *testing.T) {
	root := vfstest.WriteRepo(t, map[string]string{
		"beeuni.yaml": `imports:
  - ../secret.yaml
  - /etc/hostname.yaml
  - linked/secret.yaml
  - escape.yaml
tools:
  web_search: beeuni:web_search
  up: ../secret.ts
  abs: /etc/secret.ts
  via_dir: linked/secret.ts
  via_file: tools/escape.ts
  zero: tools/zero.ts
  home: ~/secret.ts
  url: file:///etc/secret.ts
`,
		"tools/escape.ts": "-> ../../outside/secret.ts",
		"tools/zero.ts":   "-> /dev/zero",
		"escape.yaml":     "-> ../outside/secret.yaml",
	})
	outsideFile(t, root, "secret.yaml", "tools: {stolen: beeuni:show}\n")
	outsideFile(t, root, "secret.ts", "export default {}\n")
	outsideFile(t, root, "outside/secret.yaml", "tools: {stolen: beeuni:show}\n")
	outsideFile(t, root, "outside/secret.ts", "export default {}\n")
	if err := os.Symlink(filepath.Join(filepath.Dir(root), "outside"), filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	fsys := vfstest.NewRecordingFS(vfs.NewDisk())
	p := loadGuarded(t, fsys, root)
	manifest := filepath.Join(root, "beeuni.yaml")
	wantFinding(t, p, manifest, "I2", "leaves the repository", "../secret.yaml")
	wantFinding(t, p, manifest, "I2", "must be a repo-relative path", "/etc/hostname.yaml")
	wantFinding(t, p, manifest, "I2", "`linked/secret.yaml` leaves the repository through a symbolic link", "linked/secret.yaml")
	wantFinding(t, p, manifest, "I2", "`escape.yaml` leaves the repository through a symbolic link", "escape.yaml")
	wantFinding(t, p, manifest, "T5", "`../secret.ts` leaves the repository", "../secret.ts")
	wantFinding(t, p, manifest, "T5", "`/etc/secret.ts` must be repo-relative", "/etc/secret.ts")
	wantFinding(t, p, manifest, "T5", "`linked/secret.ts` leaves the repository through a symbolic link", "linked/secret.ts")
	wantFinding(t, p, manifest, "T5", "`tools/escape.ts` leaves the repository through a symbolic link", "tools/escape.ts")
	wantFinding(t, p, manifest, "T5", "`tools/zero.ts` leaves the repository through a symbolic link", "tools/zero.ts")
	wantFinding(t, p, manifest, "T5", "`~/secret.ts` must be repo-relative", "~/secret.ts")
	wantFinding(t, p, manifest, "T5", "`file:///etc/secret.ts` must be repo-relative", "file:///etc/secret.ts")
	if len(p.Files) != 1 {
		t.Errorf("loaded %d files, want only the root manifest", len(p.Files))
	}
	if _, ok := p.Model.Tool("stolen"); ok {
		t.Error("a tool declared outside the repository was loaded")
	}
	fsys.AssertReadsWithin(t, root)
	checkFindings(t, p, fsys)
}

func TestHostileSpecialFilesWhereFilesShouldBe(t *testing.T) {
	root := vfstest.WriteRepo(t, map[string]string{
		"beeuni.yaml": `imports: [pipe.yaml, folder.yaml, secret.yaml]
tools:
  web_search: beeuni:web_search
  piped: tools/pipe.ts
  folder: tools/folder.ts
`,
		"folder.yaml/x":      "",
		"tools/folder.ts/x":  "",
		"tools/readable.ts":  "export default {}\n",
		"harnesses/.keep":    "",
		"unrelated/file.txt": "",
	})
	for _, p := range []string{"pipe.yaml", "tools/pipe.ts"} {
		if err := syscall.Mkfifo(filepath.Join(root, p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "secret.yaml"), []byte("tools: {}\n"), 0o000); err != nil {
		t.Fatal(err)
	}
	fsys := vfstest.NewRecordingFS(vfs.NewDisk())
	fsys.Deny(filepath.Join(root, "secret.yaml"))
	p := loadGuarded(t, fsys, root) // a FIFO read would block here forever
	manifest := filepath.Join(root, "beeuni.yaml")
	wantFinding(t, p, manifest, "I4", "`pipe.yaml` cannot be read", "pipe.yaml")
	wantFinding(t, p, manifest, "I4", "`folder.yaml` cannot be read", "folder.yaml")
	f := wantFinding(t, p, manifest, "I4", "`secret.yaml` cannot be read", "secret.yaml")
	if !strings.Contains(f.Message, "permission denied") {
		t.Errorf("unreadable import: %q does not say why", f.Message)
	}
	wantFinding(t, p, manifest, "T6", "`tools/pipe.ts` is not a regular file", "tools/pipe.ts")
	wantFinding(t, p, manifest, "T6", "`tools/folder.ts` is not a regular file", "tools/folder.ts")
	fsys.AssertReadsWithin(t, root)
}

func TestHostileAliasBombEndsWithBoundedFindings(t *testing.T) {
	// "Billion laughs": each level doubles ten times; fully expanded it
	// would hold 10^9 names. Merge keys (<<) expand too.
	var b strings.Builder
	b.WriteString("a0: &a0 [web_search, lol]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	b.WriteString("m0: &m0 {x0: 1}\n")
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&b, "m%d: &m%d {<<: [*m%d, *m%d], x%d: 1}\n", i, i, i-1, i-1, i)
	}
	b.WriteString("tools:\n  <<: *m30\n  web_search: beeuni:web_search\nagents:\n  bomb:\n    tools: *a9\n  bomb2:\n    tools: {exclude: *a9}\n")
	root := vfstest.WriteRepo(t, map[string]string{"beeuni.yaml": b.String()})
	fsys := vfstest.NewRecordingFS(vfs.NewDisk())
	p := loadGuarded(t, fsys, root)
	if len(p.Findings) == 0 || len(p.Findings) > 10_000 {
		t.Fatalf("%d findings, want a few that explain the bomb", len(p.Findings))
	}
	checkFindings(t, p, fsys)
}

func TestHostileDeepNesting(t *testing.T) {
	for _, depth := range []int{1_000, 100_000} {
		t.Run(fmt.Sprint(depth), func(t *testing.T) {
			content := "tools:\n  web_search: " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "\nagents: {a: {tools: " + strings.Repeat("{a: ", depth) + "1" + strings.Repeat("}", depth) + "}}\n"
			root := vfstest.WriteRepo(t, map[string]string{"beeuni.yaml": content})
			fsys := vfstest.NewRecordingFS(vfs.NewDisk())
			p := loadGuarded(t, fsys, root)
			if len(p.Findings) == 0 {
				t.Fatal("no finding on nesting this deep")
			}
			checkFindings(t, p, fsys)
		})
	}
}

func TestHostileImportCycle(t *testing.T) {
	root := vfstest.WriteRepo(t, map[string]string{
		"beeuni.yaml": "imports: [a.yaml]\ntools: {web_search: beeuni:web_search}\n",
		"a.yaml":      "imports: [b.yaml]\n",
		"b.yaml":      "imports: [beeuni.yaml, link.yaml]\n",
		"link.yaml":   "-> a.yaml",
	})
	fsys := vfstest.NewRecordingFS(vfs.NewDisk())
	p := loadGuarded(t, fsys, root)
	cycles := findingsWith(p, "I6", "import cycle")
	if len(cycles) == 0 {
		t.Fatalf("no I6 finding; findings:\n%s", dump(p.Findings))
	}
	f := wantFinding(t, p, filepath.Join(root, "b.yaml"), "I6", "beeuni.yaml → a.yaml → b.yaml → beeuni.yaml", "beeuni.yaml")
	if len(f.Related) < 2 {
		t.Errorf("the cycle has %d related locations, want the whole chain", len(f.Related))
	}
	if len(p.Files) != 3 {
		t.Errorf("loaded %d files, want 3 (each once)", len(p.Files))
	}
	checkFindings(t, p, fsys)
}

func TestHostileImportChain1000Deep(t *testing.T) {
	const depth = 1000
	files := map[string]string{"beeuni.yaml": "imports: [c/0001.yaml]\n"}
	for i := 1; i <= depth; i++ {
		next := ""
		if i < depth {
			next = fmt.Sprintf("imports: [c/%04d.yaml]\n", i+1)
		}
		files[fmt.Sprintf("c/%04d.yaml", i)] = next + fmt.Sprintf("tools: {t%04d: beeuni:show}\n", i)
	}
	root := vfstest.WriteRepo(t, files)
	fsys := vfstest.NewRecordingFS(vfs.NewDisk())
	p := loadGuarded(t, fsys, root)
	loaded := len(p.Files) - 1
	tooMany := findingsWith(p, "I4", "too many imported files")
	switch {
	case loaded == depth && len(tooMany) == 0:
	case loaded < depth && len(tooMany) == 1:
	default:
		t.Fatalf("loaded %d of %d chained imports with %d 'too many' findings", loaded, depth, len(tooMany))
	}
	checkFindings(t, p, fsys)
}

func TestHostileTenThousandImports(t *testing.T) {
	const n = 10_000
	var b strings.Builder
	b.WriteString("tools: {web_search: beeuni:web_search}\nimports:\n")
	files := map[string]string{}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  - many/%05d.yaml\n", i)
		files[fmt.Sprintf("many/%05d.yaml", i)] = fmt.Sprintf("agents: {a%05d: {tools: all}}\n", i)
	}
	files["beeuni.yaml"] = b.String()
	root := vfstest.WriteRepo(t, files)
	fsys := vfstest.NewRecordingFS(vfs.NewDisk())
	p := loadGuarded(t, fsys, root)
	loaded := len(p.Files) - 1
	tooMany := findingsWith(p, "I4", "too many imported files")
	if loaded >= n || loaded+len(tooMany) != n {
		t.Fatalf("loaded %d of %d imports, %d 'too many' findings: want every import either loaded or reported", loaded, n, len(tooMany))
	}
	checkFindings(t, p, fsys)
}

func TestHostileUnreadableRootManifest(t *testing.T) {
	root := vfstest.WriteRepo(t, map[string]string{"beeuni.yaml": "tools: {}\n"})
	fsys := vfstest.NewRecordingFS(vfs.NewDisk())
	fsys.Deny(filepath.Join(root, "beeuni.yaml"))
	if _, err := analysis.Load(t.Context(), fsys, root); !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("Load with an unreadable manifest = %v, want a permission error", err)
	}
	if err := os.Remove(filepath.Join(root, "beeuni.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "beeuni.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys.Allow(filepath.Join(root, "beeuni.yaml"))
	if _, err := analysis.Load(t.Context(), fsys, root); !errors.Is(err, vfs.ErrNotRegular) {
		t.Fatalf("Load with a FIFO as manifest = %v, want ErrNotRegular", err)
	}
}
