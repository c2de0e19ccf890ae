package ruledoc

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
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

// The catalog holds every code the engine and the inspector define.
func TestCatalogHoldsEveryCode(t *testing.T) {
	re := regexp.MustCompile(`Code\w*\s*=\s*"([A-Z][0-9]+)"`)
	var files []string
	for _, pkg := range []string{"analysis", "tsinspect"} {
		found, err := filepath.Glob(filepath.Join("..", pkg, "*.go"))
		if err != nil || len(found) == 0 {
			t.Fatalf("no Go files in %s: %v", pkg, err)
		}
		for _, f := range found {
			if !strings.HasSuffix(f, "_test.go") {
				files = append(files, f)
			}
		}
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			if _, ok := Lookup(m[1]); !ok {
				t.Errorf("%s defines %s, which the catalog lacks", file, m[1])
			}
		}
	}
}
