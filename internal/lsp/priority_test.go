package lsp

import (
	"context"
	"testing"
	"time"
)

func TestInteractiveYieldWaitsForTheWorkUnderWay(t *testing.T) {
	var p interactive
	if err := p.yield(context.Background()); err != nil {
		t.Fatalf("yield while idle: %v", err)
	}
	endA := p.begin()
	endB := p.begin()
	returned := make(chan struct{})
	go func() {
		_ = p.yield(context.Background())
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
		_ = p.yield(context.Background())
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
	if err := p.yield(ctx); err == nil {
		t.Fatal("yield on a cancelled context returned no error")
	}
}
