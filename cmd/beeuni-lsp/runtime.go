package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/bunload"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
)

// `validate --runtime bun`: for CI that can afford to run module code, each
// inspected module is loaded in Bun (from PATH) the way the daemon does, in
// a temporary copy of the project, and Bun's verdict is printed beside the
// static one; a disagreement (one says it loads, the other that it does
// not) is flagged and makes the exit code 1. The language server never runs
// module code.

// runtimeTimeout bounds one module's load in Bun.
const runtimeTimeout = 30 * time.Second

// runtimeBinary checks validate's --runtime value: it must be bun, and bun
// must be on PATH. It returns the bun binary, or an exit code.
func runtimeBinary(e env, runtime string) (string, int) {
	if runtime != "bun" {
		return "", validateCommand.usageError(e, fmt.Sprintf("validate: --runtime %s: the only runtime is bun", runtime))
	}
	bun, err := exec.LookPath("bun")
	if err != nil {
		fmt.Fprintln(e.stderr, "beeuni-lsp: validate --runtime bun: bun is not on PATH; install Bun (the npm package @oven/bun-linux-x64 ships it) or drop --runtime")
		return "", 2
	}
	return bun, 0
}

// reportRuntime loads the modules of results in bun and prints, after the
// static report, one line per module. It returns the number of
// disagreements, or an exit code of 2 when it cannot run.
func reportRuntime(ctx context.Context, e env, p *analysis.Project, results map[string]*tsinspect.Result, bun string) (int, int) {
	tmp, err := os.MkdirTemp("", "beeuni-runtime-")
	if err != nil {
		fmt.Fprintf(e.stderr, "beeuni-lsp: validate --runtime bun: %v\n", err)
		return 0, 2
	}
	defer os.RemoveAll(tmp)
	ws := filepath.Join(tmp, "workspace")
	skipped, err := bunload.CopyWorkspace(p.Root, ws)
	if err != nil {
		fmt.Fprintf(e.stderr, "beeuni-lsp: validate --runtime bun: copying the project: %v\n", err)
		return 0, 2
	}
	modules := make([]string, 0, len(results))
	for m := range results {
		modules = append(modules, m)
	}
	sort.Strings(modules)
	var b strings.Builder
	fmt.Fprintf(&b, "\nRuntime check (bun, %s): each module loaded as the daemon does\n", bun)
	for _, link := range skipped {
		fmt.Fprintf(&b, "%s: symbolic link not copied (absolute, out of the project or not resolving): module code in the copy must not reach the real tree\n", link)
	}
	disagree := 0
	for _, m := range modules {
		r := results[m]
		if r == nil || r.Incomplete {
			continue
		}
		rel := p.Rel(m)
		cctx, cancel := context.WithTimeout(ctx, runtimeTimeout)
		v, err := bunload.Load(cctx, bun, ws, filepath.Join(ws, filepath.FromSlash(rel)))
		cancel()
		if err != nil {
			fmt.Fprintf(&b, "%s: bun could not be run: %v\n", rel, err)
			disagree++
			continue
		}
		static := "loads"
		switch {
		case !r.Loads:
			static = "fails: " + r.Reason
		case r.Undecided:
			static = "undecided (known only by running it)"
		}
		flag := ""
		if !r.Undecided && v.Loads != r.Loads {
			flag = "  [disagreement]"
			disagree++
		}
		fmt.Fprintf(&b, "%s: bun %s; static %s%s\n", rel, v, static, flag)
	}
	fmt.Fprintf(&b, "%d modules, %d disagreements\n", len(modules), disagree)
	fmt.Fprint(e.stdout, b.String())
	return disagree, 0
}
