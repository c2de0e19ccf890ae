package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// matcherPattern is the part of a problem matcher's pattern the test reads.
type matcherPattern struct {
	Regexp                                      string
	File, Line, Column, Severity, Message, Code int
}

// loadMatchers reads the GitHub Actions problem matcher and the one the
// VS Code extension contributes.
func loadMatchers(t *testing.T) map[string]matcherPattern {
	t.Helper()
	var gh struct {
		ProblemMatcher []struct {
			Owner   string           `json:"owner"`
			Pattern []matcherPattern `json:"pattern"`
		} `json:"problemMatcher"`
	}
	readJSON(t, filepath.Join("..", "..", ".github", "beeuni-lsp-matcher.json"), &gh)
	var vsc struct {
		Contributes struct {
			ProblemMatchers []struct {
				Name    string         `json:"name"`
				Pattern matcherPattern `json:"pattern"`
			} `json:"problemMatchers"`
		} `json:"contributes"`
	}
	readJSON(t, filepath.Join("..", "..", "editors", "vscode", "package.json"), &vsc)
	if len(gh.ProblemMatcher) != 1 || len(gh.ProblemMatcher[0].Pattern) != 1 || len(vsc.Contributes.ProblemMatchers) != 1 {
		t.Fatalf("want one matcher of one pattern in each file: %+v %+v", gh, vsc)
	}
	return map[string]matcherPattern{
		"github": gh.ProblemMatcher[0].Pattern[0],
		"vscode": vsc.Contributes.ProblemMatchers[0].Pattern,
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// The problem matchers' regular expression, run over real `validate`
// output (a project in a subfolder, errors, warnings, information, hints,
// Japanese text and an emoji), finds every finding with the file, line,
// column, severity, message and code `--json` gives; the summary line is
// not a finding. GitHub's matcher takes errors and warnings only (its
// severities); VS Code's takes all four.
func TestProblemMatchersMatchTheTextOutput(t *testing.T) {
	matchers := loadMatchers(t)
	for _, ws := range []struct{ name, arg string }{{"mistakes", ""}, {"nested", "shop"}, {"spec_example", ""}, {"bad_module", ""}, {"related", ""}} {
		dir := cliWorkspace(t, ws.name)
		args := []string{"validate"}
		if ws.arg != "" {
			args = append(args, ws.arg)
		}
		text, _, _ := runCLI(dir, args...)
		jsonOut, _, _ := runCLI(dir, append(args, "--json")...)
		var want []finding
		if err := json.Unmarshal([]byte(jsonOut), &want); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		for name, m := range matchers {
			re, err := regexp.Compile(m.Regexp)
			if err != nil {
				t.Fatalf("%s matcher: %v", name, err)
			}
			var got []finding
			for _, line := range lines {
				g := re.FindStringSubmatch(line)
				if g == nil {
					continue
				}
				l, _ := strconv.Atoi(g[m.Line])
				c, _ := strconv.Atoi(g[m.Column])
				got = append(got, finding{File: g[m.File], Line: l, Column: c, Severity: g[m.Severity], Message: g[m.Message], Code: g[m.Code]})
			}
			var expect []finding
			for _, f := range want {
				sev := f.Severity
				switch {
				case name == "github" && sev != "error" && sev != "warning":
					continue
				case name == "vscode" && sev == "information":
					sev = "info" // VS Code's name for it
				}
				expect = append(expect, finding{File: f.File, Line: f.Line, Column: f.Column, Severity: sev, Message: f.Message, Code: f.Code})
			}
			if len(got) != len(expect) {
				t.Fatalf("%s/%s: the %s matcher found %d findings, want %d\n%s", ws.name, name, name, len(got), len(expect), text)
			}
			for i := range got {
				if !reflect.DeepEqual(got[i], expect[i]) {
					t.Errorf("%s/%s: line %d read as %+v, want %+v", ws.name, name, i, got[i], expect[i])
				}
			}
		}
	}
}
