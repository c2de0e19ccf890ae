package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// tools ls names, after the table, every entry of examples/mistakes the
// session gets no tool from, with why; before, they vanished from the
// table without a word. --json lists them as left_out.
func TestToolsLsSaysWhatItLeftOut(t *testing.T) {
	mistakes := filepath.Join("..", "..", "examples", "mistakes")
	stdout, _, code := runCLI(mistakes, "tools", "ls")
	want := "\nLeft out (sessions get no tool from these entries):\n" +
		"  LookupOrder  A tool name that is not snake_case [T1] in beeuni.yaml\n" +
		"  bash         A harness tool's name declared as a tool [T2] in beeuni.yaml\n" +
		"  crm          A project tool with a `beeuni:` value [T4] in beeuni.yaml\n" +
		"  report       A module path that is not repo-relative or not a .ts/.js module [T5] in beeuni.yaml\n" +
		"  export_csv   A module path that is not repo-relative or not a .ts/.js module [T5] in beeuni.yaml\n" +
		"  weather_now  A tool value that is not a string [T7] in beeuni.yaml\n" +
		"Run `beeuni-lsp validate` for the fix.\n"
	if code != 0 || !strings.HasSuffix(stdout, want) {
		t.Errorf("tools ls examples/mistakes: exit %d\n%s\nwant it to end with\n%s", code, stdout, want)
	}
	stdout, _, _ = runCLI(mistakes, "tools", "ls", "--json")
	var got struct {
		LeftOut []leftOut `json:"left_out"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.LeftOut) != 6 || got.LeftOut[2] != (leftOut{Name: "crm", File: "beeuni.yaml", Code: "T4", Reason: "A project tool with a `beeuni:` value"}) {
		t.Errorf("left_out: %+v", got.LeftOut)
	}
	// A project whose entries all make tools says nothing more.
	stdout, _, _ = runCLI(filepath.Join("..", "..", "examples", "shop"), "tools", "ls")
	if strings.Contains(stdout, "Left out") {
		t.Errorf("examples/shop:\n%s", stdout)
	}
}
