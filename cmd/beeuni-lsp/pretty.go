package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/ruledoc"
)

// The values of validate's --color.
const (
	colorAuto   = "auto"
	colorAlways = "always"
	colorNever  = "never"
)

// textStyle is how validate's text format looks: rich shows each finding
// with its source line, a caret under its range and the address of its
// rule's section of docs/rules.md, as rustc and ruff do; color adds ANSI
// colours. Neither, the format is one line per finding, which problem
// matchers read.
type textStyle struct {
	rich, color bool
}

// styleFor decides the text format's style from --color, --format and
// where stdout goes: one line per finding when --format text is given (a
// VS Code task runs in a terminal, and its problem matcher reads lines);
// else rich on a terminal outside CI ($CI unset) or with --color always,
// and coloured with --color always, or on that terminal when $NO_COLOR is
// unset and $TERM is not dumb.
func styleFor(e env, when, format string) textStyle {
	person := e.stdoutTerminal && e.variable("CI") == ""
	switch {
	case format == formatText:
		return textStyle{}
	case when == colorAlways:
		return textStyle{rich: true, color: true}
	case when == colorNever:
		return textStyle{rich: person}
	}
	return textStyle{rich: person, color: person && e.variable("NO_COLOR") == "" && e.variable("TERM") != "dumb"}
}

// ANSI styles.
const (
	ansiReset = "\x1b[0m"
	ansiBold  = "\x1b[1m"
	ansiBlue  = "\x1b[1;34m"
)

// severityColor is a severity's colour, as rustc paints its levels.
func severityColor(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "\x1b[1;31m"
	case diag.Warning:
		return "\x1b[1;33m"
	case diag.Information:
		return "\x1b[1;36m"
	}
	return "\x1b[1;32m"
}

// textOutput is validate's text format: one line per finding, or with
// style.rich each finding as a block, then the summary line.
func textOutput(e env, style textStyle, fs []finding, counts map[diag.Severity]int) string {
	if !style.rich {
		return formatTextFindings(fs) + summary(counts) + "\n"
	}
	paint := func(code, s string) string {
		if !style.color {
			return s
		}
		return code + s + ansiReset
	}
	src := sourceLines{e: e, files: map[string][]string{}}
	var b strings.Builder
	for _, f := range fs {
		sev := severityColor(f.sev)
		fmt.Fprintf(&b, "%s%s\n", paint(sev, f.Severity+"["+f.Code+"]"), paint(ansiBold, ": "+f.Message))
		line, ok := src.line(f.File, f.Line)
		gutter := strings.Repeat(" ", len(strconv.Itoa(f.Line)))
		fmt.Fprintf(&b, "%s%s %s:%d:%d\n", gutter, paint(ansiBlue, "-->"), f.File, f.Line, f.Column)
		if ok {
			runes := []rune(line)
			start := min(max(f.Column-1, 0), len(runes))
			width := len(runes) - start
			if f.EndLine == f.Line {
				width = min(f.EndColumn-f.Column, width)
			}
			fmt.Fprintf(&b, "%s %s\n", gutter, paint(ansiBlue, "|"))
			fmt.Fprintf(&b, "%s %s %s\n", paint(ansiBlue, strconv.Itoa(f.Line)), paint(ansiBlue, "|"), line)
			fmt.Fprintf(&b, "%s %s %s%s\n", gutter, paint(ansiBlue, "|"), strings.Repeat(" ", start), paint(sev, strings.Repeat("^", max(width, 1))))
		}
		for _, r := range f.Related {
			fmt.Fprintf(&b, "%s %s %s:%d:%d: %s\n", gutter, paint(ansiBlue, "= related:"), r.File, r.Line, r.Column, r.Message)
		}
		if help := ruledoc.HelpURI(f.Code); help != "" {
			fmt.Fprintf(&b, "%s %s %s\n", gutter, paint(ansiBlue, "= docs:"), help)
		}
		b.WriteString("\n")
	}
	b.WriteString(paint(ansiBold, summary(counts)) + "\n")
	return b.String()
}

// sourceLines reads the lines of the files findings name, each file once.
type sourceLines struct {
	e     env
	files map[string][]string
}

// line returns line n (1-based) of file (a path as findings name it), its
// tabs as one space each and other control characters as U+FFFD, so that
// the caret's column is the finding's and the file cannot drive the
// terminal; false when the file cannot be read or is shorter.
func (s sourceLines) line(file string, n int) (string, bool) {
	lines, seen := s.files[file]
	if !seen {
		p := filepath.FromSlash(file)
		if !filepath.IsAbs(p) {
			p = filepath.Join(s.e.dir, p)
		}
		if data, err := os.ReadFile(p); err == nil {
			lines = strings.Split(string(data), "\n")
		}
		s.files[file] = lines
	}
	if n < 1 || n > len(lines) {
		return "", false
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case unicode.IsControl(r):
			return unicode.ReplacementChar
		}
		return r
	}, strings.TrimSuffix(lines[n-1], "\r")), true
}
