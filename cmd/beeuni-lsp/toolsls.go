package main

import (
	"context"
	"fmt"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// runToolsLs implements `beeuni-lsp tools ls [--json] [PATH]`: the tools a
// session gets, exactly as SPEC section 6 prints them, then the entries
// that will not load (T6, T11 from module inspection, T3), then the
// entries the table leaves out (leftOutEntries). Exit codes in
// toolsLsCommand.
func runToolsLs(ctx context.Context, e env, args []string) int {
	opts, help, err := toolsLsCommand.parse(args)
	if help {
		fmt.Fprint(e.stdout, toolsLsCommand.help())
		return 0
	}
	if err != nil {
		return toolsLsCommand.usageError(e, err.Error())
	}
	fsys := vfs.NewDisk()
	p, code := loadProject(ctx, e, fsys, firstOr(opts.positional, ""))
	if code != 0 {
		return code
	}
	// What a session gets cannot be known from a file that does not parse.
	broken := false
	for _, f := range p.Findings {
		if f.Code == analysis.CodeSyntax {
			broken = true
			var lines map[string]*diag.Lines
			if file := p.File(f.File); file != nil {
				lines = map[string]*diag.Lines{f.File: file.Lines}
			}
			fmt.Fprint(e.stderr, formatTextFindings([]finding{toFinding(e, f, lines)}))
		}
	}
	if broken {
		fmt.Fprintln(e.stderr, "beeuni-lsp: tools ls: fix the YAML syntax error first (see beeuni-lsp validate)")
		return 1
	}
	findings := append([]diag.Finding(nil), p.Findings...)
	inspection := analysis.InspectModules(ctx, p, tsinspect.New(fsys, tsinspect.Options{}))
	findings = append(findings, inspection.Findings...)
	diag.Sort(findings)
	notLoaded := analysis.NotLoadedTools(p, findings)
	if opts.agent != "" {
		return printAgentView(ctx, e, p, opts, analysis.ToolDefs{Modules: inspection.Results}, notLoaded)
	}
	left := leftOutEntries(p, findings)
	if opts.json {
		text, err := encodeJSON(toolsLsJSON{ToolsList: analysis.ToolsLsJSON(p, notLoaded), LeftOut: left})
		if err != nil {
			fmt.Fprintf(e.stderr, "beeuni-lsp: %v\n", err)
			return 2
		}
		fmt.Fprint(e.stdout, text)
		return 0
	}
	fmt.Fprint(e.stdout, analysis.FormatToolsLs(p.Model, notLoaded)+formatLeftOut(left))
	return 0
}
