package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// loadCounter counts the project loads made through it: every load reads
// the project's imported file probe once (a change's load too: no fix
// edits it), and starts by resolving the root (EvalSymlinks), which a
// load stopped by its context before it reads the import does too. The
// server reads through it only for a client without file watchers (with
// them, the disk cache answers). hold makes a load wait at the probe.
type loadCounter struct {
	vfs.FS
	root, probe string

	mu          sync.Mutex
	loads       int // reads of probe
	resolutions int // resolutions of root
	// holdAt is the read of probe that waits (loads counts it) until
	// release is closed, after closing held; 0: none.
	holdAt        int
	held, release chan struct{}
}

func (c *loadCounter) ReadFile(p string) ([]byte, error) {
	if p == c.probe {
		c.mu.Lock()
		c.loads++
		wait := c.loads == c.holdAt
		c.mu.Unlock()
		if wait {
			close(c.held)
			<-c.release
		}
	}
	return c.FS.ReadFile(p)
}

func (c *loadCounter) EvalSymlinks(p string) (string, error) {
	if p == c.root {
		c.mu.Lock()
		c.resolutions++
		c.mu.Unlock()
	}
	return c.FS.EvalSymlinks(p)
}

// counts returns the loads and the resolutions of the root made so far.
func (c *loadCounter) counts() (loads, resolutions int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.loads, c.resolutions
}

// hold makes the kth load from now wait at the probe until release is
// called; held is closed once it waits.
func (c *loadCounter) hold(k int) (held <-chan struct{}, release func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.holdAt = c.loads + k
	c.held, c.release = make(chan struct{}), make(chan struct{})
	return c.held, sync.OnceFunc(func() { close(c.release) })
}

// selectionWorkspace is a project of tools project tools, with their
// modules, and an import, whose agents each name the same tool, which has
// a finding in every agent: a misspelt name (A1, one fix per finding, all
// titled "Replace tool_00001 with ..."), or a Beeuni tool the project does
// not load (A2: one fix adds it, the same for every finding; another
// removes it from its agent). It returns the manifest's text.
func selectionWorkspace(tools, agents int, name string) (*vfs.Mem, string) {
	fsys := vfs.NewMem()
	var b strings.Builder
	b.WriteString("imports: [more.yaml]\ntools:\n  web_search: beeuni:web_search\n")
	for i := 0; i < tools; i++ {
		fmt.Fprintf(&b, "  tool_%04d: tools/tool_%04d.ts\n", i, i)
		fsys.WriteFile(fmt.Sprintf("/ws/tools/tool_%04d.ts", i), []byte("export default {}\n"))
	}
	b.WriteString("agents:\n")
	for i := 0; i < agents; i++ {
		fmt.Fprintf(&b, "  agent_%d:\n    tools: [read, %s]\n", i, name)
	}
	fsys.WriteFile("/ws/beeuni.yaml", []byte(b.String()))
	fsys.WriteFile("/ws/more.yaml", []byte("agents:\n  helper:\n    tools: [read]\n"))
	return fsys, b.String()
}

// countingSession serves fsys, its manifest (text) open, to a client
// without file watchers, through a loadCounter.
func countingSession(t testing.TB, fsys vfs.FS, text string) (*session, *loadCounter) {
	t.Helper()
	counter := &loadCounter{FS: fsys, root: "/ws", probe: "/ws/more.yaml"}
	s := startSession(t, counter, idleHook())
	caps := clientCaps(UTF16)
	delete(caps["workspace"].(map[string]any), "didChangeWatchedFiles")
	s.initialize(initParams(map[string]any{"capabilities": caps, "workspaceFolders": []map[string]any{{"uri": "file:///ws", "name": "ws"}}}))
	s.open("/ws/beeuni.yaml", text)
	s.idle()
	return s, counter
}

// selectAgents is the code action request over the agents section, to
// the end of the file, asking for the kinds only (all when empty).
func selectAgents(text string, only ...string) map[string]any {
	ctx := map[string]any{"diagnostics": []any{}}
	if len(only) > 0 {
		ctx["only"] = only
	}
	return map[string]any{
		"textDocument": map[string]any{"uri": "file:///ws/beeuni.yaml"},
		"range": protocol.Range{
			Start: refPosition([]byte(text), strings.Index(text, "agents:"), UTF16),
			End:   refPosition([]byte(text), len(text), UTF16),
		},
		"context": ctx,
	}
}

// A selection over many findings (Select All in VS Code, a visual-mode
// code action in Neovim) loads the project at most once per distinct
// action it offers, not once per finding: n findings whose fixes share
// one title cost one load; none when the request asks only for kinds
// other than quick fixes.
func TestCodeActionOverASelectionLoadsOncePerDistinctFix(t *testing.T) {
	const n = 30
	for _, tc := range []struct {
		name, tool string
		only       []string
		want       []string // the titles of the quick fixes offered
	}{
		{name: "one misspelt name in every agent", tool: "tool_00001", want: []string{"Replace tool_00001 with tool_0000"}},
		{name: "a Beeuni tool not loaded, in every agent", tool: "show", want: func() []string {
			out := []string{"Add `show: beeuni:show` under tools: in beeuni.yaml"}
			for i := 0; i < n; i++ {
				out = append(out, fmt.Sprintf("Remove show from the tools of agent agent_%d", i))
			}
			return out
		}()},
		{name: "only source actions asked for", tool: "tool_00001", only: []string{"source"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys, text := selectionWorkspace(5, n, tc.tool)
			s, counter := countingSession(t, fsys, text)
			before, _ := counter.counts()
			var actions []codeActionJSON
			s.call("textDocument/codeAction", selectAgents(text, tc.only...), &actions)
			after, _ := counter.counts()
			loads := after - before
			var got []string
			for _, a := range actions {
				if a.Kind == "quickfix" {
					got = append(got, a.Title)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("quick fixes offered:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if len(got) > 0 && !actions[0].IsPreferred {
				t.Errorf("%s: not preferred", actions[0].Title)
			}
			if loads > len(tc.want) {
				t.Errorf("%d findings, %d distinct fixes: the project was loaded %d times, want at most %d", n, len(tc.want), loads, len(tc.want))
			}
		})
	}
}

// A cancelled code action stops at once: the load under way when the
// cancel comes (its second) is the last one, no other starts, and the
// answer is RequestCancelled.
func TestCancelledCodeActionStopsLoading(t *testing.T) {
	const n = 30
	fsys, text := selectionWorkspace(5, n, "show") // n+1 distinct fixes to check
	s, counter := countingSession(t, fsys, text)
	held, release := counter.hold(2)
	defer release()
	id := s.start("textDocument/codeAction", selectAgents(text))
	<-held
	s.notify("$/cancelRequest", map[string]any{"id": json.RawMessage(id)})
	// The reading goroutine handles the cancel before it reads the next
	// request: once this one is answered, the cancel has been handled.
	s.call("textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": "file:///ws/beeuni.yaml"},
		"position":     protocol.Position{},
	}, nil)
	_, atCancel := counter.counts()
	release()
	m := s.answer(id)
	if _, after := counter.counts(); after > atCancel {
		t.Errorf("%d project loads started after the cancel, want none", after-atCancel)
	}
	if m.Error == nil || m.Error.Code != int(codeRequestCancelled) {
		t.Errorf("cancelled code action answered %s %+v, want RequestCancelled", m.Result, m.Error)
	}
}

// A code action (or its resolve) whose context has ended does no work:
// no load, and the context's error (the server answers RequestCancelled).
func TestCodeActionWithItsContextEndedLoadsNothing(t *testing.T) {
	fsys, text := selectionWorkspace(5, 10, "show")
	s, counter := countingSession(t, fsys, text)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	resolve := map[string]any{
		"title": "Add `show: beeuni:show` under tools: in beeuni.yaml", "kind": "quickfix",
		"data": applyChangeArgs{URI: "file:///ws/beeuni.yaml", Range: selectAgents(text)["range"].(protocol.Range), Title: "Add `show: beeuni:show` under tools: in beeuni.yaml"},
	}
	for _, tc := range []struct {
		method string
		params any
	}{
		{"textDocument/codeAction", selectAgents(text)},
		{methodCodeActionResolve, resolve},
	} {
		params, err := json.Marshal(tc.params)
		if err != nil {
			t.Fatal(err)
		}
		_, before := counter.counts()
		res, err := s.srv.requests[tc.method].handler(ctx, s.srv, s.srv.currentView(), params)
		if err == nil {
			t.Errorf("%s with its context cancelled: answered a %T, want the context's error", tc.method, res)
		}
		if _, after := counter.counts(); after > before {
			t.Errorf("%s with its context cancelled: %d project loads, want none", tc.method, after-before)
		}
	}
}
