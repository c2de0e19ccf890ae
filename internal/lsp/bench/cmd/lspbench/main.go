// Command lspbench measures beeuni-lsp end to end as an editor feels it: it
// builds the server (or takes -binary), generates workspaces of the given
// sizes, spawns the server over stdio on each and prints a table of min,
// median, p95 and max latencies, then one JSON line per workspace.
//
//	go run ./internal/lsp/bench/cmd/lspbench -tools 10,1000,10000
//
// It exits 1 when a measurement fails (an answer missing or wrong, the
// server crashing or timing out), 2 on bad flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strconv"
	"strings"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/lsp"
	"github.com/beeuni/beeuni-lsp/internal/lsp/bench"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lspbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	binary := fs.String("binary", "", "beeuni-lsp executable (default: go build ./cmd/beeuni-lsp)")
	sizes := fs.String("tools", "10,1000", "comma-separated workspace sizes (project tools)")
	edits := fs.Int("edits", 200, "keystrokes typed into beeuni.yaml")
	interval := fs.Duration("interval", 10*time.Millisecond, "time between keystrokes")
	requests := fs.Int("requests", 50, "samples per request kind")
	startups := fs.Int("startups", 3, "cold starts measured per workspace")
	moduleEdits := fs.Int("module-edits", 5, "times a tool module is broken and fixed")
	fresh := fs.Int("fresh", 20, "keystrokes typed into a fresh server 0.5 s after open, during its initial scan (-1: skip)")
	timeout := fs.Duration("timeout", 60*time.Second, "longest wait for any answer")
	dir := fs.String("dir", "", "generate workspaces here and keep them (default: temporary)")
	jsonOnly := fs.Bool("json", false, "print only the JSON lines")
	growth := fs.Bool("growth", false, "print the growth table (markdown) after the runs")
	verbose := fs.Bool("v", false, "print progress to stderr")
	inProcess := fs.Bool("inprocess", false, "run the server in this process on a pipe (for profiles) instead of spawning it")
	cpuProfile := fs.String("cpuprofile", "", "with -inprocess: write a CPU profile of -profile-phase to this file")
	memProfile := fs.String("memprofile", "", "with -inprocess: write allocation profiles of -profile-phase to FILE.base and FILE (compare with pprof -base)")
	traceFile := fs.String("trace", "", "with -inprocess: write an execution trace (runtime/trace) of -profile-phase to this file")
	profilePhase := fs.String("profile-phase", "typing", "phase to profile: fresh, startup, requests, module edits, typing, memory")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var ns []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fmt.Fprintf(stderr, "lspbench: bad -tools entry %q\n", s)
			return 2
		}
		ns = append(ns, n)
	}
	bin := *binary
	if bin == "" && !*inProcess {
		tmp, err := os.MkdirTemp("", "lspbench-bin-")
		if err != nil {
			fmt.Fprintf(stderr, "lspbench: %v\n", err)
			return 1
		}
		defer os.RemoveAll(tmp)
		if bin, err = build(ctx, tmp); err != nil {
			fmt.Fprintf(stderr, "lspbench: %v\n", err)
			return 1
		}
	}
	var logw io.Writer = io.Discard
	if *verbose {
		logw = stderr
	}
	var results []*bench.Result
	for _, n := range ns {
		opts := bench.Options{
			Binary: bin, Tools: n, Startups: *startups, Edits: *edits, Interval: *interval,
			Requests: *requests, ModuleEdits: *moduleEdits, FreshKeystrokes: *fresh, Timeout: *timeout, Log: logw,
		}
		if *dir != "" {
			opts.Dir = filepath.Join(*dir, fmt.Sprintf("tools-%d", n))
		}
		if *inProcess {
			opts.Serve = serveInProcess
			opts.Phase = profiler(*profilePhase, *cpuProfile, *memProfile, *traceFile, stderr)
		}
		res, err := bench.Run(ctx, opts)
		if err != nil {
			fmt.Fprintf(stderr, "lspbench: %d tools: %v\n", n, err)
			return 1
		}
		if !*jsonOnly {
			if err := bench.WriteTable(stdout, res); err != nil {
				fmt.Fprintf(stderr, "lspbench: %v\n", err)
				return 1
			}
		}
		if err := bench.WriteJSON(stdout, res); err != nil {
			fmt.Fprintf(stderr, "lspbench: %v\n", err)
			return 1
		}
		results = append(results, res)
	}
	if *growth {
		if err := bench.WriteGrowth(stdout, results); err != nil {
			fmt.Fprintf(stderr, "lspbench: %v\n", err)
			return 1
		}
	}
	return 0
}

// build compiles ./cmd/beeuni-lsp of the enclosing module into dir.
func build(ctx context.Context, dir string) (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "beeuni-lsp")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/beeuni-lsp")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/beeuni-lsp: %v\n%s", err, out)
	}
	return bin, nil
}

// moduleRoot finds the folder holding go.mod, from the working directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory: run from the repository or pass -binary")
		}
		dir = parent
	}
}

// serveInProcess runs the real server on conn, as the serve command does.
func serveInProcess(ctx context.Context, conn io.ReadWriteCloser) int {
	return lsp.New(lsp.Options{Log: io.Discard}).Run(ctx, conn)
}

// profiler returns a Phase hook that profiles the named phase: CPU into
// cpuFile, allocations into memFile.base (at the start) and memFile (at the
// end), an execution trace into traceFile.
func profiler(phase, cpuFile, memFile, traceFile string, stderr io.Writer) func(string) func() {
	writeAllocs := func(path string) {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintf(stderr, "lspbench: %v\n", err)
			return
		}
		defer f.Close()
		runtime.GC()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			fmt.Fprintf(stderr, "lspbench: allocation profile: %v\n", err)
		}
	}
	return func(name string) func() {
		if name != phase {
			return nil
		}
		var cpu *os.File
		if cpuFile != "" {
			f, err := os.Create(cpuFile)
			if err == nil {
				err = pprof.StartCPUProfile(f)
			}
			if err != nil {
				fmt.Fprintf(stderr, "lspbench: CPU profile: %v\n", err)
			} else {
				cpu = f
			}
		}
		var tr *os.File
		if traceFile != "" {
			f, err := os.Create(traceFile)
			if err == nil {
				err = trace.Start(f)
			}
			if err != nil {
				fmt.Fprintf(stderr, "lspbench: trace: %v\n", err)
			} else {
				tr = f
			}
		}
		if memFile != "" {
			writeAllocs(memFile + ".base")
		}
		return func() {
			if cpu != nil {
				pprof.StopCPUProfile()
				cpu.Close()
			}
			if tr != nil {
				trace.Stop()
				tr.Close()
			}
			if memFile != "" {
				writeAllocs(memFile)
			}
		}
	}
}
