package analysis

import (
	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// Y1 and Y2: a manifest is one YAML document whose top level is a mapping.
// Both read one file and are checked when it is parsed (parse.go places
// yaml.v3's syntax errors exactly; the chunked parse falls back to the full
// parse for any chunk that does not parse), so they are kept with the parse.

const (
	CodeSyntax = "Y1" // YAML syntax error, or more than one document
	CodeShape  = "Y2" // a manifest that is not a mapping
)

var (
	ruleSyntax = &Rule{Code: CodeSyntax, Severity: diag.Error, Reads: ReadsFile}
	ruleShape  = &Rule{Code: CodeShape, Severity: diag.Error, Reads: ReadsFile}
)

func msgSyntax(reason string) string { return "YAML syntax error: " + reason }

func msgSecondDocument() string {
	return "a manifest holds one YAML document: remove this `---` and what follows, or move it to an imported file"
}

func msgNotMapping(kind string) string {
	return "a manifest must be a mapping of keys such as `tools:`, `agents:` and `imports:`, not " + kind
}

// checkShape reports a top level that is not a mapping (Y2), from the
// parse's tree.
func (p *parsed) checkShape() {
	n := p.tree.top
	if n == nil || n.Kind == yaml.MappingNode {
		return
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return // `~` or `null`: nothing declared
	}
	p.findings = append(p.findings, ruleShape.finding(p.path, p.pos.nodeRange(n), msgNotMapping(kindName(n)), nil, nil))
}
