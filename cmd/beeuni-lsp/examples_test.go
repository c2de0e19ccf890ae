package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The examples in the repository stay what their READMEs say: the shop is
// clean (module inspection included), the mistakes project reports one
// finding per rule, exactly as recorded.
func TestExampleShopIsClean(t *testing.T) {
	shop := filepath.Join("..", "..", "examples", "shop")
	stdout, stderr, code := runCLI(".", "validate", shop)
	if code != 0 || stdout != "No problems.\n" || stderr != "" {
		t.Errorf("validate examples/shop: exit %d\n%s%s", code, stdout, stderr)
	}
	stdout, _, code = runCLI(".", "tools", "ls", shop)
	if code != 0 || !strings.Contains(stdout, "web_search      beeuni (overridden)  integrations/search/web_search.ts\n") ||
		!strings.Contains(stdout, "crm_note        project              integrations/crm/note.ts\n") ||
		!strings.HasSuffix(stdout, "Removed Beeuni tools: image_search\nAdd `<name>: beeuni:<name>` under `tools:` to get one back.\n") {
		t.Errorf("tools ls examples/shop: exit %d\n%s", code, stdout)
	}
}

func TestExampleMistakes(t *testing.T) {
	mistakes := filepath.Join("..", "..", "examples", "mistakes")
	stdout, _, code := runCLI(mistakes, "validate", "--no-inspect")
	golden := filepath.Join("testdata", "cli", "examples_mistakes.golden")
	if *updateCLI {
		if err := os.WriteFile(golden, []byte(stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if code != 1 || stdout != string(want) {
		t.Errorf("validate --no-inspect examples/mistakes: exit %d\n%s\nwant exit 1 and\n%s", code, stdout, want)
	}
	// Every rule the README lists is there.
	for _, c := range []string{"I2", "I4", "T1", "T2", "T3", "T4", "T5", "T6", "T7", "T9", "T10", "A1", "A2", "A3", "H1", "H2"} {
		if !strings.Contains(stdout, "["+c+"]") {
			t.Errorf("no %s finding in examples/mistakes", c)
		}
	}
	// With module inspection, the module that has no default export is T11,
	// and the agent whose secrets: lacks what its ticket tool reads is A4.
	stdout, _, _ = runCLI(mistakes, "validate")
	if !strings.Contains(stdout, "beeuni.yaml:21:11: error: ") || !strings.Contains(stdout, "[T11]") {
		t.Errorf("validate examples/mistakes: no T11 on broken.ts\n%s", stdout)
	}
	if !strings.Contains(stdout, "beeuni.yaml:31:3: information: agent `triage` can call `ticket`, which reads `context.env.HELPDESK_TOKEN`") {
		t.Errorf("validate examples/mistakes: no A4 on agent triage\n%s", stdout)
	}
}
