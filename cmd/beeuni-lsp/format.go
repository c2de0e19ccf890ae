package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
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
