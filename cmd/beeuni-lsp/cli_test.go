package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/version"

	"golang.org/x/tools/txtar"
)

var updateCLI = flag.Bool("update", false, "rewrite testdata/cli/*.golden from the current output")

// cliWorkspace lays a txtar archive of testdata/cli out in a temporary folder.
func cliWorkspace(t *testing.T, name string) string {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", "cli", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runCLI runs a command line in dir and returns its streams and exit code.
func runCLI(dir string, args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	e := env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, dir: dir}
	code = run(context.Background(), e, args)
	return out.String(), errb.String(), code
}

// The CLI golden cases: each is a workspace and command lines; the golden
// file records, for each command line, its exit code, stdout and stderr.
var cliCases = []struct {
	workspace string
	commands  [][]string
}{
	{"spec_example", [][]string{{"tools", "ls"}, {"tools", "ls", "--json"}, {"validate"}, {"validate", "--json"}}},
	{"mistakes", [][]string{{"validate"}, {"validate", "--json"}, {"validate", "--format", "github"}, {"validate", "--format=sarif"}, {"tools", "ls"}}},
	{"warnings_only", [][]string{{"validate"}, {"validate", "--no-inspect", "--json"}, {"validate", "--max-warnings", "1"}, {"validate", "--max-warnings=0", "--format", "github"}}},
	{"clean", [][]string{{"validate"}, {"validate", "--json"}, {"validate", "--format", "github"}, {"validate", "--format", "sarif"}, {"tools", "ls", "--json"}}},
	{"bad_module", [][]string{{"validate"}, {"validate", "--no-inspect"}, {"validate", "--format", "github"}}},
	{"syntax_error", [][]string{{"validate"}, {"tools", "ls"}, {"validate", "--format", "sarif"}}},
	{"not_loading", [][]string{{"tools", "ls"}, {"tools", "ls", "--json"}}},
	{"related", [][]string{{"validate"}, {"validate", "--json"}, {"validate", "--format", "github"}, {"validate", "--format", "sarif"}}},
	{"nested", [][]string{{"validate", "shop"}, {"validate", "shop/beeuni.yaml", "--json"}, {"validate", "--format", "github", "shop"}, {"validate", "--format", "sarif", "shop/beeuni.yaml"}, {"tools", "ls", "shop"}}},
}

func TestCLIGolden(t *testing.T) {
	for _, c := range cliCases {
		t.Run(c.workspace, func(t *testing.T) {
			dir := cliWorkspace(t, c.workspace)
			var b strings.Builder
			for _, args := range c.commands {
				stdout, stderr, code := runCLI(dir, args...)
				fmt.Fprintf(&b, "$ beeuni-lsp %s\nexit %d\n-- stdout --\n%s-- stderr --\n%s", strings.Join(args, " "), code, stdout, stderr)
			}
			got := strings.ReplaceAll(b.String(), dir, "$DIR")
			// SARIF names the build; the golden files hold a placeholder.
			got = strings.ReplaceAll(got, fmt.Sprintf(`"version": %q`, version.String()), `"version": "$VERSION"`)
			golden := filepath.Join("testdata", "cli", c.workspace+".golden")
			if *updateCLI {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -update creates it)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
}

// specToolsLs is SPEC section 6's example, byte for byte (after the `$`
// line).
const specToolsLs = "NAME            KIND                 SOURCE\n" +
	"web_search      beeuni (overridden)  tools/web_search.ts\n" +
	"scrape_webpage  beeuni               beeuni:scrape_webpage\n" +
	"memory          beeuni               beeuni:memory\n" +
	"show            beeuni               beeuni:show\n" +
	"lookup_order    project              tools/lookup_order.ts\n" +
	"\n" +
	"Removed Beeuni tools: image_search\n" +
	"Add `<name>: beeuni:<name>` under `tools:` to get one back.\n"

func TestToolsLsMatchesTheSpecExample(t *testing.T) {
	dir := cliWorkspace(t, "spec_example")
	stdout, stderr, code := runCLI(dir, "tools", "ls")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if stdout != specToolsLs {
		t.Errorf("tools ls:\n%s\nwant the spec's block:\n%s", stdout, specToolsLs)
	}
	stdout, _, code = runCLI(dir, "tools", "ls", "--json", dir)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Manifest string `json:"manifest"`
		ToolsKey bool   `json:"tools_key"`
		Tools    []struct {
			Name, Kind, Source string
		} `json:"tools"`
		Removed []string `json:"removed"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Manifest != "beeuni.yaml" || !got.ToolsKey || len(got.Tools) != 5 || got.Tools[0].Kind != "beeuni (overridden)" ||
		got.Tools[4].Name != "lookup_order" || len(got.Removed) != 1 || got.Removed[0] != "image_search" {
		t.Errorf("tools ls --json = %+v", got)
	}
}

func TestCLICannotRun(t *testing.T) {
	empty := t.TempDir()
	notAFolder := filepath.Join(empty, "file.txt")
	if err := os.WriteFile(notAFolder, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want string // a substring of stderr
	}{
		{"no manifest", []string{"validate"}, "no beeuni.yaml in the working folder or any folder above it"},
		{"no manifest in the folder named", []string{"validate", "."}, "no beeuni.yaml in .\n"},
		{"no manifest json", []string{"validate", "--json"}, "no beeuni.yaml in "},
		{"missing folder", []string{"validate", "missing"}, "cannot read missing: "},
		{"not a folder", []string{"tools", "ls", "file.txt"}, "is not a folder"},
		{"no manifest above", []string{"tools", "ls"}, "no beeuni.yaml in the working folder or any folder above it"},
		{"unknown flag", []string{"validate", "--strict"}, "unknown flag --strict"},
		{"unknown tools ls flag", []string{"tools", "ls", "--no-inspect"}, "unknown flag --no-inspect"},
		{"two folders", []string{"validate", "a", "b"}, "validate takes [PATH]: at most 1 argument(s), got 2"},
		{"bad format", []string{"validate", "--format", "xml"}, `unknown format "xml"`},
		{"json and another format", []string{"validate", "--json", "--format", "sarif"}, "--json and --format sarif disagree"},
		{"max-warnings not a number", []string{"validate", "--max-warnings", "many"}, `invalid value "many" for --max-warnings`},
		{"max-warnings negative", []string{"validate", "--max-warnings=-3"}, "--max-warnings must be 0 or more"},
		{"a file that is not a manifest", []string{"validate", "file.txt"}, "file.txt is not a folder nor a beeuni.yaml"},
		{"unknown command", []string{"lint"}, `unknown command "lint"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(empty, c.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q does not say %q", stderr, c.want)
			}
			// Paths are named relative to the working folder.
			if strings.Contains(stderr, empty) {
				t.Errorf("stderr %q names the working folder's absolute path", stderr)
			}
		})
	}
}

// A manifest with no usage problem: the reason on stderr is one line.
func TestCLIReasonIsOneLine(t *testing.T) {
	_, stderr, code := runCLI(t.TempDir(), "validate")
	if code != 2 || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q: want exit 2 and one line", code, stderr)
	}
}

func TestValidateDirArgumentIsRelativeToTheWorkingFolder(t *testing.T) {
	dir := cliWorkspace(t, "mistakes")
	parent := filepath.Dir(dir)
	stdout, _, code := runCLI(parent, "validate", "--no-inspect", filepath.Base(dir))
	if code != 1 || !strings.HasPrefix(stdout, filepath.Base(dir)+"/beeuni.yaml:2:") {
		t.Errorf("exit %d, stdout:\n%s", code, stdout)
	}
}

// An error's absolute paths under the project are named relative to the
// working folder, as findings are.
func TestRelMessage(t *testing.T) {
	for _, tc := range []struct{ dir, root, msg, want string }{
		{"/w/shop", "/w/shop", "open /w/shop/tools/x.ts: permission denied", "open tools/x.ts: permission denied"},
		{"/w/shop/tools", "/w/shop", "open /w/shop/beeuni.yaml: denied", "open ../beeuni.yaml: denied"},
		{"/w", "/w/shop", "resolve /w/shop: loop", "resolve shop: loop"},
		{"/w", "/w/shop", "tools.x in shared/a.yaml is not a string", "tools.x in shared/a.yaml is not a string"},
	} {
		if got := relMessage(env{dir: tc.dir}, tc.root, tc.msg); got != tc.want {
			t.Errorf("%+v: %q", tc, got)
		}
	}
}
