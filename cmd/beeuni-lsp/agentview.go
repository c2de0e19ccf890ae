package main

import (
	"context"
	"fmt"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

// printAgentView implements `beeuni-lsp tools ls --agent NAME [--json]`:
// what agent NAME's model gets (analysis.AgentView). defs holds the
// project's module inspection; the Beeuni tools' sources are read here.
// An agent the project does not declare, or one whose tools value has no
// form, is a usage error (exit 2) naming the agents there are.
func printAgentView(ctx context.Context, e env, p *analysis.Project, opts options, defs analysis.ToolDefs, notLoaded []analysis.NotLoaded) int {
	defs.Beeuni = analysis.InspectBeeuniTools(ctx)
	v, err := analysis.NewAgentViewer(p, defs, notLoaded).View(opts.agent)
	if err != nil {
		fmt.Fprintf(e.stderr, "beeuni-lsp: tools ls --agent: %v\n", err)
		return 2
	}
	if opts.json {
		text, err := encodeJSON(v)
		if err != nil {
			fmt.Fprintf(e.stderr, "beeuni-lsp: %v\n", err)
			return 2
		}
		fmt.Fprint(e.stdout, text)
		return 0
	}
	fmt.Fprint(e.stdout, analysis.FormatAgentView(v))
	return 0
}
