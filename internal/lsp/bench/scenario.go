package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Options configures one benchmark run.
type Options struct {
	Binary string   // the beeuni-lsp executable
	Args   []string // its arguments; nil means ["serve"]
	Tools  int      // project tools in the generated workspace
	// Dir is where the workspace is generated; "" means a new temporary
	// folder, removed at the end.
	Dir string
	// Startups is how many times the server is spawned cold to measure
	// startup (the last one goes on to the other measurements); 0 means 1.
	Startups int
	Edits    int           // keystrokes typed into beeuni.yaml; 0 means 200
	Interval time.Duration // between keystrokes; 0 means 10 ms
	Requests int           // samples per request kind; 0 means 50
	// ModuleEdits is how many times a tool module is broken and fixed
	// again; 0 means 5.
	ModuleEdits int
	// Timeout bounds every wait for the server; 0 means 60 s.
	Timeout time.Duration
	// Log receives progress lines; nil discards them.
	Log io.Writer
	// Serve, when set, runs the server in this process on a pipe instead
	// of spawning Binary (for CPU and allocation profiles of the server;
	// memory and CPU figures then include the client).
	Serve func(ctx context.Context, conn io.ReadWriteCloser) int
	// Phase, when set, is called as each measured phase starts ("startup",
	// "requests", "module edits", "typing", "memory"); the function it
	// returns is called when the phase ends (profiles of one phase).
	Phase func(name string) (end func())
}

func (o *Options) phase(name string) func() {
	if o.Phase == nil {
		return func() {}
	}
	if end := o.Phase(name); end != nil {
		return end
	}
	return func() {}
}

func (o *Options) defaults() {
	if o.Args == nil {
		o.Args = []string{"serve"}
	}
	if o.Startups <= 0 {
		o.Startups = 1
	}
	if o.Edits <= 0 {
		o.Edits = 200
	}
	if o.Interval <= 0 {
		o.Interval = 10 * time.Millisecond
	}
	if o.Requests <= 0 {
		o.Requests = 50
	}
	if o.ModuleEdits <= 0 {
		o.ModuleEdits = 5
	}
	if o.Timeout <= 0 {
		o.Timeout = 60 * time.Second
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
}

// Result is what one run measured. Latencies are in milliseconds on the
// client's clock.
type Result struct {
	Tools         int     `json:"tools"`
	Files         int     `json:"files"`
	WorkspaceB    int64   `json:"workspace_bytes"`
	ManifestB     int     `json:"manifest_bytes"`
	LoadAvg       string  `json:"loadavg"` // /proc/loadavg at the start
	LoadAvgEnd    string  `json:"loadavg_end"`
	PositionsUTF  string  `json:"position_encoding"`
	TextSync      string  `json:"text_sync"`
	Initialize    Stats   `json:"initialize"`              // spawn → initialize answer
	FirstDiags    Stats   `json:"first_diagnostics"`       // spawn → first beeuni.yaml diagnostics
	ModulesDiags  Stats   `json:"last_module_diagnostics"` // spawn → every module finding and T11 published
	Keystroke     Stats   `json:"keystroke"`               // didChange → diagnostics covering that version
	KeystrokeCPU  float64 `json:"keystroke_cpu_ms"`        // server CPU per keystroke (utime+stime)
	KeystrokeRead float64 `json:"keystroke_read_bytes"`    // bytes the server read per keystroke, beyond what the client sent
	// KeystrokeSettled runs to the first publish covering the version that
	// also holds the module findings (T11) of beeuni.yaml: a server that
	// publishes the YAML findings alone first shows them flickering.
	KeystrokeSettled Stats `json:"keystroke_settled"`
	PartialPublishes int   `json:"partial_publishes"` // publishes while typing that lacked a T11 finding
	// Analyses is the number of distinct versions of beeuni.yaml published
	// while typing (a coalesced burst costs one), and AnalysisCPU the
	// server CPU per such version: the cost of one keystroke's analysis.
	Analyses      int     `json:"analyses"`
	AnalysisCPU   float64 `json:"analysis_cpu_ms"`
	ExactVersions int     `json:"exact_versions"` // versions that got their own publish
	ErrorsTyped   int     `json:"errors_typed"`   // keystrokes that introduced a finding
	ErrorsShown   int     `json:"errors_shown"`   // ... and whose own publish showed it
	Completion    Stats   `json:"completion"`
	Hover         Stats   `json:"hover"`
	Definition    Stats   `json:"definition"`
	CodeAction    Stats   `json:"code_action"`
	// CodeActionResolve is codeAction/resolve of the eject action: its
	// edit, which the server plans (and checks) only when it is picked.
	CodeActionResolve Stats    `json:"code_action_resolve"`
	Rename            Stats    `json:"rename"`
	ModuleEdit        Stats    `json:"module_edit"` // module didChange → beeuni.yaml diagnostics updated
	PeakRSS           int64    `json:"vmhwm_bytes"`
	RSSEnd            int64    `json:"vmrss_bytes"`
	HeapAfterGC       int64    `json:"heap_after_gc_bytes"` // -1: the server has no beeuni/debugMemory
	Notes             []string `json:"notes,omitempty"`
}

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

	var inits, firsts, lasts []time.Duration
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
	res.Initialize, res.FirstDiags, res.ModulesDiags = Summarize(inits), Summarize(firsts), Summarize(lasts)

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

type startupTimes struct{ initialize, first, last time.Duration }

// startup spawns the server cold, initializes it, opens beeuni.yaml as an
// editor does, and waits for the YAML diagnostics and then for every
// module finding.
func (r *runner) startup(ctx context.Context) (*Client, startupTimes, error) {
	var st startupTimes
	ws := r.ws
	r.manifestURI = FileURI(ws.Manifest)
	t0 := time.Now()
	settings := json.RawMessage(`{"inspectModules":true}`)
	var c *Client
	if r.opts.Serve != nil {
		c = ServeInProcess(ctx, r.opts.Serve, settings)
	} else {
		var err error
		if c, err = Spawn(ctx, r.opts.Binary, r.opts.Args, ws.Root, settings); err != nil {
			return nil, st, err
		}
	}
	fail := func(err error) (*Client, startupTimes, error) {
		c.Kill()
		return nil, st, fmt.Errorf("%w\nserver stderr:\n%s", err, c.Stderr())
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

	// Every module finding: each broken module published with findings,
	// and T11 on each of their manifest entries.
	broken := make([]string, len(ws.Broken))
	for i, p := range ws.Broken {
		broken[i] = FileURI(p)
	}
	var lastAt time.Time
	err = c.WaitFor(wctx, func(diags map[string][]DiagEvent) bool {
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
		return fail(fmt.Errorf("waiting for the findings of the %d broken modules (module diagnostics and T11 in beeuni.yaml): %w", len(broken), err))
	}
	st.last = lastAt.Sub(t0)
	return c, st, nil
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

// requests measures completion, hover, definition, code action and rename
// at representative places, checking each answer is a real one.
func (r *runner) requests(ctx context.Context) error {
	m := r.ws.Marks
	doc := map[string]any{"uri": r.manifestURI}
	at := func(off int) map[string]any {
		return map[string]any{"textDocument": doc, "position": PositionAt(r.text, off)}
	}
	type probe struct {
		name   string
		method string
		params func(i int) any
		check  func(raw json.RawMessage) error
		into   *Stats
	}
	// The eject action as the code action list offers it, to resolve.
	var ejectAction json.RawMessage
	{
		p := PositionAt(r.text, m.BeeuniValue)
		wctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
		var raw json.RawMessage
		_, err := r.c.Call(wctx, "textDocument/codeAction", map[string]any{"textDocument": doc, "range": Range{p, p}, "context": map[string]any{"diagnostics": []any{}}}, &raw)
		cancel()
		if err != nil {
			return fmt.Errorf("code action: %w", err)
		}
		if ejectAction, err = actionTitled(raw, "Eject web_search"); err != nil {
			return err
		}
	}
	probes := []probe{
		{"completion", "textDocument/completion", func(int) any {
			return at(m.AgentItem)
		}, checkCompletion(ToolName(0)), &r.res.Completion},
		{"hover", "textDocument/hover", func(i int) any {
			return at([]int{m.ToolKey, m.AgentItem}[i%2])
		}, checkHover, &r.res.Hover},
		{"definition", "textDocument/definition", func(i int) any {
			return at([]int{m.ModulePath, m.AgentItem}[i%2])
		}, checkNonEmpty("definition"), &r.res.Definition},
		{"code action", "textDocument/codeAction", func(int) any {
			p := PositionAt(r.text, m.BeeuniValue)
			return map[string]any{"textDocument": doc, "range": Range{p, p}, "context": map[string]any{"diagnostics": []any{}}}
		}, checkTitle("Eject web_search"), &r.res.CodeAction},
		{"code action resolve", "codeAction/resolve", func(int) any {
			return ejectAction
		}, checkResolvedEdit, &r.res.CodeActionResolve},
		{"rename", "textDocument/rename", func(int) any {
			p := at(m.ToolKey)
			p["newName"] = "renamed_order_tool"
			return p
		}, checkNonEmpty("rename"), &r.res.Rename},
	}
	for _, p := range probes {
		var samples []time.Duration
		for i := 0; i < r.opts.Requests; i++ {
			wctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
			var raw json.RawMessage
			d, err := r.c.Call(wctx, p.method, p.params(i), &raw)
			cancel()
			if err != nil {
				return fmt.Errorf("%s: %w", p.name, err)
			}
			if err := p.check(raw); err != nil {
				return fmt.Errorf("%s (sample %d): %w", p.name, i, err)
			}
			samples = append(samples, d)
		}
		*p.into = Summarize(samples)
	}
	return nil
}

func checkCompletion(want string) func(json.RawMessage) error {
	return func(raw json.RawMessage) error {
		var list struct {
			Items []struct {
				Label string `json:"label"`
			} `json:"items"`
		}
		var items []struct {
			Label string `json:"label"`
		}
		if json.Unmarshal(raw, &items) != nil || items == nil {
			if err := json.Unmarshal(raw, &list); err != nil {
				return fmt.Errorf("decode completion %.200s: %w", raw, err)
			}
			items = list.Items
		}
		for _, it := range items {
			if it.Label == want {
				return nil
			}
		}
		return fmt.Errorf("completion of %d items lacks %q", len(items), want)
	}
}

func checkHover(raw json.RawMessage) error {
	var h struct {
		Contents json.RawMessage `json:"contents"`
	}
	if err := json.Unmarshal(raw, &h); err != nil || len(h.Contents) < 3 {
		return fmt.Errorf("empty hover: %.200s", raw)
	}
	return nil
}

func checkNonEmpty(what string) func(json.RawMessage) error {
	return func(raw json.RawMessage) error {
		s := strings.TrimSpace(string(raw))
		if s == "" || s == "null" || s == "[]" || s == "{}" {
			return fmt.Errorf("empty %s answer: %s", what, s)
		}
		return nil
	}
}

func checkTitle(title string) func(json.RawMessage) error {
	return func(raw json.RawMessage) error {
		var actions []struct {
			Title string `json:"title"`
		}
		if err := json.Unmarshal(raw, &actions); err != nil {
			return fmt.Errorf("decode code actions %.200s: %w", raw, err)
		}
		for _, a := range actions {
			if a.Title == title {
				return nil
			}
		}
		return fmt.Errorf("no code action titled %q among %d", title, len(actions))
	}
}

// actionTitled returns the code action titled title, as the server sent it.
func actionTitled(raw json.RawMessage, title string) (json.RawMessage, error) {
	var actions []json.RawMessage
	if err := json.Unmarshal(raw, &actions); err != nil {
		return nil, fmt.Errorf("decode code actions %.200s: %w", raw, err)
	}
	for _, a := range actions {
		var t struct {
			Title string `json:"title"`
		}
		if json.Unmarshal(a, &t) == nil && t.Title == title {
			return a, nil
		}
	}
	return nil, fmt.Errorf("no code action titled %q among %d", title, len(actions))
}

// checkResolvedEdit checks a resolved eject action creates the module.
func checkResolvedEdit(raw json.RawMessage) error {
	var a struct {
		Edit *struct {
			DocumentChanges []json.RawMessage `json:"documentChanges"`
		} `json:"edit"`
	}
	if err := json.Unmarshal(raw, &a); err != nil || a.Edit == nil || len(a.Edit.DocumentChanges) == 0 {
		return fmt.Errorf("resolved eject action without an edit: %.300s", raw)
	}
	return nil
}

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

// memory reads the peak and current resident size of the server and asks
// it for its heap after a forced collection.
func (r *runner) memory(ctx context.Context) error {
	pid := r.c.Pid()
	var err error
	if r.res.PeakRSS, err = ProcStatus(pid, "VmHWM"); err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	var mem struct {
		HeapAlloc int64 `json:"heapAlloc"`
	}
	r.res.HeapAfterGC = -1
	if _, err := r.c.Call(wctx, "beeuni/debugMemory", nil, &mem); err != nil {
		var rpcErr *RPCError
		if !errors.As(err, &rpcErr) {
			return err
		}
		r.res.Notes = append(r.res.Notes, "beeuni/debugMemory: "+rpcErr.Message)
	} else {
		r.res.HeapAfterGC = mem.HeapAlloc
	}
	if r.res.RSSEnd, err = ProcStatus(pid, "VmRSS"); err != nil {
		return err
	}
	return nil
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

// FileURI returns the file:// URI of an absolute path.
func FileURI(path string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return u.String()
}

// PositionAt converts a byte offset in text to an LSP position in UTF-16
// code units.
func PositionAt(text string, offset int) Position {
	if offset > len(text) {
		offset = len(text)
	}
	lineStart := strings.LastIndexByte(text[:offset], '\n') + 1
	line := strings.Count(text[:lineStart], "\n")
	char := 0
	for _, r := range text[lineStart:offset] {
		if r >= 0x10000 && r != utf8.RuneError {
			char += 2
		} else {
			char++
		}
	}
	return Position{Line: line, Character: char}
}

// procCPU returns the user+system CPU time of a process.
func procCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1, err
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return -1, errors.New("malformed /proc stat")
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return -1, errors.New("short /proc stat")
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return -1, errors.New("malformed /proc stat times")
	}
	const clockTicks = 100 // USER_HZ on Linux
	return time.Duration(ut+st) * time.Second / clockTicks, nil
}

// procRead returns the bytes a process has read (rchar: files and pipes).
func procRead(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		return -1, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "rchar: "); ok {
			return strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	return -1, errors.New("no rchar in /proc io")
}

func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
