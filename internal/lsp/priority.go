package lsp

import (
	"context"
	"sync"
	"time"
)

// interactive counts the work a user is waiting for, so that background
// work, the module inspection, can step aside for it: an inspection worker
// calls yield before each module it inspects, and yield returns once no
// such work is under way. The requests that count are those registered as
// interactiveWork (server.go, register); they count for every project (a
// completion may be in any); a project's YAML pass counts only for that project's
// inspection, so that a long analysis of one project never slows another's
// modules. Once the work is done, yield still waits until none has ended
// for quiet, so that a burst of it (a keystroke, then the completion and
// hover the editor asks for) is served whole before a module starts. A
// worker never waits longer than maxYield for one module, so a client that
// keeps the server busy forever still gets its modules inspected, only
// more slowly.
type interactive struct {
	mu       sync.Mutex
	requests int                  // requests under way
	projects map[string]int       // YAML passes under way, by project root
	ended    time.Time            // when the last request ended
	passEnds map[string]time.Time // when each project's last YAML pass ended
	changed  chan struct{}        // closed (and replaced) when a piece of work ends
}

// maxYield bounds one wait of an inspection worker for interactive work.
const maxYield = 100 * time.Millisecond

// quiet is how long after a piece of interactive work ends an inspection
// worker still waits for the next. A module inspection started between
// two requests of a burst runs beside the second: it takes the second
// core, and its allocations (esbuild's, hundreds of KB a module) start
// collections that the request then helps with. Measured in
// docs/performance.md ("What keeps a keystroke cheap": interactive work
// first).
const quiet = 5 * time.Millisecond

// begin marks a request as under way; the function it returns marks it
// done (calling it again does nothing).
func (p *interactive) begin() (end func()) { return p.start("") }

// beginProject marks a YAML pass of the project at root as under way.
func (p *interactive) beginProject(root string) (end func()) { return p.start(root) }

func (p *interactive) start(root string) func() {
	p.mu.Lock()
	if root == "" {
		p.requests++
	} else {
		if p.projects == nil {
			p.projects = map[string]int{}
		}
		p.projects[root]++
	}
	p.mu.Unlock()
	var once sync.Once
	return func() { once.Do(func() { p.done(root) }) }
}

func (p *interactive) done(root string) {
	p.mu.Lock()
	now := time.Now()
	if root == "" {
		p.requests--
		p.ended = now
	} else {
		if p.projects[root]--; p.projects[root] == 0 {
			delete(p.projects, root)
		}
		if p.passEnds == nil {
			p.passEnds = map[string]time.Time{}
		}
		p.passEnds[root] = now
	}
	if p.changed != nil {
		close(p.changed)
		p.changed = nil
	}
	p.mu.Unlock()
}

// yield waits until no request and no YAML pass of the project at root is
// under way and none has ended for quiet, maxYield at most, or until ctx is
// done (then it returns ctx's error). root "" waits for requests only.
func (p *interactive) yield(ctx context.Context, root string) error {
	var deadline <-chan time.Time
	for {
		p.mu.Lock()
		var calm <-chan time.Time // when the quiet after the last end is over
		if p.requests == 0 && p.projects[root] == 0 {
			last := p.ended
			if end, ok := p.passEnds[root]; ok {
				if time.Since(end) >= quiet {
					delete(p.passEnds, root) // long over: forget it
				} else if end.After(last) {
					last = end
				}
			}
			left := quiet - time.Since(last)
			if left <= 0 {
				p.mu.Unlock()
				return ctx.Err()
			}
			calm = time.After(left)
		}
		if p.changed == nil {
			p.changed = make(chan struct{})
		}
		changed := p.changed
		p.mu.Unlock()
		if deadline == nil {
			t := time.NewTimer(maxYield)
			defer t.Stop()
			deadline = t.C
		}
		select {
		case <-changed:
		case <-calm:
		case <-deadline:
			return ctx.Err()
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// projectKey is the context key of the project a module pass inspects.
type projectKey struct{}

// withProject tells the inspection's yield which project it works for.
func withProject(ctx context.Context, root string) context.Context {
	return context.WithValue(ctx, projectKey{}, root)
}

// projectOf is the project withProject named, or "".
func projectOf(ctx context.Context) string {
	root, _ := ctx.Value(projectKey{}).(string)
	return root
}
