package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/beeuni/beeuni-lsp/internal/ruledoc"
)

// sarifSchema compiles the vendored SARIF 2.1.0 schema, formats asserted
// (`uri`, `uri-reference`, `date-time`).
func compileSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("testdata", "sarif", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	sch, err := c.Compile(path)
	if err != nil {
		t.Fatalf("compile the SARIF schema: %v", err)
	}
	return sch
}

// Every golden workspace's `validate --format sarif` is valid SARIF 2.1.0,
// with the parts GitHub code scanning reads: a rule per reported code with
// its helpUri in docs/rules.md, relative URIs under a base id, 1-based
// regions with their ends, related locations for T9 and I6.
func TestSARIFValidatesAgainstTheSchema(t *testing.T) {
	sch := compileSARIFSchema(t)
	for _, c := range cliCases {
		t.Run(c.workspace, func(t *testing.T) {
			dir := cliWorkspace(t, c.workspace)
			args := []string{"validate", "--format", "sarif"}
			if c.workspace == "nested" {
				args = append(args, "shop")
			}
			stdout, stderr, code := runCLI(dir, args...)
			if code == 2 {
				t.Fatalf("exit 2: %s", stderr)
			}
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(stdout))
			if err != nil {
				t.Fatalf("not JSON: %v\n%s", err, stdout)
			}
			if err := sch.Validate(doc); err != nil {
				t.Fatalf("not valid SARIF 2.1.0: %v\n%s", err, stdout)
			}
			var log sarifLog
			if err := json.Unmarshal([]byte(stdout), &log); err != nil {
				t.Fatal(err)
			}
			run := log.Runs[0]
			for _, r := range run.Tool.Driver.Rules {
				if want := ruledoc.DocURL + "#" + strings.ToLower(r.ID); r.HelpURI != want || r.ShortDescription.Text == "" {
					t.Errorf("rule %s: helpUri %q, description %q", r.ID, r.HelpURI, r.ShortDescription.Text)
				}
			}
			for _, res := range run.Results {
				if run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
					t.Errorf("result %s points at rule %d", res.RuleID, res.RuleIndex)
				}
				for _, l := range append(res.Locations, res.RelatedLocations...) {
					p := l.PhysicalLocation
					if p.ArtifactLocation.URIBaseID != sarifBaseID || strings.HasPrefix(p.ArtifactLocation.URI, "/") || strings.Contains(p.ArtifactLocation.URI, dir) {
						t.Errorf("%s: artifact %+v is not relative to a base", res.RuleID, p.ArtifactLocation)
					}
					if r := p.Region; r.StartLine < 1 || r.StartColumn < 1 || r.EndLine < r.StartLine || r.EndLine == r.StartLine && r.EndColumn < r.StartColumn {
						t.Errorf("%s: region %+v", res.RuleID, r)
					}
				}
				if (res.RuleID == "T9" || res.RuleID == "I6") && len(res.RelatedLocations) == 0 {
					t.Errorf("%s without relatedLocations", res.RuleID)
				}
			}
		})
	}
}

// The schema check itself catches what GitHub would refuse.
func TestSARIFSchemaRejectsABadLog(t *testing.T) {
	sch := compileSARIFSchema(t)
	data, err := os.ReadFile(filepath.Join("testdata", "cli", "related.golden"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "$ beeuni-lsp validate --format sarif\nexit 1\n-- stdout --\n")
	if start < 0 {
		t.Fatal("no SARIF output in related.golden")
	}
	text = text[strings.Index(text[start:], "{")+start : strings.LastIndex(text, "}")+1]
	for _, bad := range [][2]string{
		{`"level": "error"`, `"level": "information"`},
		{`"startLine": 4`, `"startLine": 0`},
		{`"version": "2.1.0"`, `"version": "2.1"`},
	} {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(strings.Replace(text, bad[0], bad[1], 1)))
		if err != nil {
			t.Fatal(err)
		}
		if sch.Validate(doc) == nil {
			t.Errorf("the schema accepts a log with %s", bad[1])
		}
	}
}
