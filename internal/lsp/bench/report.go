package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// row is one line of the results table.
type row struct {
	name string
	s    Stats
}

func (r *Result) rows() []row {
	return []row{
		{"spawn → initialize answer", r.Initialize},
		{"spawn → first beeuni.yaml diagnostics", r.FirstDiags},
		{"spawn → last module diagnostics", r.ModulesDiags},
		{"keystroke → its diagnostics", r.Keystroke},
		{"keystroke → diagnostics with T11", r.KeystrokeSettled},
		{"completion (agent list)", r.Completion},
		{"hover (tool key, agent item)", r.Hover},
		{"definition (module path, agent item)", r.Definition},
		{"code action (eject)", r.CodeAction},
		{"code action resolve (eject edit)", r.CodeActionResolve},
		{"rename (project tool)", r.Rename},
		{"module edit → beeuni.yaml T11", r.ModuleEdit},
		{"fresh server: keystroke → its diagnostics", r.FreshKeystroke},
		{"fresh server: completion", r.FreshCompletion},
		{"fresh server: hover", r.FreshHover},
	}
}

// WriteTable prints a human-readable table of one run: min, median, p95 and
// max of every latency, then the keystroke and memory facts.
func WriteTable(w io.Writer, r *Result) error {
	fmt.Fprintf(w, "beeuni-lsp end to end, %d tools (%d files, %d bytes; beeuni.yaml %d bytes), load %s → %s, %s positions, %s sync\n",
		r.Tools, r.Files, r.WorkspaceB, r.ManifestB, r.LoadAvg, r.LoadAvgEnd, r.PositionsUTF, r.TextSync)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "measurement (ms)\tn\tmin\tmedian\tp95\tmax\t\n")
	for _, x := range r.rows() {
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t\n", x.name, x.s.N, x.s.Min, x.s.Median, x.s.P95, x.s.Max)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	heap := "n/a"
	if r.HeapAfterGC >= 0 {
		heap = mb(r.HeapAfterGC)
	}
	fmt.Fprintf(w, "keystrokes: %d of %d versions got their own publish; %d of %d finding-introducing keystrokes showed it; %d publishes lacked a T11 finding; server CPU %.3f ms and %.0f bytes read per keystroke, %.3f ms per analysis (%d analyses)\n",
		r.ExactVersions, r.Keystroke.N, r.ErrorsShown, r.ErrorsTyped, r.PartialPublishes, r.KeystrokeCPU, r.KeystrokeRead, r.AnalysisCPU, r.Analyses)
	if r.FreshKeystroke.N > 0 {
		fmt.Fprintf(w, "fresh server: first keystroke %s after open; %d of %d keystrokes typed while the initial scan ran (done %.0f ms after open)\n",
			freshDelay, r.FreshDuringScan, r.FreshKeystroke.N, r.FreshScanDone)
	}
	if r.StartupCPU.N > 0 {
		fmt.Fprintf(w, "cold start: server CPU %.0f ms (median of %d) up to its last module finding\n", r.StartupCPU.Median, r.StartupCPU.N)
	}
	fmt.Fprintf(w, "memory: peak RSS (VmHWM) %s, RSS at end %s, heap after forced GC %s\n", mb(r.PeakRSS), mb(r.RSSEnd), heap)
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	return nil
}

// WriteJSON prints the run as one JSON line.
func WriteJSON(w io.Writer, r *Result) error {
	line, err := json.Marshal(struct {
		Bench string `json:"bench"`
		*Result
	}{"beeuni-lsp-e2e", r})
	if err != nil {
		return fmt.Errorf("encode result: %w", err)
	}
	_, err = fmt.Fprintf(w, "%s\n", line)
	return err
}

// WriteGrowth prints the growth table: per-keystroke cost by workspace size.
func WriteGrowth(w io.Writer, results []*Result) error {
	var b strings.Builder
	b.WriteString("| tools | beeuni.yaml bytes | keystroke median ms | keystroke p95 ms | analyses while typing | server CPU ms / analysis | server CPU ms / keystroke | bytes read / keystroke | completion p95 ms | hover p95 ms | fresh server: keystroke p95 ms | fresh: completion / hover p95 ms | load |\n")
	b.WriteString("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
	for _, r := range results {
		fmt.Fprintf(&b, "| %d | %d | %.2f | %.2f | %d | %.2f | %.2f | %.0f | %.2f | %.2f | %.2f | %.2f / %.2f | %s |\n",
			r.Tools, r.ManifestB, r.Keystroke.Median, r.Keystroke.P95, r.Analyses, r.AnalysisCPU, r.KeystrokeCPU, r.KeystrokeRead, r.Completion.P95, r.Hover.P95,
			r.FreshKeystroke.P95, r.FreshCompletion.P95, r.FreshHover.P95, r.LoadAvg)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }
