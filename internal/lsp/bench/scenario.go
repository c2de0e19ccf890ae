package bench

import (
	"context"
	"fmt"
	"os"
	"time"
)

// Run generates the workspace, spawns the server and measures everything.
func Run(ctx context.Context, opts Options) (*Result, error) {
	opts.defaults()
	dir := opts.Dir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "beeuni-bench-")
		if err != nil {
			return nil, fmt.Errorf("benchmark workspace: %w", err)
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	fmt.Fprintf(opts.Log, "generating %d tools in %s\n", opts.Tools, dir)
	ws, err := Generate(dir, opts.Tools)
	if err != nil {
		return nil, err
	}
	res := &Result{Tools: ws.Tools, Files: ws.Files, WorkspaceB: ws.Bytes, ManifestB: len(ws.Content), LoadAvg: loadAvg()}
	r := &runner{opts: opts, ws: ws, res: res}

	if opts.FreshKeystrokes > 0 {
		fmt.Fprintf(opts.Log, "fresh server, typing %s after open\n", freshDelay)
		end := opts.phase("fresh")
		err := r.fresh(ctx)
		end()
		if err != nil {
			return res, fmt.Errorf("fresh server: %w", err)
		}
	}

	var inits, firsts, lasts, cpus []time.Duration
	var c *Client
	for i := 0; i < opts.Startups; i++ {
		fmt.Fprintf(opts.Log, "startup %d/%d\n", i+1, opts.Startups)
		end := opts.phase("startup")
		cl, st, err := r.startup(ctx)
		end()
		if err != nil {
			return res, err
		}
		inits, firsts, lasts = append(inits, st.initialize), append(firsts, st.first), append(lasts, st.last)
		if st.cpu >= 0 {
			cpus = append(cpus, st.cpu)
		}
		if i < opts.Startups-1 {
			if err := cl.Close(10 * time.Second); err != nil {
				return res, fmt.Errorf("close server: %w", err)
			}
			continue
		}
		c = cl
	}
	defer c.Kill()
	r.c = c
	res.Initialize, res.FirstDiags, res.ModulesDiags, res.StartupCPU = Summarize(inits), Summarize(firsts), Summarize(lasts), Summarize(cpus)

	steps := []struct {
		name string
		run  func(context.Context) error
	}{
		{"requests", r.requests},
		{"module edits", r.moduleEdits},
		{"typing", r.typing},
		{"memory", r.memory},
	}
	for _, s := range steps {
		fmt.Fprintf(opts.Log, "%s\n", s.name)
		end := opts.phase(s.name)
		err := s.run(ctx)
		end()
		if err != nil {
			return res, fmt.Errorf("%s: %w\nserver stderr:\n%s", s.name, err, c.Stderr())
		}
	}
	if err := c.Close(10 * time.Second); err != nil {
		return res, fmt.Errorf("close server: %w", err)
	}
	res.LoadAvgEnd = loadAvg()
	return res, nil
}

type runner struct {
	opts Options
	ws   *Workspace
	res  *Result
	c    *Client

	manifestURI string
	text        string // the manifest as the editor holds it
	version     int
	incremental bool
}
