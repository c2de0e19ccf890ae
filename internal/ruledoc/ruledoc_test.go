package ruledoc

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

// docs/rules.md has exactly one `## CODE` section per code of the catalog,
// in the catalog's order, each opening with the catalog's summary, so that
// every HelpURI lands on its section.
func TestRulesPageHasASectionPerCode(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	var headings []string
	sections := map[string]string{}
	for _, part := range strings.Split("\n"+string(data), "\n## ")[1:] {
		head, body, _ := strings.Cut(part, "\n")
		headings = append(headings, head)
		sections[head] = body
	}
	var codes []string
	for _, r := range All() {
		codes = append(codes, r.Code)
		if !strings.Contains(sections[r.Code], "**"+r.Summary+"**") {
			t.Errorf("section %s does not open with the summary %q", r.Code, r.Summary)
		}
		if want := DocURL + "#" + strings.ToLower(r.Code); HelpURI(r.Code) != want {
			t.Errorf("HelpURI(%s) = %q, want %q", r.Code, HelpURI(r.Code), want)
		}
	}
	if !slices.Equal(headings, codes) {
		t.Errorf("sections %v, want %v", headings, codes)
	}
	if HelpURI("X9") != "" {
		t.Error("HelpURI of an unknown code")
	}
}

// The catalog holds every rule the engine registers, at the rule's default
// severity, and every code the inspector defines.
func TestCatalogHoldsEveryCode(t *testing.T) {
	rules := analysis.Rules()
	if len(rules) == 0 {
		t.Fatal("the engine registers no rule")
	}
	for _, r := range rules {
		doc, ok := Lookup(r.Code)
		if !ok {
			t.Errorf("the engine registers %s, which the catalog lacks", r.Code)
			continue
		}
		if doc.Level != r.Severity {
			t.Errorf("%s: the catalog's level is %v, the rule's severity %v", r.Code, doc.Level, r.Severity)
		}
	}
	re := regexp.MustCompile(`Code\w*\s*=\s*"([A-Z][0-9]+)"`)
	files, err := filepath.Glob(filepath.Join("..", "tsinspect", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	inspector := map[string]bool{}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			inspector[m[1]] = true
			if _, ok := Lookup(m[1]); !ok {
				t.Errorf("%s defines %s, which the catalog lacks", file, m[1])
			}
		}
	}
	// Every code of the catalog is a rule of the engine or of the
	// inspector.
	for _, doc := range All() {
		if _, ok := analysis.RuleOf(doc.Code); !ok && !inspector[doc.Code] {
			t.Errorf("the catalog lists %s, which no package defines", doc.Code)
		}
	}
}
