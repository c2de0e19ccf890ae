package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// runToolsLs implements `beeuni-lsp tools ls [--json] [DIR]`: the tools a
// session gets, exactly as SPEC section 6 prints them. Exit 0 when it could
// read the project (whatever the findings); 1, with the syntax errors on
// stderr and nothing on stdout, when a file of the project does not parse;
// 2 when it cannot run.
func runToolsLs(ctx context.Context, e env, args []string) int {
	opts, code := parseCommandArgs(e, "tools ls", args, map[string]bool{"json": true})
	if code != 0 {
		return code
	}
	p, code := loadProject(ctx, e, vfs.NewDisk(), opts.dir)
	if code != 0 {
		return code
	}
	// What a session gets cannot be known from a file that does not parse.
	broken := false
	for _, f := range p.Findings {
		if f.Code == analysis.CodeSyntax {
			broken = true
			var lines *diag.Lines
			if file := p.File(f.File); file != nil {
				lines = file.Lines
			}
			j := toJSONFinding(p, f, lines)
			fmt.Fprintf(e.stderr, "%s:%d:%d: %s: %s [%s]\n", j.File, j.Line, j.Column, j.Severity, j.Message, j.Code)
		}
	}
	if broken {
		fmt.Fprintln(e.stderr, "beeuni-lsp: tools ls: fix the YAML syntax error first (see beeuni-lsp validate)")
		return 1
	}
	if opts.flags["json"] {
		data, err := json.MarshalIndent(analysis.ToolsLsJSON(p), "", "  ")
		if err != nil {
			fmt.Fprintf(e.stderr, "beeuni-lsp: %v\n", err)
			return 2
		}
		fmt.Fprintf(e.stdout, "%s\n", data)
		return 0
	}
	fmt.Fprint(e.stdout, analysis.FormatToolsLs(p.Model))
	return 0
}
