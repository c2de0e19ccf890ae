package analysis

import "github.com/beeuni/beeuni-lsp/internal/diag"

// T8: a project that has a `tools:` key but lists no Beeuni tool. It reads
// every declaration of the project, so it runs on every load.

const CodeNoBeeuni = "T8"

var ruleNoBeeuni = &Rule{Code: CodeNoBeeuni, Severity: diag.Warning, Reads: ReadsManifest, Fixes: []FixKind{FixAddBeeuniTools}}

// msgNoBeeuni is T8 (exact: the product page's text).
func msgNoBeeuni() string {
	return "Sessions of this project get no Beeuni tool (web_search, image_search, scrape_webpage, memory, show). Add `<name>: beeuni:<name>` to keep one."
}

// checkNoBeeuni reports T8 on the first `tools:` key. A Beeuni tool declared
// with any value counts as listed.
func checkNoBeeuni(s *toolSet) {
	if s.model.ToolsKey && len(s.model.Removed) == len(beeuniTools) {
		s.report(ruleNoBeeuni, s.firstToolsIn, s.firstToolsKey, msgNoBeeuni(), nil)
	}
}
