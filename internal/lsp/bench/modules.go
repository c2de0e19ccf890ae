package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// moduleEdits opens the first broken-free root module in the editor,
// removes its default export (the daemon would skip it: T11 on its
// manifest entry) and puts it back, timing each change to the updated
// beeuni.yaml diagnostics.
func (r *runner) moduleEdits(ctx context.Context) error {
	module := filepath.Join(r.ws.Root, filepath.FromSlash(modulePath(0)))
	for _, b := range r.ws.Broken {
		if b == module {
			module = filepath.Join(r.ws.Root, filepath.FromSlash(modulePath(1)))
		}
	}
	content, err := os.ReadFile(module)
	if err != nil {
		return err
	}
	good := string(content)
	const from, to = "export default {", "export const tool = {"
	off := strings.Index(good, from)
	if off < 0 {
		return errors.New("generated module has no default export")
	}
	uri := FileURI(module)
	version := 1
	if err := r.c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "typescript", "version": version, "text": good,
	}}); err != nil {
		return err
	}
	base := len(r.ws.Broken)
	text := good
	var samples []time.Duration
	for i := 0; i < 2*r.opts.ModuleEdits; i++ {
		breaking := i%2 == 0
		var change map[string]any
		var next string
		if breaking {
			next = text[:off] + to + text[off+len(from):]
			change = r.changeEvent(text, off, off+len(from), to)
		} else {
			next = text[:off] + from + text[off+len(to):]
			change = r.changeEvent(text, off, off+len(to), from)
		}
		want := base
		if breaking {
			want = base + 1
		}
		from := len(r.c.Diagnostics(r.manifestURI))
		version++
		sentAt := time.Now()
		if err := r.c.Notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": version},
			"contentChanges": []any{change},
		}); err != nil {
			return err
		}
		text = next
		wctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
		ev, _, err := r.c.WaitDiagnostics(wctx, r.manifestURI, from, func(ev DiagEvent) bool { return ev.Count("T11") == want })
		cancel()
		if err != nil {
			return fmt.Errorf("edit %d of %s: waiting for %d T11 findings in beeuni.yaml: %w", i, modulePath(0), want, err)
		}
		samples = append(samples, ev.At.Sub(sentAt))
	}
	r.res.ModuleEdit = Summarize(samples)
	return r.c.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
}

// changeEvent is the content change replacing text[start:end] with repl,
// incremental or full as the server asked.
func (r *runner) changeEvent(text string, start, end int, repl string) map[string]any {
	if !r.incremental {
		return map[string]any{"text": text[:start] + repl + text[end:]}
	}
	return map[string]any{"range": Range{PositionAt(text, start), PositionAt(text, end)}, "text": repl}
}
