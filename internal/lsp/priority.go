package lsp

import (
	"context"
	"sync"
	"time"
)

// interactive counts the work a user is waiting for (a YAML pass after a
// keystroke, a completion, a hover, any request) so that background work,
// the module inspection, can step aside for it: an inspection worker calls
// yield before each module, and yield returns once no interactive work is
// under way. A worker never waits longer than maxYield for one module, so a
// client that keeps the server busy forever still gets its modules
// inspected, only more slowly.
type interactive struct {
	mu   sync.Mutex
	busy int
	idle chan struct{} // closed when busy drops to 0; nil while idle
}

// maxYield bounds one wait of an inspection worker for interactive work.
const maxYield = 100 * time.Millisecond

// begin marks interactive work as under way; the function it returns marks
// it done, and must be called exactly once.
func (p *interactive) begin() (end func()) {
	p.mu.Lock()
	p.busy++
	if p.idle == nil {
		p.idle = make(chan struct{})
	}
	p.mu.Unlock()
	var once sync.Once
	return func() { once.Do(p.done) }
}

func (p *interactive) done() {
	p.mu.Lock()
	p.busy--
	if p.busy == 0 {
		close(p.idle)
		p.idle = nil
	}
	p.mu.Unlock()
}

// yield waits until no interactive work is under way, maxYield at most, or
// ctx is done (then it returns ctx's error).
func (p *interactive) yield(ctx context.Context) error {
	p.mu.Lock()
	idle := p.idle
	p.mu.Unlock()
	if idle == nil {
		return ctx.Err()
	}
	t := time.NewTimer(maxYield)
	defer t.Stop()
	select {
	case <-idle:
	case <-t.C:
	case <-ctx.Done():
	}
	return ctx.Err()
}
