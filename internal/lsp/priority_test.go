package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

func TestInteractiveYieldWaitsForTheWorkUnderWay(t *testing.T) {
	var p interactive
	if err := p.yield(context.Background(), ""); err != nil {
		t.Fatalf("yield while idle: %v", err)
	}
	endA := p.begin()
	endB := p.begin()
	returned := make(chan struct{})
	go func() {
		_ = p.yield(context.Background(), "")
		close(returned)
	}()
	endA()
	endA() // a second call of the same end changes nothing
	select {
	case <-returned:
		t.Fatal("yield returned while one piece of interactive work was still under way")
	case <-time.After(maxYield / 4):
	}
	endB()
	select {
	case <-returned:
	case <-time.After(10 * maxYield):
		t.Fatal("yield did not return once the interactive work was done")
	}
}

// A burst of interactive work is served whole: right after a request or a
// YAML pass ends, the next module waits out quiet for the next piece of
// the burst. (Timers never fire early, so the lower bound is exact.)
func TestInteractiveYieldWaitsOutTheQuietAfterWork(t *testing.T) {
	var p interactive
	for _, c := range []struct {
		name, root string
		begin      func() func()
	}{
		{"a request", "", p.begin},
		{"a YAML pass", "/a", func() func() { return p.beginProject("/a") }},
	} {
		end := c.begin()
		start := time.Now()
		end()
		if err := p.yield(context.Background(), c.root); err != nil {
			t.Fatalf("yield after %s: %v", c.name, err)
		}
		if waited := time.Since(start); waited < quiet {
			t.Errorf("yield returned %v after %s ended, want at least %v", waited, c.name, quiet)
		}
	}
}

func TestInteractiveYieldIsBounded(t *testing.T) {
	var p interactive
	end := p.begin()
	defer end()
	returned := make(chan struct{})
	go func() {
		_ = p.yield(context.Background(), "")
		close(returned)
	}()
	select {
	case <-returned:
	case <-time.After(20 * maxYield):
		t.Fatal("yield waited far longer than maxYield for work that never ends")
	}
}

func TestInteractiveYieldHonoursCancellation(t *testing.T) {
	var p interactive
	end := p.begin()
	defer end()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := p.yield(ctx, ""); err == nil {
		t.Fatal("yield on a cancelled context returned no error")
	}
}

// A project's YAML pass holds back that project's inspection only: a long
// analysis of one project never slows another's modules.
func TestInteractiveYAMLPassHoldsItsOwnProjectOnly(t *testing.T) {
	var p interactive
	endA := p.beginProject("/a")
	other := make(chan struct{})
	go func() {
		_ = p.yield(context.Background(), "/b")
		close(other)
	}()
	select {
	case <-other:
	case <-time.After(maxYield / 2):
		t.Fatal("project B's inspection waited for project A's YAML pass")
	}
	own := make(chan struct{})
	go func() {
		_ = p.yield(context.Background(), "/a")
		close(own)
	}()
	select {
	case <-own:
		t.Fatal("project A's inspection did not wait for its own YAML pass")
	case <-time.After(maxYield / 4):
	}
	endA()
	select {
	case <-own:
	case <-time.After(10 * maxYield):
		t.Fatal("project A's inspection still waited once its YAML pass was done")
	}
}

// requestsUnderWay is the gate's count of interactive requests.
func requestsUnderWay(p *interactive) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.requests
}

// The gate reads each request's class where it is registered: an
// interactive request holds module inspection back while it runs; a
// command waiting for the client's workspace/applyEdit answer does not.
func TestInteractiveGateFollowsTheRegisteredClass(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "beeuni.yaml")
	if err := os.WriteFile(manifest, []byte(actionsManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	held, release := make(chan struct{}), make(chan struct{})
	hooks := idleHook()
	hooks["beeuni/test.hold"] = requestRoute{class: interactiveWork, handler: func(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
		close(held)
		<-release
		return nil, nil
	}}
	s := startSession(t, vfs.NewDisk(), hooks)
	caps := clientCaps(UTF16)
	caps["workspace"].(map[string]any)["workspaceEdit"] = map[string]any{"documentChanges": true}
	s.initialize(initParams(map[string]any{"capabilities": caps, "workspaceFolders": []any{map[string]any{"uri": string(pathToURI(dir)), "name": "ws"}}}))
	s.open(manifest, actionsManifest)
	s.idle()
	gate := &s.srv.interactive

	// An interactive request holds inspection back while it runs.
	id := s.start("beeuni/test.hold", nil)
	<-held
	if n := requestsUnderWay(gate); n != 1 {
		t.Errorf("%d interactive requests counted while one runs, want 1", n)
	}
	yielded := make(chan struct{})
	go func() {
		_ = gate.yield(context.Background(), "")
		close(yielded)
	}()
	select {
	case <-yielded:
		t.Error("module inspection did not wait for an interactive request under way")
	case <-time.After(maxYield / 4):
	}
	close(release)
	s.answer(id)
	<-yielded

	// A command waiting for the client's answer to workspace/applyEdit
	// holds nothing back.
	eject := findAction(s.codeActions(manifest, actionsManifest, "web_search: beeuni"), "web_search")
	if eject == nil || eject.Command == nil || eject.Command.Command != CommandEject {
		t.Fatalf("no eject command to run; got %+v", eject)
	}
	asked, answer := make(chan struct{}), make(chan struct{})
	s.serverCalls["workspace/applyEdit"] = func(json.RawMessage) any {
		close(asked)
		<-answer
		return map[string]any{"applied": true}
	}
	id = s.start("workspace/executeCommand", map[string]any{"command": CommandEject, "arguments": eject.Command.Arguments})
	<-asked
	if n := requestsUnderWay(gate); n != 0 {
		t.Errorf("%d interactive requests counted while only a command waits for workspace/applyEdit, want 0", n)
	}
	start := time.Now()
	if err := gate.yield(context.Background(), ""); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited >= maxYield {
		t.Errorf("module inspection waited %v for a command waiting on the client", waited)
	}
	close(answer)
	if got := s.answer(id); got.Error != nil {
		t.Errorf("eject: %+v", got.Error)
	}
}
