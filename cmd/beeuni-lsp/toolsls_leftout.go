package main

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/ruledoc"
)

// leftOut is an entry of `tools:` from which sessions get no tool at
// all, so that the table of `tools ls` cannot list it: an invalid name
// (T1), a harness tool's name (T2), a `beeuni:` value on a project tool's
// name (T4), a bad module path (T5), a value that is not a string (T7).
type leftOut struct {
	Name   string `json:"name"`
	File   string `json:"file"` // repository-relative
	Code   string `json:"code"`
	Reason string `json:"reason"` // the code's summary in docs/rules.md
}

// toolsLsJSON is `tools ls --json`: the table's object and the entries it
// leaves out.
type toolsLsJSON struct {
	analysis.ToolsList
	LeftOut []leftOut `json:"left_out"` // empty, never null
}

// leftOutCodes are the error findings on an entry that drop it from the
// session's tool set.
var leftOutCodes = map[string]bool{
	analysis.CodeName: true, analysis.CodeHarnessName: true, analysis.CodeProjectBeeuni: true,
	analysis.CodePath: true, analysis.CodeNotString: true,
}

// leftOutEntries returns the entries the table leaves out, in the order of
// findings (sorted by file and position), one per file and name: an entry
// whose name the session's tool set holds from that file is listed.
func leftOutEntries(p *analysis.Project, findings []diag.Finding) []leftOut {
	out := []leftOut{}
	seen := map[[2]string]bool{}
	for _, f := range findings {
		name := f.Data[analysis.DataName]
		if !leftOutCodes[f.Code] || f.Severity != diag.Error || name == "" || seen[[2]string{f.File, name}] {
			continue
		}
		if p.Model != nil {
			if t, ok := p.Model.Tool(name); ok && t.File == f.File {
				continue
			}
		}
		seen[[2]string{f.File, name}] = true
		file := p.Rel(f.File)
		rule, _ := ruledoc.Lookup(f.Code)
		out = append(out, leftOut{Name: name, File: file, Code: f.Code, Reason: rule.Summary})
	}
	return out
}

// formatLeftOut is the block `tools ls` prints after the table for the
// entries it leaves out, "" when there are none.
func formatLeftOut(left []leftOut) string {
	if len(left) == 0 {
		return ""
	}
	width := 0
	for _, l := range left {
		width = max(width, utf8.RuneCountInString(l.Name))
	}
	var b strings.Builder
	b.WriteString("\nLeft out (sessions get no tool from these entries):\n")
	for _, l := range left {
		fmt.Fprintf(&b, "  %s%s  %s [%s] in %s\n", l.Name, strings.Repeat(" ", width-utf8.RuneCountInString(l.Name)), l.Reason, l.Code, l.File)
	}
	b.WriteString("Run `beeuni-lsp validate` for the fix.\n")
	return b.String()
}
