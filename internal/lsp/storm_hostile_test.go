package lsp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/lsp"
	"github.com/beeuni/beeuni-lsp/internal/lsp/jsonrpcframe"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// TestStorm runs several clients' worth of traffic through servers in one
// process, each client on its own project: thousands of incremental
// changes across the root manifest and the files it imports, with
// requests in flight and most of a third of them cancelled. At the end
// every file's last published diagnostics must be exactly the engine's
// findings for its final text; every request must have had exactly one
// answer; the goroutines must be back to their count before the storm and
// the heap near its size before.
func TestStorm(t *testing.T) {
	const (
		clients = 4
		files   = 5 // the root manifest and four imports, all open
		changes = 2000
	)
	fsys := vfs.NewMem()
	for c := range clients {
		root := fmt.Sprintf("/storm/ws%d", c)
		fsys.WriteFile(root+"/tools/present.ts", []byte("export default {}\n"))
		for f := range files {
			fsys.WriteFile(stormFile(root, f), []byte(stormInitial(f)))
		}
	}
	runtime.GC()
	debug.FreeOSMemory()
	goroutinesBefore := runtime.NumGoroutine()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runStormClient(t, fsys, fmt.Sprintf("/storm/ws%d", c), uint64(c), files, changes)
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	// Every server has returned from Run; their goroutines must end too.
	deadline := time.Now().Add(30 * time.Second)
	for runtime.NumGoroutine() > goroutinesBefore && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > goroutinesBefore {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines after the storm, %d before:\n%s", n, goroutinesBefore, buf[:runtime.Stack(buf, true)])
	}
	runtime.GC()
	debug.FreeOSMemory()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	const slack = 32 << 20
	if after.HeapInuse > before.HeapInuse+slack {
		t.Errorf("heap in use %d MB after the storm, %d MB before", after.HeapInuse>>20, before.HeapInuse>>20)
	}
	t.Logf("%d clients × %d changes; goroutines %d → %d; heap in use %d → %d KB",
		clients, changes, goroutinesBefore, runtime.NumGoroutine(), before.HeapInuse>>10, after.HeapInuse>>10)
}

func stormFile(root string, f int) string {
	if f == 0 {
		return root + "/beeuni.yaml"
	}
	return fmt.Sprintf("%s/lib/part%d.yaml", root, f)
}

func stormInitial(f int) string {
	if f == 0 {
		return "imports: [lib/part1.yaml, lib/part2.yaml, lib/part3.yaml, lib/part4.yaml]\ntools:\n  web_search: beeuni:web_search\n"
	}
	return fmt.Sprintf("tools:\n  tool%d: tools/present.ts\n", f)
}

// stormLines are the lines edits insert: valid entries, broken names,
// duplicates across files, bad values, agents naming unknown tools, and
// broken YAML.
var stormLines = []string{
	"  lookup_%d: tools/present.ts\n", "  Bad%d: tools/present.ts\n", "  missing_%d: tools/missing%d.ts\n",
	"  dup: tools/present.ts\n", "  show: beeuni:show\n", "  bash: tools/present.ts\n", "  value_%d: 42\n",
	"agents:\n  a%d:\n    tools: [web_serch, show]\n", "  broken: [\n", "  # a comment %d\n", "  web_search: beeuni:web_search\n",
}

// stormRootLines keep the root manifest parseable: one entry per line.
var stormRootLines = []string{
	"  root_%d: tools/present.ts\n", "  Root%d: tools/present.ts\n", "  dup: tools/present.ts\n", "  image_search: beeuni:image_search\n",
	"  gone_%d: tools/gone.ts\n", "  memory: beeuni:show\n", "  # %d\n",
}

// stormClient is one editor: a server on an in-memory pipe, the text of
// each open file as the editor has it, and every message received.
type stormClient struct {
	t       *testing.T
	w       io.Writer
	wmu     sync.Mutex
	mu      sync.Mutex
	cond    *sync.Cond
	answer  map[int]int // request id → answers received
	diags   map[string]json.RawMessage
	readErr error
}

func runStormClient(t *testing.T, fsys vfs.FS, root string, seed uint64, files, changes int) {
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	srv := lsp.New(lsp.Options{FS: fsys})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- srv.Run(ctx, pipeConn{serverIn, serverOut}) }()
	c := &stormClient{t: t, w: clientOut, answer: map[int]int{}, diags: map[string]json.RawMessage{}}
	c.cond = sync.NewCond(&c.mu)
	go c.read(clientIn)

	rng := rand.New(rand.NewPCG(seed, 99))
	id := 0
	call := func(method string, params any) int {
		id++
		c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		return id
	}
	notify := func(method string, params any) {
		c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	}
	opts := map[string]any{"inspectModules": false}
	call("initialize", map[string]any{"processId": nil, "rootUri": "file://" + root, "initializationOptions": opts,
		"capabilities": map[string]any{"textDocument": map[string]any{"publishDiagnostics": map[string]any{"versionSupport": true}}}})
	notify("initialized", map[string]any{})
	texts := make([]string, files)
	versions := make([]int, files)
	for f := range files {
		texts[f] = stormInitial(f)
		versions[f] = 1
		notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file://" + stormFile(root, f), "languageId": "yaml", "version": 1, "text": texts[f]}})
	}
	var requests []int
	for i := range changes {
		f := rng.IntN(files)
		text := texts[f]
		lines := strings.SplitAfter(text, "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		// Edit one line range, as an editor would: insert a line, delete
		// a line (never the first), or replace part of a line.
		var startLine, endLine, startChar, endChar int
		var insert string
		// The root manifest keeps valid YAML (single entry lines only), so
		// that its imports stay loaded; the imported files get anything.
		pool, ops := stormLines, 3
		if f == 0 {
			pool, ops = stormRootLines, 2
		}
		switch op := rng.IntN(ops); {
		case op == 0 || len(lines) < 3:
			startLine = 1 + rng.IntN(len(lines))
			endLine = startLine
			line := pool[rng.IntN(len(pool))]
			insert = strings.ReplaceAll(line, "%d", strconv.Itoa(rng.IntN(5)))
		case op == 1:
			startLine = 1 + rng.IntN(len(lines)-1)
			endLine = startLine + 1
		default:
			startLine = 1 + rng.IntN(len(lines)-1)
			endLine = startLine
			n := len(strings.TrimSuffix(lines[startLine], "\n"))
			startChar = rng.IntN(n + 1)
			endChar = startChar + rng.IntN(n-startChar+1)
			insert = []string{"", "x", "_", ":", " ", "y2"}[rng.IntN(6)]
		}
		offset := func(line, char int) int {
			o := 0
			for l := 0; l < line && l < len(lines); l++ {
				o += len(lines[l])
			}
			return o + char
		}
		start, end := offset(startLine, startChar), offset(endLine, endChar)
		texts[f] = text[:start] + insert + text[end:]
		versions[f]++
		notify("textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": "file://" + stormFile(root, f), "version": versions[f]},
			"contentChanges": []map[string]any{{
				"range": map[string]any{"start": map[string]any{"line": startLine, "character": startChar}, "end": map[string]any{"line": endLine, "character": endChar}},
				"text":  insert,
			}},
		})
		if i%4 == 0 {
			at := map[string]any{"textDocument": map[string]any{"uri": "file://" + stormFile(root, f)}, "position": map[string]any{"line": rng.IntN(8), "character": rng.IntN(12)}}
			method := []string{"textDocument/hover", "textDocument/completion", "textDocument/documentSymbol", "textDocument/definition", "textDocument/references"}[rng.IntN(5)]
			r := call(method, at)
			requests = append(requests, r)
			if rng.IntN(3) == 0 {
				notify("$/cancelRequest", map[string]any{"id": r})
			}
		}
	}
	// The final text of every file, as the engine sees it.
	final := vfs.NewOverlay(fsys)
	for f := range files {
		final.Set(stormFile(root, f), []byte(texts[f]))
	}
	proj, err := analysis.Load(context.Background(), final, root)
	if err != nil {
		t.Error(err)
		return
	}
	want := map[string]string{}
	for f := range files {
		want["file://"+stormFile(root, f)] = expectedDiagnostics(proj, stormFile(root, f), versions[f])
	}
	withFindings := 0
	for _, w := range want {
		if !strings.HasSuffix(w, " ") {
			withFindings++
		}
	}
	if withFindings == 0 {
		t.Errorf("%s: no file ends with findings: the storm checks nothing", root)
	}
	// A file with findings must show exactly them, at its final version.
	// A file without shows none: no diagnostics published, or an empty set
	// (whose version may be older: a file that left the project is cleared
	// once, and its later edits have nothing to confirm).
	matches := func(uri, w string) bool {
		got := canonicalDiagnostics(c.diags[uri])
		if strings.HasSuffix(w, " ") {
			return got == "(none)" || strings.HasSuffix(got, " ")
		}
		return got == w
	}
	c.waitFor(func() bool {
		for uri, w := range want {
			if !matches(uri, w) {
				return false
			}
		}
		return true
	}, func() string {
		var b strings.Builder
		for uri, w := range want {
			if got := canonicalDiagnostics(c.diags[uri]); !matches(uri, w) {
				fmt.Fprintf(&b, "%s:\n got  %s\n want %s\n", uri, got, w)
			}
		}
		for f := range files {
			fmt.Fprintf(&b, "--- final text of %s:\n%s", stormFile(root, f), texts[f])
		}
		return b.String()
	})
	c.waitFor(func() bool {
		for _, r := range requests {
			if c.answer[r] == 0 {
				return false
			}
		}
		return true
	}, func() string { return "requests without an answer" })
	for _, r := range requests {
		if n := c.answer[r]; n != 1 {
			t.Errorf("%s: request %d answered %d times", root, r, n)
		}
	}
	shutdown := call("shutdown", nil)
	c.waitFor(func() bool { return c.answer[shutdown] > 0 }, func() string { return "no answer to shutdown" })
	notify("exit", nil)
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("%s: Run returned %d after shutdown and exit", root, code)
		}
	case <-time.After(30 * time.Second):
		t.Errorf("%s: Run did not return after exit", root)
	}
	clientOut.Close()
	clientIn.Close()
}

type pipeConn struct {
	*io.PipeReader
	*io.PipeWriter
}

func (p pipeConn) Close() error {
	p.PipeReader.Close()
	return p.PipeWriter.Close()
}

func (c *stormClient) send(msg any) {
	data, err := json.Marshal(msg)
	if err != nil {
		c.t.Error(err)
		return
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, _ = c.w.Write(jsonrpcframe.Append(nil, data))
}

func (c *stormClient) read(r io.Reader) {
	in := bufio.NewReader(r)
	for {
		body, err := jsonrpcframe.Read(in)
		if err != nil {
			c.fail(err)
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(body, &m); err != nil {
			c.fail(err)
			return
		}
		switch {
		case m.Method == "textDocument/publishDiagnostics":
			var p struct {
				URI string `json:"uri"`
			}
			_ = json.Unmarshal(m.Params, &p)
			c.mu.Lock()
			c.diags[p.URI] = m.Params
			c.mu.Unlock()
		case m.Method != "" && m.ID != nil: // a request of the server's
			var result any
			if m.Method == "workspace/configuration" {
				result = []any{map[string]any{"inspectModules": false}}
			}
			go c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
		case m.Method == "":
			n, _ := strconv.Atoi(string(m.ID))
			c.mu.Lock()
			c.answer[n]++
			c.mu.Unlock()
		}
		c.cond.Broadcast()
	}
}

func (c *stormClient) fail(err error) {
	c.mu.Lock()
	if c.readErr == nil {
		c.readErr = err
	}
	c.mu.Unlock()
	c.cond.Broadcast()
}

// waitFor waits until ok holds (checked under the lock after each
// message), failing with describe() after a generous bound: a hang guard.
func (c *stormClient) waitFor(ok func() bool, describe func() string) {
	stop := time.AfterFunc(time.Minute, c.cond.Broadcast)
	defer stop.Stop()
	deadline := time.Now().Add(time.Minute)
	c.mu.Lock()
	defer c.mu.Unlock()
	for !ok() {
		if c.readErr != nil || time.Now().After(deadline) {
			c.t.Errorf("storm: %v\n%s", c.readErr, describe())
			return
		}
		c.cond.Wait()
	}
}

// expectedDiagnostics renders the engine's findings for path the way the
// comparison reads published ones: sorted "line:col-line:col code message"
// entries, and the version.
func expectedDiagnostics(p *analysis.Project, path string, version int) string {
	var out []string
	for _, f := range p.Findings {
		if f.File != filepath.Clean(path) {
			continue
		}
		// ASCII text: UTF-16 columns are byte columns.
		out = append(out, fmt.Sprintf("%d:%d-%d:%d %s %s", f.Range.Start.Line, f.Range.Start.Col, f.Range.End.Line, f.Range.End.Col, f.Code, f.Message))
	}
	sort.Strings(out)
	return fmt.Sprintf("v%d %s", version, strings.Join(out, " | "))
}

func canonicalDiagnostics(raw json.RawMessage) string {
	var p struct {
		Version     *int `json:"version"`
		Diagnostics []struct {
			Range struct {
				Start struct{ Line, Character int } `json:"start"`
				End   struct{ Line, Character int } `json:"end"`
			} `json:"range"`
			Code    json.RawMessage `json:"code"`
			Message string          `json:"message"`
		} `json:"diagnostics"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return "(none)"
	}
	var out []string
	for _, d := range p.Diagnostics {
		var code string
		_ = json.Unmarshal(d.Code, &code)
		out = append(out, fmt.Sprintf("%d:%d-%d:%d %s %s", d.Range.Start.Line, d.Range.Start.Character, d.Range.End.Line, d.Range.End.Character, code, d.Message))
	}
	sort.Strings(out)
	v := -1
	if p.Version != nil {
		v = *p.Version
	}
	return fmt.Sprintf("v%d %s", v, strings.Join(out, " | "))
}
