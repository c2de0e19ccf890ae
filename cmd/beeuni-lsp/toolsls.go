package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// runToolsLs implements `beeuni-lsp tools ls [--json] [DIR]`: the tools a
// session gets, exactly as SPEC section 6 prints them. Exit 0 when it could
// read the project (whatever the findings), 2 when it cannot run.
func runToolsLs(ctx context.Context, e env, args []string) int {
	opts, code := parseCommandArgs(e, "tools ls", args, map[string]bool{"json": true})
	if code != 0 {
		return code
	}
	p, code := loadProject(ctx, e, vfs.NewDisk(), opts.dir)
	if code != 0 {
		return code
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
