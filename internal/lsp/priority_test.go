package lsp

import (
	"context"
	"testing"
	"time"
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
