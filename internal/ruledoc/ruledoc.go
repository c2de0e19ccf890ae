// Package ruledoc is the catalog of rule codes as users read them: each
// code's one-line summary, its default severity and the address of its
// section in docs/rules.md. The server links every diagnostic to that
// section (codeDescription.href) and the CLI's SARIF output lists the
// catalog as its rules (helpUri). The rules themselves live in
// internal/analysis and internal/tsinspect.
package ruledoc

import (
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// DocURL is the published page of docs/rules.md.
const DocURL = "https://github.com/beeuni/beeuni-lsp/blob/main/docs/rules.md"

// Rule is one code of the catalog.
type Rule struct {
	Code    string
	Summary string        // one line: what the rule catches
	Level   diag.Severity // the default severity (some rules report several)
}

// rules lists every code in the order of docs/rules.md.
var rules = []Rule{
	{"Y1", "YAML syntax error, or a second YAML document in a manifest", diag.Error},
	{"Y2", "A manifest that is not a mapping", diag.Error},
	{"I1", "`imports:` that is not a list of strings", diag.Error},
	{"I2", "An import path that is not repo-relative or leaves the repository", diag.Error},
	{"I3", "An import that is not a .yaml or .yml file", diag.Error},
	{"I4", "An imported file that does not exist or cannot be read", diag.Error},
	{"I5", "The same import listed twice", diag.Error},
	{"I6", "An import cycle", diag.Error},
	{"T1", "A tool name that is not snake_case", diag.Error},
	{"T2", "A harness tool's name declared as a tool", diag.Error},
	{"T3", "A Beeuni tool with a wrong `beeuni:` value", diag.Error},
	{"T4", "A project tool with a `beeuni:` value", diag.Error},
	{"T5", "A module path that is not repo-relative or not a .ts/.js module", diag.Error},
	{"T6", "A tool module that does not exist", diag.Error},
	{"T7", "A tool value that is not a string", diag.Error},
	{"T8", "A `tools:` key that lists no Beeuni tool", diag.Warning},
	{"T9", "A tool declared in two files", diag.Error},
	{"T10", "The same key twice in one mapping", diag.Error},
	{"T11", "A tool module that will not load: the daemon skips it", diag.Error},
	{"A1", "An agent names a tool that does not exist", diag.Warning},
	{"A2", "An agent names a Beeuni tool the project does not load", diag.Warning},
	{"A3", "`agents.<name>.tools` of an unknown shape", diag.Error},
	{"A4", "An agent can call a tool that reads a secret its `secrets:` list does not grant", diag.Information},
	{"H1", "A harness-folder module that shadows a hosted tool", diag.Warning},
	{"H2", "A harness-folder module that runs only on the standard harness", diag.Information},
	{"M1", "A syntax error in a tool module", diag.Error},
	{"M2", "An import of a tool module that will not resolve", diag.Error},
	{"M3", "A tool module that imports a harness package", diag.Error},
	{"M4", "No default export, or not a plain object", diag.Error},
	{"M5", "`description` missing, not a string or empty", diag.Error},
	{"M6", "`parameters` missing or not an object schema", diag.Error},
	{"M7", "`required` names a property `properties` lacks", diag.Warning},
	{"M8", "A parameter property without a description", diag.Hint},
	{"M9", "`execute` missing or not a function", diag.Error},
	{"M10", "The standard harness's old `tool({ description, args, execute })` shape", diag.Error},
	{"M11", "A value that can only be known by running the module", diag.Information},
	{"M12", "A module too large, binary or pathological to inspect", diag.Warning},
	{"M13", "A package only a git-ignored node_modules provides", diag.Warning},
	{"M14", "The module throws when it loads", diag.Error},
	{"M15", "A read of process.env: a secret changed after the box started is in context.env", diag.Hint},
	{"M16", "fetch in execute without the turn's signal", diag.Hint},
	{"M17", "execute reads an argument the schema does not define", diag.Warning},
	{"M18", "A required property execute never reads", diag.Hint},
}

// helpURIs is each code's HelpURI, made once.
var helpURIs = func() map[string]string {
	m := make(map[string]string, len(rules))
	for _, r := range rules {
		m[r.Code] = DocURL + "#" + strings.ToLower(r.Code)
	}
	return m
}()

// All returns the catalog, in the order of docs/rules.md.
func All() []Rule { return append([]Rule(nil), rules...) }

// Lookup returns the rule of a code.
func Lookup(code string) (Rule, bool) {
	for _, r := range rules {
		if r.Code == code {
			return r, true
		}
	}
	return Rule{}, false
}

// HelpURI returns the address of a code's section in docs/rules.md (the
// section's heading is the code, so its anchor is the code in lower case),
// or "" for a code the catalog does not hold.
func HelpURI(code string) string { return helpURIs[code] }
