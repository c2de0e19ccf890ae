package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runCLITerminal runs a command line in dir as if stdout were a terminal,
// with the environment vars.
func runCLITerminal(dir string, vars map[string]string, args ...string) (stdout string, code int) {
	var out, errb bytes.Buffer
	e := env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, dir: dir, stdoutTerminal: true,
		getenv: func(k string) string { return vars[k] }}
	code = run(context.Background(), e, args)
	return out.String(), code
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// On a terminal, validate shows each finding with its source line, a
// caret under its range, its related places and its rule's section of
// docs/rules.md, the severity in colour (testdata/cli/pretty.golden,
// recorded with --color always); NO_COLOR, TERM=dumb and --color never
// keep the layout without colour; in CI ($CI set) it is the one-line
// format, as with --format text (a VS Code task runs in a terminal, and
// its problem matcher reads lines).
func TestTextOnATerminal(t *testing.T) {
	dir := cliWorkspace(t, "pretty")
	plain, _, code := runCLI(dir, "validate")
	if code != 1 || strings.Contains(plain, "\x1b") || strings.Contains(plain, "-->") {
		t.Fatalf("piped: exit %d:\n%s", code, plain)
	}
	colored, code := runCLITerminal(dir, nil, "validate")
	golden := filepath.Join("testdata", "cli", "pretty.golden")
	if *updateCLI {
		if err := os.WriteFile(golden, []byte(colored), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if code != 1 || colored != string(want) {
		t.Errorf("on a terminal: exit %d\n%s\nwant (%s)\n%s", code, colored, golden, want)
	}
	if !strings.Contains(colored, "\x1b[1;31merror[T6]\x1b[0m") || !strings.Contains(colored, "\x1b[1;32mhint[M8]\x1b[0m") {
		t.Errorf("no coloured severity:\n%q", colored)
	}
	layout := ansi.ReplaceAllString(colored, "")
	for _, w := range []string{
		"error[T6]: module `tools/gone.ts` does not exist\n --> beeuni.yaml:6:12\n  |\n6 |   Weather: tools/gone.ts   # café\n  |            ^^^^^^^^^^^^^\n" +
			"  = docs: https://github.com/beeuni/beeuni-lsp/blob/main/docs/rules.md#t6\n",
		"  = related: shared/a.yaml:2:3: ",
		"3 |   parameters: { type: 'object', properties: { title: { type: 'string' } } }, // \ufffd[31m red\n  |                                               ^^^^^\n",
	} {
		if !strings.Contains(layout, w) {
			t.Errorf("the layout lacks %q:\n%s", w, layout)
		}
	}
	for _, tc := range []struct {
		name string
		vars map[string]string
		args []string
		want string
	}{
		{"NO_COLOR", map[string]string{"NO_COLOR": "1"}, nil, layout},
		{"TERM=dumb", map[string]string{"TERM": "dumb"}, nil, layout},
		{"--color never", nil, []string{"--color", "never"}, layout},
		{"--color=always with NO_COLOR", map[string]string{"NO_COLOR": "1"}, []string{"--color=always"}, colored},
		{"CI", map[string]string{"CI": "true"}, nil, plain},
		{"--format text", nil, []string{"--format", "text"}, plain},
		{"--format=text --color always", nil, []string{"--format=text", "--color", "always"}, plain},
	} {
		got, _ := runCLITerminal(dir, tc.vars, append([]string{"validate"}, tc.args...)...)
		if got != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
	// Piped, --color always asks for colour and layout.
	if got, _, _ := runCLI(dir, "validate", "--color", "always"); got != colored {
		t.Errorf("piped with --color always:\n%s", got)
	}
	if _, stderr, code := runCLI(dir, "validate", "--color", "sometimes"); code != 2 || !strings.Contains(stderr, "--color must be auto, always or never, not \"sometimes\"") {
		t.Errorf("--color sometimes: exit %d, %q", code, stderr)
	}
}

// Piped, the text format is one line per finding, byte for byte what the
// golden files of TestCLIGolden record (the problem matchers read it),
// whatever --color auto or never and the environment say.
func TestTextPipedIsOneLinePerFinding(t *testing.T) {
	vars := map[string]string{"TERM": "xterm-256color", "COLORTERM": "truecolor", "FORCE_COLOR": "1"}
	for _, c := range cliCases {
		dir := cliWorkspace(t, c.workspace)
		for _, args := range c.commands {
			if args[0] != "validate" || len(args) != 1 && !(len(args) == 2 && !strings.HasPrefix(args[1], "-")) {
				continue
			}
			want, _, _ := runCLI(dir, args...)
			for _, extra := range [][]string{nil, {"--color", "auto"}, {"--color=never"}} {
				got, _, _ := runCLIEnv(dir, vars, append(append([]string(nil), args...), extra...)...)
				if got != want {
					t.Errorf("%s %v %v: %q, want %q", c.workspace, args, extra, got, want)
				}
			}
		}
	}
}
