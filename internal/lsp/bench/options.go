package bench

import (
	"context"
	"io"
	"time"
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
	// FreshKeystrokes is how many keystrokes the fresh-server scenario
	// types into a server opened freshDelay before (while its initial
	// module scan runs); 0 means 20, a negative number skips the scenario.
	FreshKeystrokes int
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
	if o.FreshKeystrokes == 0 {
		o.FreshKeystrokes = 20
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
	StartupCPU    Stats   `json:"startup_cpu_ms"`          // server CPU (utime+stime) from spawn to the last module finding: the initial scan's cost
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
	CodeActionResolve Stats `json:"code_action_resolve"`
	Rename            Stats `json:"rename"`
	ModuleEdit        Stats `json:"module_edit"` // module didChange → beeuni.yaml diagnostics updated
	// The fresh-server scenario: keystroke → its diagnostics, then a
	// completion and a hover, from freshDelay after opening beeuni.yaml in
	// a new server; FreshDuringScan of the keystrokes were typed before the
	// initial module scan had published everything, FreshScanDone ms after
	// the open.
	FreshKeystroke  Stats    `json:"fresh_keystroke"`
	FreshCompletion Stats    `json:"fresh_completion"`
	FreshHover      Stats    `json:"fresh_hover"`
	FreshDuringScan int      `json:"fresh_during_scan"`
	FreshScanDone   float64  `json:"fresh_scan_done_ms"`
	PeakRSS         int64    `json:"vmhwm_bytes"`
	RSSEnd          int64    `json:"vmrss_bytes"`
	HeapAfterGC     int64    `json:"heap_after_gc_bytes"` // -1: the server has no beeuni/debugMemory
	Notes           []string `json:"notes,omitempty"`
}
