package analysis

import (
	"context"
	"io"
)

// A load stops soon after its context is done, whatever it is doing
// (docs/engine.md, "Cancellation"): the server cancels the load of a 10 MB
// manifest when the editor exits, and the CLI when the user presses
// Ctrl-C. Every loop of a load whose turns cost more than a few
// instructions (the chunks of a parse, the entries of the rules, the keys
// of the duplicate-key check, the findings) counts its turns on the load's
// stopper, which looks at the context every stopEvery of them; yaml.v3,
// which parses a flow collection of 10 MB in one call, reads its input
// through the stopper too (stopReader). Once stopped, every loop ends at
// its next turn, whatever it computed since is left incomplete, and the
// load returns the context's error having kept nothing: the parse cache
// stores no parse it stopped, and gets neither its scratch nor the memo
// back (their state is the stopped load's), so the next load makes them
// anew.

// stopEvery is the number of units of work (a turn of a loop, 512 bytes
// read by yaml.v3) between two looks at a load's context: at most a few
// milliseconds of work (TestLoadLooksAtItsContextOften).
const stopEvery = 32

// stopper tells a load's loops when to stop. It is not safe for
// concurrent use: one load, one goroutine. A nil stopper never stops (a
// parse outside a load: the edit planner's ParseEdited).
type stopper struct {
	ctx  context.Context
	left int   // units before the next look at ctx
	err  error // ctx's error once seen: the load stops
}

// stopped counts one unit of work and reports whether the load stops: it
// looks at the context every stopEvery units, and once the context is done
// it reports true on every call.
func (s *stopper) stopped() bool {
	if s == nil {
		return false
	}
	if s.err != nil {
		return true
	}
	if s.left > 0 {
		s.left--
		return false
	}
	s.left = stopEvery - 1
	s.err = s.ctx.Err()
	return s.err != nil
}

// stoppedErr is the context's error once the load stopped, else nil: what
// the load returns instead of anything it computed.
func (s *stopper) stoppedErr() error {
	if s == nil {
		return nil
	}
	return s.err
}

// reader returns r as yaml.v3 reads it during a load: each read (yaml.v3
// asks for 512 bytes at a time) is a unit of work, and a read once the load
// stops fails, which ends the parse inside yaml.v3 with an error
// (the caller tells it from a syntax error by s.stoppedErr()).
func (s *stopper) reader(r io.Reader) io.Reader {
	if s == nil {
		return r
	}
	return stopReader{r: r, s: s}
}

// stopReader is a reader that fails once its stopper stops.
type stopReader struct {
	r io.Reader
	s *stopper
}

func (sr stopReader) Read(p []byte) (int, error) {
	if sr.s.stopped() {
		return 0, sr.s.err
	}
	return sr.r.Read(p)
}
