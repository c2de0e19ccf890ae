package lsp

import (
	"context"
	"testing"
	"time"
)

// waitParked waits until n goroutines of p are parked: as many as were
// started, since each started goroutine parks when its job ends.
func waitParked(t *testing.T, p *parkedGoroutines, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if p.parked() == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines parked, want %d", p.parked(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestParkedGoroutinesReused(t *testing.T) {
	s := New(Options{})
	defer s.stopBg()
	p := newParkedGoroutines(s, "test")
	done := make(chan int, 4)
	p.run(func(context.Context) { done <- 1 })
	<-done
	waitParked(t, p, 1)
	// A job after the first ends runs on its goroutine, even after a panic.
	p.run(func(context.Context) { panic("boom") })
	waitParked(t, p, 1)
	p.run(func(context.Context) { done <- 2 })
	if got := <-done; got != 2 {
		t.Fatalf("ran job %d", got)
	}
	waitParked(t, p, 1) // one goroutine for jobs run one after another
	// Jobs at once get a goroutine each.
	release := make(chan struct{})
	for i := 0; i < 3; i++ {
		p.run(func(context.Context) { <-release; done <- 3 })
	}
	close(release)
	for i := 0; i < 3; i++ {
		<-done
	}
	waitParked(t, p, 3) // one goroutine for each of 3 jobs at once
}

func TestParkedGoroutinesEndWithTheServer(t *testing.T) {
	s := New(Options{})
	p := newParkedGoroutines(s, "test")
	p.run(func(context.Context) {})
	waitParked(t, p, 1)
	s.stopBg()
	ended := make(chan struct{})
	go func() { s.bgTasks.Wait(); close(ended) }()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("a parked goroutine outlived the server's background context")
	}
	// Stopped: a job handed to the pool does not block its caller.
	p.run(func(context.Context) {})
}

func TestParkedGoroutinesStartNothingOnceStopping(t *testing.T) {
	s := New(Options{})
	defer s.stopBg()
	p := newParkedGoroutines(s, "test")
	p.run(func(context.Context) {})
	waitParked(t, p, 1)
	// Run is returning but the background context is not cancelled yet:
	// a parked goroutine must not take a new load that delays the stop.
	s.mu.Lock()
	s.stopping = true
	s.mu.Unlock()
	ran := make(chan struct{}, 1)
	p.run(func(context.Context) { ran <- struct{}{} })
	select {
	case <-ran:
		t.Fatal("a job started while the server was stopping")
	case <-time.After(50 * time.Millisecond):
	}
}
