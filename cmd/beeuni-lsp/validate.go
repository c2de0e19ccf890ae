package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// finding is one finding as every output format names it: the file
// relative to the working folder, lines and columns 1-based, columns
// counted in characters, the end exclusive. The JSON keys are snake_case,
// as `tools ls --json`'s are.
type finding struct {
	File      string    `json:"file"`
	Line      int       `json:"line"`
	Column    int       `json:"column"`
	EndLine   int       `json:"end_line"`
	EndColumn int       `json:"end_column"`
	Severity  string    `json:"severity"`
	Code      string    `json:"code"`
	Message   string    `json:"message"`
	Related   []related `json:"related,omitempty"`
	sev       diag.Severity
}

// related is a place a finding points to (T9's other file, I6's chain).
type related struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Message   string `json:"message"`
}

// The output formats of validate.
const (
	formatText   = "text"
	formatJSON   = "json"
	formatGitHub = "github"
	formatSARIF  = "sarif"
)

// runValidate implements `beeuni-lsp validate [flags] [PATH]` (exit codes
// in validateCommand).
func runValidate(ctx context.Context, e env, args []string) int {
	opts, help, err := validateCommand.parse(args)
	if help {
		fmt.Fprint(e.stdout, validateCommand.help())
		return 0
	}
	if err != nil {
		return validateCommand.usageError(e, err.Error())
	}
	format := opts.format
	switch {
	case opts.json && format != "" && format != formatJSON:
		return validateCommand.usageError(e, fmt.Sprintf("validate: --json and --format %s disagree", format))
	case opts.json || format == formatJSON:
		format = formatJSON
	case format == "":
		format = formatText
	case format != formatText && format != formatGitHub && format != formatSARIF:
		return validateCommand.usageError(e, fmt.Sprintf("validate: unknown format %q: use text, json, github or sarif", format))
	}
	fsys := vfs.NewDisk()
	p, code := loadProject(ctx, e, fsys, firstOr(opts.positional, ""))
	if code != 0 {
		return code
	}
	found := append([]diag.Finding(nil), p.Findings...)
	linesOf := map[string]*diag.Lines{}
	for _, f := range p.Files {
		linesOf[f.Path] = f.Lines
	}
	bun := ""
	if opts.runtime != "" {
		if format != formatText || opts.noInspect {
			return validateCommand.usageError(e, "validate: --runtime bun prints text beside the static verdicts: drop --json, --format and --no-inspect")
		}
		if bun, code = runtimeBinary(e, opts.runtime); code != 0 {
			return code
		}
	}
	var results map[string]*tsinspect.Result
	if !opts.noInspect {
		// T11 and the modules' own findings (SPEC section 8). A module's
		// findings use its own content for character columns.
		insp := analysis.InspectModules(ctx, p, tsinspect.New(fsys, tsinspect.Options{}))
		results = insp.Results
		for path, r := range insp.Results {
			if r != nil && r.Lines != nil {
				linesOf[path] = r.Lines
			}
		}
		found = append(found, insp.Findings...)
	}
	diag.Sort(found)

	out := make([]finding, 0, len(found))
	counts := map[diag.Severity]int{}
	for _, f := range found {
		counts[f.Severity]++
		out = append(out, toFinding(e, f, linesOf))
	}
	var text string
	switch format {
	case formatJSON:
		text, err = formatJSONFindings(out)
	case formatGitHub:
		text, err = githubOutput(e, out, counts)
	case formatSARIF:
		text, err = formatSARIFLog(out)
	default:
		text = textOutput(e, styleFor(e, opts.color, opts.format), out, counts)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "beeuni-lsp: %v\n", err)
		return 2
	}
	fmt.Fprint(e.stdout, text)
	tooManyWarnings := opts.maxWarnings >= 0 && counts[diag.Warning] > opts.maxWarnings
	if tooManyWarnings {
		fmt.Fprintf(e.stderr, "beeuni-lsp: more warnings (%d) than --max-warnings %d allows\n", counts[diag.Warning], opts.maxWarnings)
	}
	if bun != "" {
		disagree, code := reportRuntime(ctx, e, p, results, bun)
		if code != 0 {
			return code
		}
		if disagree > 0 {
			return 1
		}
	}
	if counts[diag.Error] > 0 || tooManyWarnings {
		return 1
	}
	return 0
}

func firstOr(list []string, def string) string {
	if len(list) > 0 {
		return list[0]
	}
	return def
}

// toFinding converts byte positions to 1-based lines and columns counted
// in characters. A file whose content is unknown (a module the engine only
// listed) keeps byte columns; its findings sit at the start of the file.
func toFinding(e env, f diag.Finding, linesOf map[string]*diag.Lines) finding {
	start, end := position(f.Range, linesOf[f.File])
	out := finding{
		File: relPath(e, f.File), Line: start.Line + 1, Column: start.Col + 1,
		EndLine: end.Line + 1, EndColumn: end.Col + 1,
		Severity: f.Severity.String(), Code: f.Code, Message: f.Message, sev: f.Severity,
	}
	for _, r := range f.Related {
		rs, re := position(r.Range, linesOf[r.File])
		out.Related = append(out.Related, related{
			File: relPath(e, r.File), Line: rs.Line + 1, Column: rs.Col + 1,
			EndLine: re.Line + 1, EndColumn: re.Col + 1, Message: r.Message,
		})
	}
	return out
}

// position returns a range's ends with columns counted in characters when
// the file's lines are known.
func position(r diag.Range, lines *diag.Lines) (start, end diag.Pos) {
	start, end = r.Start, r.End
	if lines != nil {
		start.Col = analysis.CharColumn(lines, r.Start)
		end.Col = analysis.CharColumn(lines, r.End)
	}
	return start, end
}

// summary is the last line of `validate`: "No problems." or, for example,
// "3 problems: 2 errors, 1 warning".
func summary(counts map[diag.Severity]int) string {
	total := 0
	var parts []string
	for _, s := range []struct {
		sev          diag.Severity
		one, several string
	}{
		{diag.Error, "error", "errors"},
		{diag.Warning, "warning", "warnings"},
		{diag.Information, "information", "information"},
		{diag.Hint, "hint", "hints"},
	} {
		n := counts[s.sev]
		total += n
		if n == 0 {
			continue
		}
		word := s.several
		if n == 1 {
			word = s.one
		}
		parts = append(parts, fmt.Sprintf("%d %s", n, word))
	}
	if total == 0 {
		return "No problems."
	}
	noun := "problems"
	if total == 1 {
		noun = "problem"
	}
	return fmt.Sprintf("%d %s: %s", total, noun, strings.Join(parts, ", "))
}
