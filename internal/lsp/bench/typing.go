package bench

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// typing types single characters into beeuni.yaml at a fixed interval:
// mostly into a comment, and in a repeating pattern a capital letter into
// a tool's key (rule T1, an error) and a letter at the end of a name in an
// agent's list (rule A1, a warning), each removed by the next keystroke.
func (r *runner) typing(ctx context.Context) error {
	m := r.ws.Marks
	evs := r.c.Diagnostics(r.manifestURI)
	if len(evs) == 0 {
		return errors.New("no diagnostics for beeuni.yaml before typing")
	}
	baseline := evs[len(evs)-1]
	startIdx := len(evs)
	pid := r.c.Pid()
	cpu0, _ := procCPU(pid)
	read0, _ := procRead(pid)
	sent0 := r.c.Written()

	type keystroke struct {
		version int
		at      time.Time
		code    string // the finding it introduces, or ""
	}
	keys := make([]keystroke, 0, r.opts.Edits)
	const comment = "the quick brown fox jumps over the lazy dog "
	t0 := time.Now()
	for i := 0; i < r.opts.Edits; i++ {
		if wait := time.Until(t0.Add(time.Duration(i) * r.opts.Interval)); wait > 0 {
			time.Sleep(wait)
		}
		var start, end int
		var ins, code string
		switch i % 20 {
		case 5:
			start, end, ins, code = m.ToolKeyEnd, m.ToolKeyEnd, "X", "T1"
		case 6:
			start, end = m.ToolKeyEnd, m.ToolKeyEnd+1
		case 15:
			start, end, ins, code = m.AgentItemEnd, m.AgentItemEnd, "x", "A1"
		case 16:
			start, end = m.AgentItemEnd, m.AgentItemEnd+1
		default:
			start = len(r.text) - 1 // before the final newline
			end, ins = start, string(comment[i%len(comment)])
		}
		change := r.changeEvent(r.text, start, end, ins)
		r.version++
		params := map[string]any{
			"textDocument":   map[string]any{"uri": r.manifestURI, "version": r.version},
			"contentChanges": []any{change},
		}
		at := time.Now()
		if err := r.c.Notify("textDocument/didChange", params); err != nil {
			return err
		}
		r.text = r.text[:start] + ins + r.text[end:]
		keys = append(keys, keystroke{version: r.version, at: at, code: code})
	}
	last := r.version
	wctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	// Settled: the last version's diagnostics, module findings included.
	settled := func(ev DiagEvent) bool {
		return ev.Version != nil && *ev.Version >= last && ev.Count("T11") == baseline.Count("T11")
	}
	if _, _, err := r.c.WaitDiagnostics(wctx, r.manifestURI, startIdx, settled); err != nil {
		return fmt.Errorf("waiting for the settled diagnostics of version %d (with %d T11): %w", last, baseline.Count("T11"), err)
	}
	cpu1, cpuErr := procCPU(pid)
	if cpuErr == nil && cpu0 >= 0 {
		r.res.KeystrokeCPU = round3(float64(cpu1-cpu0) / float64(time.Millisecond) / float64(len(keys)))
	}
	if read1, err := procRead(pid); err == nil && read0 >= 0 {
		r.res.KeystrokeRead = round3(float64(read1-read0-(r.c.Written()-sent0)) / float64(len(keys)))
	}
	evs = r.c.Diagnostics(r.manifestURI)[startIdx:]
	versions := map[int]bool{}
	for _, ev := range evs {
		if ev.Version != nil {
			versions[*ev.Version] = true
		}
	}
	r.res.Analyses = len(versions)
	if cpuErr == nil && cpu0 >= 0 && len(versions) > 0 {
		r.res.AnalysisCPU = round3(float64(cpu1-cpu0) / float64(time.Millisecond) / float64(len(versions)))
	}
	for _, ev := range evs {
		if ev.Count("T11") < baseline.Count("T11") {
			r.res.PartialPublishes++
		}
	}
	var samples, settledSamples []time.Duration
	for _, k := range keys {
		if k.code != "" {
			r.res.ErrorsTyped++
		}
		first := true
		for _, ev := range evs {
			if ev.Version == nil || *ev.Version < k.version || ev.At.Before(k.at) {
				continue
			}
			if first {
				first = false
				samples = append(samples, ev.At.Sub(k.at))
				if *ev.Version == k.version {
					r.res.ExactVersions++
					if k.code != "" && ev.Count(k.code) > baseline.Count(k.code) {
						r.res.ErrorsShown++
					}
				}
			}
			if ev.Count("T11") >= baseline.Count("T11") {
				settledSamples = append(settledSamples, ev.At.Sub(k.at))
				break
			}
		}
	}
	r.res.Keystroke = Summarize(samples)
	r.res.KeystrokeSettled = Summarize(settledSamples)
	final := evs[len(evs)-1]
	for _, code := range []string{"T1", "A1", "T11"} {
		if final.Count(code) != baseline.Count(code) {
			return fmt.Errorf("after typing, beeuni.yaml has %d %s findings, want %d as before (the edits that added one were undone)", final.Count(code), code, baseline.Count(code))
		}
	}
	if r.res.ErrorsTyped > 0 && r.res.ErrorsShown == 0 && r.res.ExactVersions == len(keys) {
		return errors.New("no keystroke that introduced a finding showed it")
	}
	return nil
}
