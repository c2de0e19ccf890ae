package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// Each command's --help prints its usage, its flags and its exit codes on
// stdout and exits 0 (it used to be an unknown flag, exit 2).
func TestCommandHelp(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		flags []string
	}{
		{[]string{"validate", "--help"}, []string{"--format FORMAT", "--json", "--max-warnings N", "--no-inspect"}},
		{[]string{"validate", "-h"}, []string{"--format FORMAT"}},
		{[]string{"tools", "ls", "--help"}, []string{"--json", "--agent NAME"}},
		{[]string{"tools", "eject", "--help"}, []string{"-f, --force"}},
		{[]string{"tools", "eject", "web_search", "--help"}, []string{"-f, --force"}},
		{[]string{"serve", "--help"}, []string{"--stdio"}},
		{[]string{"serve", "-h"}, []string{"--stdio"}},
		{[]string{"version", "--help"}, nil},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			stdout, stderr, code := runCLI(t.TempDir(), tc.args...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			command := strings.Join(tc.args[:len(tc.args)-1], " ")
			if tc.args[0] == "tools" {
				command = strings.Join(tc.args[:2], " ")
			}
			want := append([]string{"usage: beeuni-lsp " + command + " [flags]", "Exit codes:\n  0  ", "\n  2  ", "-h, --help"}, tc.flags...)
			for _, w := range want {
				if !strings.Contains(stdout, w) {
					t.Errorf("--help lacks %q:\n%s", w, stdout)
				}
			}
		})
	}
}

// With no PATH, the commands find the nearest beeuni.yaml from the working
// folder up, as git finds .git, and name files relative to the working
// folder.
func TestFindsTheProjectUpward(t *testing.T) {
	dir := cliWorkspace(t, "nested")
	sub := filepath.Join(dir, "shop", "tools")
	stdout, stderr, code := runCLI(sub, "validate")
	if code != 1 || stderr != "" || !strings.HasPrefix(stdout, "../beeuni.yaml:3:3: error: ") {
		t.Fatalf("validate from shop/tools: exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	stdout, _, code = runCLI(sub, "tools", "ls")
	if code != 0 || !strings.Contains(stdout, "web_search  beeuni  beeuni:web_search\n") {
		t.Fatalf("tools ls from shop/tools: exit %d:\n%s", code, stdout)
	}
	// The manifest itself as the argument, from anywhere.
	stdout, _, code = runCLI(sub, "validate", filepath.Join("..", "beeuni.yaml"))
	if code != 1 || !strings.HasPrefix(stdout, "../beeuni.yaml:3:3: error: ") {
		t.Fatalf("validate ../beeuni.yaml: exit %d:\n%s", code, stdout)
	}
	// The nearest manifest wins: a project inside a project.
	stdout, _, code = runCLI(filepath.Join(dir, "shop"), "validate", "--format", "github")
	if code != 1 || !strings.HasPrefix(stdout, "::error file=beeuni.yaml,line=3,col=3,") {
		t.Fatalf("validate in shop: exit %d:\n%s", code, stdout)
	}
}

// --max-warnings N: exit 1 when there are more than N warnings (eslint's
// convention), with one line on stderr; errors still exit 1.
func TestMaxWarnings(t *testing.T) {
	dir := cliWorkspace(t, "warnings_only")
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"validate"}, 0, ""},
		{[]string{"validate", "--max-warnings", "1"}, 0, ""},
		{[]string{"validate", "--max-warnings=0", "--json"}, 1, "beeuni-lsp: more warnings (1) than --max-warnings 0 allows\n"},
		{[]string{"validate", "--no-inspect", "--max-warnings", "0", "--format", "sarif"}, 1, "beeuni-lsp: more warnings (1) than --max-warnings 0 allows\n"},
	} {
		_, stderr, code := runCLI(dir, tc.args...)
		if code != tc.code || stderr != tc.stderr {
			t.Errorf("%v: exit %d, stderr %q; want %d, %q", tc.args, code, stderr, tc.code, tc.stderr)
		}
	}
	errors := cliWorkspace(t, "nested")
	if _, _, code := runCLI(errors, "validate", "--max-warnings", "5", "shop"); code != 1 {
		t.Errorf("an error under --max-warnings 5: exit %d, want 1", code)
	}
}

// Workflow commands escape what the runner would read as syntax.
func TestGitHubEscapes(t *testing.T) {
	got := githubCommand(finding{
		File: "a,b:c%/beeuni.yaml", Line: 1, Column: 2, EndLine: 3, EndColumn: 4, Code: "T1",
		Message: "50% of it:\r\nnext, line", sev: 2,
	})
	want := "::warning file=a%2Cb%3Ac%25/beeuni.yaml,line=1,col=2,endLine=3,endColumn=4,title=T1::50%25 of it:%0D%0Anext, line\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// `beeuni-lsp` with no arguments, started from a terminal, says on stderr
// what it is doing instead of waiting silently; started by an editor (a
// pipe), it prints nothing.
func TestServeOnATerminalSaysSo(t *testing.T) {
	for _, terminal := range []bool{true, false} {
		var out, errb bytes.Buffer
		e := env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, dir: t.TempDir(), terminal: terminal}
		run(context.Background(), e, nil)
		notice := strings.HasPrefix(errb.String(), terminalNotice)
		if notice != terminal || strings.Count(terminalNotice, "\n") != 1 {
			t.Errorf("terminal %v: stderr %q", terminal, errb.String())
		}
	}
}

// A bad flag or argument prints the reason, then the usage of the command
// it was given to (not the top-level one), on stderr, and exits 2.
func TestBadFlagPrintsTheCommandsUsage(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		command string
		reason  string
	}{
		{[]string{"validate", "--strict"}, "validate", "validate: unknown flag --strict"},
		{[]string{"validate", "--format", "xml"}, "validate", `validate: unknown format "xml"`},
		{[]string{"tools", "ls", "--no-inspect"}, "tools ls", "tools ls: unknown flag --no-inspect"},
		{[]string{"tools", "eject"}, "tools eject", "tools eject needs NAME [PATH]"},
		{[]string{"serve", "--tcp"}, "serve", "serve: unknown flag --tcp"},
		{[]string{"serve", "x"}, "serve", `serve takes no arguments, not "x"`},
		{[]string{"version", "--short"}, "version", "version: unknown flag --short"},
	} {
		stdout, stderr, code := runCLI(t.TempDir(), tc.args...)
		want := "beeuni-lsp: " + tc.reason
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, want) ||
			!strings.Contains(stderr, "\n\nusage: beeuni-lsp "+tc.command+" [flags]") || strings.Contains(stderr, "Commands:") {
			t.Errorf("%v: exit %d, stdout %q, stderr:\n%s", tc.args, code, stdout, stderr)
		}
	}
}
