package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// formatTextFindings is validate's default output: one line per finding,
// `path:line:column: severity: message [code]`.
func formatTextFindings(fs []finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]\n", f.File, f.Line, f.Column, f.Severity, f.Message, f.Code)
	}
	return b.String()
}

// formatJSONFindings is `validate --format json`: an array, `[]` when clean.
func formatJSONFindings(fs []finding) (string, error) { return encodeJSON(fs) }

// encodeJSON is the CLI's JSON: indented by two spaces, `<`, `>` and `&`
// as they are (messages quote `<name>`), one final newline.
func encodeJSON(v any) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return "", fmt.Errorf("encode JSON: %w", err)
	}
	return b.String(), nil
}

// formatGitHubFindings is `validate --format github`: one GitHub Actions
// workflow command per finding, which the runner shows as an annotation on
// the file and line.
func formatGitHubFindings(fs []finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
			githubLevel(f.sev), escapeProperty(f.File), f.Line, f.Column, f.EndLine, f.EndColumn,
			escapeProperty(f.Code), escapeData(f.Message))
	}
	return b.String()
}

// githubLevel maps a severity to a workflow command: information and
// hints are notices.
func githubLevel(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	}
	return "notice"
}

// escapeData escapes a workflow command's message as the runner requires.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value: the message's
// escapes, and `:` and `,`, which end a property.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
