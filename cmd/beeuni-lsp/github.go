package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/ruledoc"
)

// annotationCap is how many annotations of each level (error, warning,
// notice) GitHub shows for one step; the runner drops the rest without a
// word, though the workflow commands stay in the step's log.
const annotationCap = 10

// githubOutput is `validate --format github`: one workflow command per
// finding, the summary line, and, when GitHub would drop some annotations
// over its cap, one final notice saying how many and where they all are.
// With $GITHUB_STEP_SUMMARY set, every finding is also appended to the
// job summary as a Markdown table (jobSummary).
func githubOutput(e env, fs []finding, counts map[diag.Severity]int) (string, error) {
	hidden := hiddenAnnotations(counts)
	// The final notice must itself be shown: when it is needed, notices
	// past the cap's last but one become plain log lines.
	noticeSlots := -1
	if hidden > 0 {
		noticeSlots = annotationCap - 1
	}
	var b strings.Builder
	for _, f := range fs {
		if githubLevel(f.sev) == "notice" {
			if noticeSlots == 0 {
				fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]\n", f.File, f.Line, f.Column, f.Severity, f.Message, f.Code)
				continue
			}
			noticeSlots--
		}
		b.WriteString(githubCommand(f))
	}
	b.WriteString(summary(counts) + "\n")
	summaryFile := e.variable("GITHUB_STEP_SUMMARY")
	if summaryFile != "" {
		if err := appendFile(summaryFile, jobSummary(e, fs, counts)); err != nil {
			return "", fmt.Errorf("write the job summary ($GITHUB_STEP_SUMMARY): %w", err)
		}
	}
	if hidden > 0 {
		where := "this step's log above"
		if summaryFile != "" {
			where = "the job summary"
			if run := runURL(e); run != "" {
				where += " (" + run + ")"
			}
		}
		fmt.Fprintf(&b, "::notice title=beeuni-lsp::%s", escapeData(fmt.Sprintf(
			"%d of %d findings are not shown as annotations: GitHub shows at most %d errors, %d warnings and %d notices per step. All %d are in %s.",
			hidden, len(fs), annotationCap, annotationCap, annotationCap, len(fs), where)))
		b.WriteString("\n")
	}
	return b.String(), nil
}

// hiddenAnnotations is how many findings GitHub would not show as
// annotations; when there are any, one slot of the notices goes to the
// final notice that says so.
func hiddenAnnotations(counts map[diag.Severity]int) int {
	over := func(n, slots int) int { return max(0, n-slots) }
	errors, warnings := counts[diag.Error], counts[diag.Warning]
	notices := counts[diag.Information] + counts[diag.Hint]
	hidden := over(errors, annotationCap) + over(warnings, annotationCap) + over(notices, annotationCap)
	if hidden > 0 {
		hidden = over(errors, annotationCap) + over(warnings, annotationCap) + over(notices, annotationCap-1)
	}
	return hidden
}

// githubCommand is one finding as a workflow command, which the runner
// shows as an annotation on the file and line.
func githubCommand(f finding) string {
	return fmt.Sprintf("::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
		githubLevel(f.sev), escapeProperty(f.File), f.Line, f.Column, f.EndLine, f.EndColumn,
		escapeProperty(f.Code), escapeData(f.Message))
}

// jobSummary is every finding as a Markdown table for the job summary:
// severity, the place (a link to the line at the commit when GitHub's
// variables name it), the code (a link to its section of docs/rules.md)
// and the message.
func jobSummary(e env, fs []finding, counts map[diag.Severity]int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### beeuni-lsp validate\n\n%s\n\n", markdownCell(summary(counts)))
	if len(fs) == 0 {
		return b.String()
	}
	b.WriteString("| severity | where | code | message |\n| --- | --- | --- | --- |\n")
	for _, f := range fs {
		where := markdownCell(fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Column))
		if link := lineURL(e, f); link != "" {
			where = "[" + where + "](" + link + ")"
		}
		code := markdownCell(f.Code)
		if help := ruledoc.HelpURI(f.Code); help != "" {
			code = "[" + code + "](" + help + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", f.Severity, where, code, markdownCell(f.Message))
	}
	b.WriteString("\n")
	return b.String()
}

// markdownCell escapes text for a table cell: `|` would end the cell, a
// line break the row, and `<name>` would read as an HTML tag.
func markdownCell(s string) string {
	return strings.NewReplacer("\\", "\\\\", "|", "\\|", "<", "&lt;", ">", "&gt;", "\r\n", "<br>", "\n", "<br>").Replace(s)
}

// lineURL links a finding's lines at the commit the workflow runs on
// ($GITHUB_SERVER_URL/$GITHUB_REPOSITORY/blob/$GITHUB_SHA/PATH#Ln-Lm), the
// path taken relative to $GITHUB_WORKSPACE (the working folder when
// unset); "" when a variable is missing or the file is outside the
// workspace.
func lineURL(e env, f finding) string {
	server, repo, sha := e.variable("GITHUB_SERVER_URL"), e.variable("GITHUB_REPOSITORY"), e.variable("GITHUB_SHA")
	if server == "" || repo == "" || sha == "" {
		return ""
	}
	rel := f.File
	if ws := e.variable("GITHUB_WORKSPACE"); ws != "" {
		r, err := filepath.Rel(ws, filepath.Join(e.dir, filepath.FromSlash(f.File)))
		if err != nil {
			return ""
		}
		rel = filepath.ToSlash(r)
	}
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return ""
	}
	anchor := fmt.Sprintf("#L%d", f.Line)
	if f.EndLine > f.Line {
		anchor += fmt.Sprintf("-L%d", f.EndLine)
	}
	return strings.TrimSuffix(server, "/") + "/" + repo + "/blob/" + sha + "/" + (&url.URL{Path: rel}).EscapedPath() + anchor
}

// runURL is the address of the workflow run, "" when GitHub's variables
// do not name it.
func runURL(e env) string {
	server, repo, id := e.variable("GITHUB_SERVER_URL"), e.variable("GITHUB_REPOSITORY"), e.variable("GITHUB_RUN_ID")
	if server == "" || repo == "" || id == "" {
		return ""
	}
	return strings.TrimSuffix(server, "/") + "/" + repo + "/actions/runs/" + id
}

// appendFile appends text to the file at path, creating it.
func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
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
