package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// startupTimes are one cold start's latencies, and cpu the server's CPU
// time up to its last module finding (-1 when unknown).
type startupTimes struct{ initialize, first, last, cpu time.Duration }

// startup spawns the server cold, initializes it, opens beeuni.yaml as an
// editor does, and waits for the YAML diagnostics and then for every
// module finding.
func (r *runner) startup(ctx context.Context) (*Client, startupTimes, error) {
	c, t0, st, err := r.open(ctx)
	if err != nil {
		return nil, st, err
	}
	wctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	lastAt, err := r.waitModules(wctx, c)
	if err != nil {
		c.Kill()
		return nil, st, fmt.Errorf("%w\nserver stderr:\n%s", err, c.Stderr())
	}
	st.last = lastAt.Sub(t0)
	st.cpu = -1
	if r.opts.Serve == nil { // in process, the process's CPU is not the server's
		st.cpu, _ = procCPU(c.Pid())
	}
	return c, st, nil
}

// open spawns the server cold, initializes it, opens beeuni.yaml as an
// editor does and waits for its first diagnostics. t0 is the spawn.
func (r *runner) open(ctx context.Context) (_ *Client, t0 time.Time, st startupTimes, _ error) {
	ws := r.ws
	r.manifestURI = FileURI(ws.Manifest)
	t0 = time.Now()
	settings := json.RawMessage(`{"inspectModules":true}`)
	var c *Client
	if r.opts.Serve != nil {
		c = ServeInProcess(ctx, r.opts.Serve, settings)
	} else {
		var err error
		if c, err = Spawn(ctx, r.opts.Binary, r.opts.Args, ws.Root, settings); err != nil {
			return nil, t0, st, err
		}
	}
	fail := func(err error) (*Client, time.Time, startupTimes, error) {
		c.Kill()
		return nil, t0, st, fmt.Errorf("%w\nserver stderr:\n%s", err, c.Stderr())
	}
	wctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	var initRes struct {
		Capabilities struct {
			PositionEncoding string          `json:"positionEncoding"`
			TextDocumentSync json.RawMessage `json:"textDocumentSync"`
		} `json:"capabilities"`
		ServerInfo struct {
			Name string `json:"name"`
		} `json:"serverInfo"`
	}
	if _, err := c.Call(wctx, "initialize", initializeParams(ws.Root), &initRes); err != nil {
		return fail(err)
	}
	st.initialize = time.Since(t0)
	r.res.PositionsUTF = initRes.Capabilities.PositionEncoding
	if r.res.PositionsUTF == "" {
		r.res.PositionsUTF = "utf-16"
	}
	if r.res.PositionsUTF != "utf-16" {
		return fail(fmt.Errorf("server chose position encoding %q though the client offered only utf-16", r.res.PositionsUTF))
	}
	r.incremental = syncKind(initRes.Capabilities.TextDocumentSync) == 2
	r.res.TextSync = map[bool]string{true: "incremental", false: "full"}[r.incremental]
	if err := c.Notify("initialized", struct{}{}); err != nil {
		return fail(err)
	}
	r.text, r.version = ws.Content, 1
	if err := c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": r.manifestURI, "languageId": "yaml", "version": r.version, "text": r.text,
	}}); err != nil {
		return fail(err)
	}
	first, _, err := c.WaitDiagnostics(wctx, r.manifestURI, 0, func(DiagEvent) bool { return true })
	if err != nil {
		return fail(fmt.Errorf("waiting for the first diagnostics of beeuni.yaml: %w", err))
	}
	st.first = first.At.Sub(t0)
	return c, t0, st, nil
}

// waitModules waits until every broken module is published with findings
// and beeuni.yaml holds a T11 for each, and returns when that was first so.
func (r *runner) waitModules(ctx context.Context, c *Client) (time.Time, error) {
	ws := r.ws
	broken := make([]string, len(ws.Broken))
	for i, p := range ws.Broken {
		broken[i] = FileURI(p)
	}
	var lastAt time.Time
	err := c.WaitFor(ctx, func(diags map[string][]DiagEvent) bool {
		lastAt = time.Time{}
		for _, uri := range broken {
			evs := diags[uri]
			if len(evs) == 0 || len(evs[len(evs)-1].Diagnostics) == 0 {
				return false
			}
			lastAt = later(lastAt, firstNonEmpty(evs).At)
		}
		evs := diags[r.manifestURI]
		for _, ev := range evs {
			if ev.Count("T11") >= len(broken) {
				lastAt = later(lastAt, ev.At)
				return true
			}
		}
		return false
	})
	if err != nil {
		return lastAt, fmt.Errorf("waiting for the findings of the %d broken modules (module diagnostics and T11 in beeuni.yaml): %w", len(broken), err)
	}
	return lastAt, nil
}

func firstNonEmpty(evs []DiagEvent) DiagEvent {
	for _, ev := range evs {
		if len(ev.Diagnostics) > 0 {
			return ev
		}
	}
	return evs[len(evs)-1]
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// initializeParams are the parameters a capable editor sends.
func initializeParams(root string) map[string]any {
	return map[string]any{
		"processId":  os.Getpid(),
		"clientInfo": map[string]any{"name": "beeuni-lsp-bench"},
		"rootUri":    FileURI(root),
		"workspaceFolders": []any{
			map[string]any{"uri": FileURI(root), "name": filepath.Base(root)},
		},
		"initializationOptions": map[string]any{"inspectModules": true},
		"capabilities": map[string]any{
			"general": map[string]any{"positionEncodings": []string{"utf-16"}},
			"workspace": map[string]any{
				"configuration":          true,
				"workspaceFolders":       true,
				"applyEdit":              true,
				"workspaceEdit":          map[string]any{"documentChanges": true, "resourceOperations": []string{"create", "rename", "delete"}},
				"didChangeWatchedFiles":  map[string]any{"dynamicRegistration": true, "relativePatternSupport": true},
				"didChangeConfiguration": map[string]any{"dynamicRegistration": true},
			},
			"textDocument": map[string]any{
				"synchronization":    map[string]any{"dynamicRegistration": false, "didSave": true},
				"publishDiagnostics": map[string]any{"relatedInformation": true, "versionSupport": true, "codeDescriptionSupport": true, "dataSupport": true},
				"completion": map[string]any{"completionItem": map[string]any{
					"snippetSupport": true, "insertReplaceSupport": true, "documentationFormat": []string{"markdown", "plaintext"},
				}},
				"hover":      map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
				"definition": map[string]any{"linkSupport": true},
				"codeAction": map[string]any{"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{
					"valueSet": []string{"", "quickfix", "refactor", "refactor.rewrite", "source"},
				}}, "resolveSupport": map[string]any{"properties": []string{"edit"}}},
				"rename": map[string]any{"prepareSupport": true},
			},
			"window": map[string]any{"workDoneProgress": true, "showDocument": map[string]any{"support": true}},
		},
	}
}

// syncKind reads textDocumentSync, a number or an options object.
func syncKind(raw json.RawMessage) int {
	var n int
	if json.Unmarshal(raw, &n) == nil {
		return n
	}
	var o struct {
		Change int `json:"change"`
	}
	_ = json.Unmarshal(raw, &o)
	return o.Change
}
