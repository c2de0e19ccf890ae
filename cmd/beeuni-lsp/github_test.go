package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// runCLIEnv runs a command line in dir with the environment vars.
func runCLIEnv(dir string, vars map[string]string, args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	e := env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, dir: dir, getenv: func(k string) string { return vars[k] }}
	code = run(context.Background(), e, args)
	return out.String(), errb.String(), code
}

// GitHub shows at most 10 error, 10 warning and 10 notice annotations per
// step. examples/mistakes has 16 errors, 6 warnings and 2 information:
// with $GITHUB_STEP_SUMMARY set, every finding goes to the job summary
// (linked to its lines at the commit, its code to docs/rules.md), the
// workflow commands stay as they were, and one final notice says that 6
// were not shown and where they all are.
func TestGitHubJobSummaryOverTheCap(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mistakes := filepath.Join(root, "examples", "mistakes")
	// Without a job summary, the same annotations, and the notice points
	// at the log.
	logged, _, code := runCLI(mistakes, "validate", "--format", "github")
	const summaryLine = "24 problems: 16 errors, 6 warnings, 2 information\n"
	plain, rest, ok := strings.Cut(logged, summaryLine)
	plain += summaryLine
	if code != 1 || !ok || rest != "::notice title=beeuni-lsp::6 of 24 findings are not shown as annotations: GitHub shows at most 10 errors, "+
		"10 warnings and 10 notices per step. All 24 are in this step's log above.\n" {
		t.Fatalf("exit %d:\n%s", code, logged)
	}
	summaryFile := filepath.Join(t.TempDir(), "summary.md")
	vars := map[string]string{
		"GITHUB_STEP_SUMMARY": summaryFile, "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "acme/shop",
		"GITHUB_SHA": "0123abc", "GITHUB_WORKSPACE": root, "GITHUB_RUN_ID": "42",
	}
	stdout, stderr, code := runCLIEnv(mistakes, vars, "validate", "--format", "github")
	if code != 1 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	notice := "::notice title=beeuni-lsp::6 of 24 findings are not shown as annotations: GitHub shows at most 10 errors, " +
		"10 warnings and 10 notices per step. All 24 are in the job summary (https://github.com/acme/shop/actions/runs/42).\n"
	if stdout != plain+notice {
		t.Errorf("stdout is not the annotations, then the notice:\n%s\nwant\n%s%s", stdout, plain, notice)
	}
	data, err := os.ReadFile(summaryFile)
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	rows := strings.Count(md, "\n| error |") + strings.Count(md, "\n| warning |") + strings.Count(md, "\n| information |")
	if rows != 24 || !strings.HasPrefix(md, "### beeuni-lsp validate\n\n24 problems: 16 errors, 6 warnings, 2 information\n\n| severity | where | code | message |\n") {
		t.Errorf("job summary with %d rows:\n%s", rows, md)
	}
	want := "| error | [beeuni.yaml:9:15](https://github.com/acme/shop/blob/0123abc/examples/mistakes/beeuni.yaml#L9) | " +
		"[T3](https://github.com/beeuni/beeuni-lsp/blob/main/docs/rules.md#t3) | must be `beeuni:web_search` (the Beeuni tool)"
	if !strings.Contains(md, want) {
		t.Errorf("job summary lacks %q:\n%s", want, md)
	}
	if !strings.Contains(md, "add `show: beeuni:show` under the top-level `tools`") || strings.Contains(md, "<name>") {
		t.Errorf("messages are not escaped for Markdown:\n%s", md)
	}

	// A second step appends to the summary; without GitHub's variables
	// for links, places are plain text.
	stdout, _, _ = runCLIEnv(mistakes, map[string]string{"GITHUB_STEP_SUMMARY": summaryFile}, "validate", "--format", "github")
	if !strings.HasSuffix(stdout, "All 24 are in the job summary.\n") {
		t.Errorf("notice without a run address:\n%s", stdout)
	}
	data, _ = os.ReadFile(summaryFile)
	if !strings.HasPrefix(string(data), md) || !strings.Contains(string(data)[len(md):], "| error | beeuni.yaml:9:15 | [T3](") {
		t.Errorf("second summary:\n%s", data[len(md):])
	}
}

// Under the cap, the output is the annotations and the summary line, as
// before; the job summary still lists every finding.
func TestGitHubJobSummaryUnderTheCap(t *testing.T) {
	for _, ws := range []string{"warnings_only", "clean"} {
		dir := cliWorkspace(t, ws)
		plain, _, _ := runCLI(dir, "validate", "--format", "github")
		summaryFile := filepath.Join(t.TempDir(), "summary.md")
		stdout, _, _ := runCLIEnv(dir, map[string]string{"GITHUB_STEP_SUMMARY": summaryFile}, "validate", "--format", "github")
		if stdout != plain || strings.Contains(stdout, "title=beeuni-lsp") {
			t.Errorf("%s: stdout %q, want %q", ws, stdout, plain)
		}
		data, err := os.ReadFile(summaryFile)
		if err != nil {
			t.Fatal(err)
		}
		if ws == "clean" && string(data) != "### beeuni-lsp validate\n\nNo problems.\n\n" {
			t.Errorf("clean: summary %q", data)
		}
		if ws == "warnings_only" && strings.Count(string(data), "\n| warning |") != 1 {
			t.Errorf("warnings_only: summary %q", data)
		}
	}
}

// The cap's arithmetic: notices past the ninth become plain log lines
// when the final notice is needed, so that it is shown.
func TestHiddenAnnotations(t *testing.T) {
	for _, tc := range []struct {
		errors, warnings, notices, hidden int
	}{
		{10, 10, 10, 0},
		{11, 0, 0, 1},
		{16, 6, 2, 6},
		{0, 12, 9, 2},
		{0, 0, 11, 2},
		{11, 0, 10, 2},
	} {
		counts := map[diag.Severity]int{diag.Error: tc.errors, diag.Warning: tc.warnings, diag.Information: tc.notices}
		if got := hiddenAnnotations(counts); got != tc.hidden {
			t.Errorf("%+v: hidden %d", tc, got)
		}
	}
}

// Over the cap with ten notices or more, the notices past the ninth are
// plain log lines, so that the final notice is the tenth and is shown.
func TestGitHubNoticesOverTheCap(t *testing.T) {
	var fs []finding
	counts := map[diag.Severity]int{}
	for i := 1; i <= 11; i++ {
		fs = append(fs, finding{File: "m.ts", Line: i, Column: 1, EndLine: i, EndColumn: 2, Severity: "information", Code: "M11", Message: "x", sev: diag.Information})
		counts[diag.Information]++
	}
	out, err := githubOutput(env{}, fs, counts)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, "::notice "); n != 10 {
		t.Errorf("%d notices, want 9 findings and the final one:\n%s", n, out)
	}
	if !strings.Contains(out, "\nm.ts:10:1: information: x [M11]\nm.ts:11:1: information: x [M11]\n11 problems: 11 information\n::notice title=beeuni-lsp::2 of 11 findings") {
		t.Errorf("output:\n%s", out)
	}
}
