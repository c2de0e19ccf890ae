package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// freshDelay is how long after opening beeuni.yaml the fresh-server
// scenario types its first keystroke: a user who opens a project and
// starts typing at once, while the server still inspects every module.
const freshDelay = 500 * time.Millisecond

// fresh spawns a new server, opens beeuni.yaml, and from freshDelay after
// the open types FreshKeystrokes characters into it, one at a time. After
// each keystroke it waits for the diagnostics covering that version, then
// asks for a completion and a hover, timing all three. Samples taken
// before the initial module scan had published every module finding are
// counted in FreshDuringScan: the scenario measures interactive work that
// competes with the initial scan.
func (r *runner) fresh(ctx context.Context) error {
	c, _, _, err := r.open(ctx)
	if err != nil {
		return err
	}
	defer c.Kill()
	openedAt := time.Now()
	fail := func(err error) error {
		return fmt.Errorf("%w\nserver stderr:\n%s", err, c.Stderr())
	}

	scanDone := make(chan time.Time, 1)
	scanCtx, stopScanWait := context.WithTimeout(ctx, r.opts.Timeout)
	defer stopScanWait()
	go func() {
		at, err := r.waitModules(scanCtx, c)
		if err != nil {
			at = time.Time{}
		}
		scanDone <- at
	}()

	time.Sleep(time.Until(openedAt.Add(freshDelay)))
	m := r.ws.Marks
	doc := map[string]any{"uri": r.manifestURI}
	var keys, completions, hovers []time.Duration
	var sampledAt []time.Time
	const typed = "fresh "
	for i := 0; i < r.opts.FreshKeystrokes; i++ {
		start := len(r.text) - 1 // before the final newline, in the closing comment
		ins := string(typed[i%len(typed)])
		change := r.changeEvent(r.text, start, start, ins)
		r.version++
		version := r.version
		from := len(c.Diagnostics(r.manifestURI))
		sentAt := time.Now()
		if err := c.Notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": r.manifestURI, "version": version},
			"contentChanges": []any{change},
		}); err != nil {
			return fail(err)
		}
		r.text = r.text[:start] + ins + r.text[start:]
		wctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
		ev, _, err := c.WaitDiagnostics(wctx, r.manifestURI, from, func(ev DiagEvent) bool {
			return ev.Version != nil && *ev.Version >= version
		})
		cancel()
		if err != nil {
			return fail(fmt.Errorf("keystroke %d: waiting for the diagnostics of version %d: %w", i, version, err))
		}
		keys = append(keys, ev.At.Sub(sentAt))
		sampledAt = append(sampledAt, sentAt)

		for _, q := range []struct {
			method string
			off    int
			check  func(json.RawMessage) error
			into   *[]time.Duration
		}{
			{"textDocument/completion", m.AgentItem, checkCompletion(ToolName(0)), &completions},
			{"textDocument/hover", m.ToolKey, checkHover, &hovers},
		} {
			wctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
			var raw json.RawMessage
			d, err := c.Call(wctx, q.method, map[string]any{"textDocument": doc, "position": PositionAt(r.text, q.off)}, &raw)
			cancel()
			if err != nil {
				return fail(fmt.Errorf("keystroke %d: %s: %w", i, q.method, err))
			}
			if err := q.check(raw); err != nil {
				return fail(fmt.Errorf("keystroke %d: %s: %w", i, q.method, err))
			}
			*q.into = append(*q.into, d)
		}
	}
	doneAt := <-scanDone
	if doneAt.IsZero() {
		return fail(fmt.Errorf("the initial module scan did not finish within %s", r.opts.Timeout))
	}
	for _, at := range sampledAt {
		if at.Before(doneAt) {
			r.res.FreshDuringScan++
		}
	}
	r.res.FreshScanDone = durationMS(doneAt.Sub(openedAt))
	r.res.FreshKeystroke, r.res.FreshCompletion, r.res.FreshHover = Summarize(keys), Summarize(completions), Summarize(hovers)
	return c.Close(10 * time.Second)
}

func durationMS(d time.Duration) float64 { return round3(float64(d) / float64(time.Millisecond)) }
