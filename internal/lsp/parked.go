package lsp

import (
	"context"
	"sync"
)

// parkedGoroutines runs jobs on background goroutines that, once a job
// ends, park until the next instead of ending. A YAML worker's load is
// deep (yaml.v3's parser recurses through the manifest's nesting), and a
// new goroutine grows its stack from 8 KB by copying it over again at
// each doubling, on every keystroke: about 6 % of a 1,000-tool
// keystroke's CPU (docs/performance.md, "Stdin through the poller, parked
// YAML workers"). A parked goroutine keeps its stack until the collector
// shrinks it.
//
// There are never more goroutines than jobs that ran at once; they end
// when the server stops.
type parkedGoroutines struct {
	s    *Server
	name string // the task's name in panic reports
	jobs chan func(context.Context)

	mu   sync.Mutex
	idle int // goroutines parked, or about to, on jobs
}

func newParkedGoroutines(s *Server, name string) *parkedGoroutines {
	return &parkedGoroutines{s: s, name: name, jobs: make(chan func(context.Context))}
}

// run runs f on a parked goroutine, or on a new one when none is parked.
// A panic in f is recovered and logged; the goroutine goes on.
func (p *parkedGoroutines) run(f func(ctx context.Context)) {
	if p.s.isStopping() {
		return // as goBackground: no new work once Run is returning
	}
	p.mu.Lock()
	if p.idle > 0 {
		p.idle--
		p.mu.Unlock()
		select {
		case p.jobs <- f:
		case <-p.s.bg.Done(): // stopping: the parked goroutines end
		}
		return
	}
	p.mu.Unlock()
	p.s.goBackground(p.name, func(ctx context.Context) {
		for {
			_, _ = p.s.recovered(p.name, func() (any, error) { f(ctx); return nil, nil })
			f = nil // parked, it holds nothing of the last job
			p.mu.Lock()
			p.idle++
			p.mu.Unlock()
			select {
			case f = <-p.jobs:
			case <-ctx.Done():
				return
			}
		}
	})
}

// parked returns the number of goroutines parked.
func (p *parkedGoroutines) parked() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.idle
}
