package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// jsonFinding is one element of `validate --json`.
type jsonFinding struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Severity  string `json:"severity"`
	Code      string `json:"code"`
	Message   string `json:"message"`
}

// runValidate implements `beeuni-lsp validate [--json] [--no-inspect] [DIR]`.
// Exit 0: no error (warnings allowed); 1: at least one error; 2: it cannot
// run (bad usage, no beeuni.yaml, unreadable folder).
func runValidate(ctx context.Context, e env, args []string) int {
	args, runtime, code := takeRuntimeFlag(e, args) // runtime.go
	if code != 0 {
		return code
	}
	opts, code := parseCommandArgs(e, "validate", args, map[string]bool{"json": true, "no-inspect": true})
	if code != 0 {
		return code
	}
	fsys := vfs.NewDisk()
	p, code := loadProject(ctx, e, fsys, opts.dir)
	if code != 0 {
		return code
	}
	findings := append([]diag.Finding(nil), p.Findings...)
	linesOf := map[string]*diag.Lines{}
	for _, f := range p.Files {
		linesOf[f.Path] = f.Lines
	}
	if runtime != "" && (opts.flags["json"] || opts.flags["no-inspect"]) {
		return usageError(e, "validate: --runtime bun prints text beside the static verdicts: drop --json and --no-inspect")
	}
	var results map[string]*tsinspect.Result
	if !opts.flags["no-inspect"] {
		// T11 and the modules' own findings (SPEC section 8). A module's
		// findings use its own content for character columns.
		insp := analysis.InspectModules(ctx, p, tsinspect.New(fsys, tsinspect.Options{}))
		results = insp.Results
		for path, r := range insp.Results {
			if r != nil && r.Lines != nil {
				linesOf[path] = r.Lines
			}
		}
		findings = append(findings, insp.Findings...)
	}
	diag.Sort(findings)

	out := make([]jsonFinding, 0, len(findings))
	counts := map[diag.Severity]int{}
	for _, f := range findings {
		counts[f.Severity]++
		out = append(out, toJSONFinding(p, f, linesOf[f.File]))
	}
	if opts.flags["json"] {
		data, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			fmt.Fprintf(e.stderr, "beeuni-lsp: %v\n", err)
			return 2
		}
		fmt.Fprintf(e.stdout, "%s\n", data)
	} else {
		var b strings.Builder
		for _, j := range out {
			fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]\n", j.File, j.Line, j.Column, j.Severity, j.Message, j.Code)
		}
		b.WriteString(summary(counts))
		b.WriteByte('\n')
		fmt.Fprint(e.stdout, b.String())
	}
	if runtime != "" {
		disagree, code := reportRuntime(ctx, e, p, results, runtime)
		if code != 0 {
			return code
		}
		if disagree > 0 {
			return 1
		}
	}
	if counts[diag.Error] > 0 {
		return 1
	}
	return 0
}

// toJSONFinding converts byte positions to 1-based lines and columns counted
// in characters. A file whose content is unknown (a module the engine only
// listed) keeps byte columns; its findings sit at the start of the file.
func toJSONFinding(p *analysis.Project, f diag.Finding, lines *diag.Lines) jsonFinding {
	col := func(pos diag.Pos) int {
		if lines == nil {
			return pos.Col + 1
		}
		return analysis.CharColumn(lines, pos) + 1
	}
	return jsonFinding{
		File: p.Rel(f.File), Line: f.Range.Start.Line + 1, Column: col(f.Range.Start),
		EndLine: f.Range.End.Line + 1, EndColumn: col(f.Range.End),
		Severity: f.Severity.String(), Code: f.Code, Message: f.Message,
	}
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

// commandArgs is a parsed command line: boolean flags and at most one DIR.
type commandArgs struct {
	flags map[string]bool
	dir   string
}

// parseCommandArgs accepts --flag or -flag for the allowed flags, `--` to
// end flags, and one optional DIR (relative to the working folder). Anything
// else is a usage error (exit 2).
func parseCommandArgs(e env, command string, args []string, allowed map[string]bool) (commandArgs, int) {
	out := commandArgs{flags: map[string]bool{}}
	var dirs []string
	flagsDone := false
	for _, a := range args {
		if !flagsDone && a == "--" {
			flagsDone = true
			continue
		}
		if !flagsDone && strings.HasPrefix(a, "-") && a != "-" {
			name := strings.TrimLeft(a, "-")
			if !allowed[name] {
				return out, usageError(e, fmt.Sprintf("%s: unknown flag %s", command, a))
			}
			out.flags[name] = true
			continue
		}
		dirs = append(dirs, a)
	}
	if len(dirs) > 1 {
		return out, usageError(e, fmt.Sprintf("%s takes at most one folder, got %d", command, len(dirs)))
	}
	out.dir = e.dir
	if len(dirs) == 1 {
		out.dir = dirs[0]
		if !filepath.IsAbs(out.dir) {
			out.dir = filepath.Join(e.dir, out.dir)
		}
	}
	out.dir = filepath.Clean(out.dir)
	return out, 0
}

// loadProject loads the project whose root is dir, or prints a one-line
// reason to stderr and returns exit code 2.
func loadProject(ctx context.Context, e env, fsys vfs.FS, dir string) (*analysis.Project, int) {
	info, err := fsys.Stat(dir)
	if err != nil {
		fmt.Fprintf(e.stderr, "beeuni-lsp: cannot read folder %s: %v\n", dir, unwrapPathError(err))
		return nil, 2
	}
	if !info.IsDir() {
		fmt.Fprintf(e.stderr, "beeuni-lsp: %s is not a folder\n", dir)
		return nil, 2
	}
	if _, err := fsys.ReadDir(dir); err != nil {
		fmt.Fprintf(e.stderr, "beeuni-lsp: cannot read folder %s: %v\n", dir, unwrapPathError(err))
		return nil, 2
	}
	manifest := filepath.Join(dir, analysis.ManifestName)
	if _, err := fsys.Stat(manifest); err != nil {
		fmt.Fprintf(e.stderr, "beeuni-lsp: no %s in %s\n", analysis.ManifestName, dir)
		return nil, 2
	}
	p, err := analysis.Load(ctx, fsys, dir)
	if err != nil {
		fmt.Fprintf(e.stderr, "beeuni-lsp: cannot read %s: %v\n", manifest, unwrapPathError(err))
		return nil, 2
	}
	return p, 0
}

// unwrapPathError drops the path from an *fs.PathError (the message names
// the path already).
func unwrapPathError(err error) error {
	var pe *fs.PathError
	for e := err; e != nil; {
		if x, ok := e.(*fs.PathError); ok {
			pe = x
			break
		}
		u, ok := e.(interface{ Unwrap() error })
		if !ok {
			break
		}
		e = u.Unwrap()
	}
	if pe != nil {
		return pe.Err
	}
	return err
}
