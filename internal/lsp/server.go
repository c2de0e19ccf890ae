// Package lsp is the language server: the Language Server Protocol over a
// JSON-RPC stream (go.lsp.dev/jsonrpc2, types from go.lsp.dev/protocol),
// open documents laid over the disk, position encodings, the diagnostics
// pipeline and the wiring of the editor features. Packages below it speak
// byte offsets; conversion to protocol positions happens here only.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// Protocol error codes that jsonrpc2 v0.10.0 does not name.
const (
	codeRequestCancelled jsonrpc2.Code = -32800
	codeContentModified  jsonrpc2.Code = -32801
)

// Options configure a Server.
type Options struct {
	// FS is the file system under the editor buffers; nil means the disk.
	FS vfs.FS
	// Log receives a trace of protocol problems and recovered panics
	// (the binary passes stderr); nil discards it.
	Log io.Writer

	// extraRequests adds requests, each with its class (tests use it to
	// reach a panic, a request that waits for its cancellation, and one
	// that waits for the background work).
	extraRequests map[string]requestRoute
	// outputBudget replaces the output queue's byte budget when not 0
	// (tests reach it with small workspaces).
	outputBudget int
}

// lifecycle is where the server is between initialize and exit.
type lifecycle int

const (
	stateNew lifecycle = iota
	stateInitializing
	stateRunning
	stateShutdown
)

// requestHandler answers one request. It runs on its own goroutine with a
// context cancelled by $/cancelRequest; view is the state of the documents
// when the request arrived.
type requestHandler func(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error)

// workClass says whether a user waits for a request's answer.
type workClass int

const (
	// interactiveWork: the user waits for the answer (a completion, a
	// hover, a code action list): module inspection steps aside while it
	// runs (priority.go).
	interactiveWork workClass = iota + 1
	// backgroundWork: the request itself waits for something the user
	// does not wait on the server for (a command waits for the client's
	// workspace/applyEdit answer; the benchmark's heap probe; a test hook
	// waiting for the background work): counting it would hold module
	// inspection back for nothing, or forever.
	backgroundWork
)

// requestRoute is one registered request: its handler and its class.
type requestRoute struct {
	handler requestHandler
	class   workClass
}

// notificationHandler handles one notification, in arrival order, on the
// connection's reading goroutine: it must be quick.
type notificationHandler func(ctx context.Context, s *Server, params json.RawMessage) error

// Server is one language server session on one connection. It holds no
// global state: several servers may run in one process.
type Server struct {
	opts Options
	base vfs.FS // the disk (or Options.FS) behind a cache
	disk *diskCache
	conn jsonrpc2.Conn
	out  *stream // conn's stream: the publisher writes to it directly

	mu       sync.Mutex
	state    lifecycle
	client   clientInfo
	settings Settings
	cur      *view // the documents now; replaced, never modified
	inflight map[string]context.CancelFunc
	exitCode int
	stopping bool // Run is returning: no new goroutine may start
	exitOnce sync.Once
	exited   chan struct{}

	ws *workspace
	// interactive counts the work a user waits for (the requests routed
	// as interactiveWork, YAML passes); module inspection yields to it
	// (priority.go).
	interactive interactive

	// completionDocs holds the documentation of the last completion list's
	// items by label, for completionItem/resolve.
	completionDocs map[string]string

	// progressTokens numbers the work-done progress tokens the server
	// creates, each progress its own (scan.go).
	progressTokens atomic.Uint64

	// beeuni holds the Beeuni tools' definitions (agentview.go).
	beeuni beeuniDefs

	// changing is held by the command carrying out a change (one at a
	// time: see planAndCarryOut).
	changing chan struct{}

	// bg is cancelled when the server stops; background work watches it.
	bg       context.Context
	stopBg   context.CancelFunc
	bgTasks  sync.WaitGroup
	logMu    sync.Mutex
	requests map[string]requestRoute
	notifies map[string]notificationHandler
}

// New returns a server ready to Run.
func New(opts Options) *Server {
	base := opts.FS
	if base == nil {
		base = vfs.NewDisk()
	}
	disk := newDiskCache(base)
	s := &Server{
		opts:     opts,
		base:     disk,
		disk:     disk,
		settings: defaultSettings(),
		inflight: map[string]context.CancelFunc{},
		exited:   make(chan struct{}),
		changing: make(chan struct{}, 1),
		exitCode: 1,
		requests: map[string]requestRoute{},
		notifies: map[string]notificationHandler{},
	}
	s.cur = newView(s.base, nil, 0)
	s.bg, s.stopBg = context.WithCancel(context.Background())
	s.ws = newWorkspace(s, disk)
	registerHandlers(s)
	for name, r := range opts.extraRequests {
		s.register(name, r.class, r.handler)
	}
	return s
}

// Run serves the protocol on rwc until the client sends exit, the stream
// ends or ctx is cancelled. It returns the process exit code the protocol
// asks for: 0 after shutdown then exit, 1 otherwise. What the server
// queued for the client is written before rwc is closed, for at most
// closeFlushTimeout.
func (s *Server) Run(ctx context.Context, rwc io.ReadWriteCloser) int {
	st := newStream(rwc)
	st.onProtocolError = func(err error) { s.tracef("protocol error answered: %v", err) }
	st.onRoom = func() {
		s.goBackground(protocol.MethodTextDocumentPublishDiagnostics, func(context.Context) { s.ws.pub.publishHeld() })
	}
	if s.opts.outputBudget != 0 {
		st.budget = s.opts.outputBudget
	}
	s.conn = jsonrpc2.NewConn(st)
	s.out = st
	connCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.conn.Go(connCtx, s.handle)
	select {
	case <-s.conn.Done():
	case <-s.exited:
	case <-ctx.Done():
	}
	s.mu.Lock()
	s.stopping = true
	s.mu.Unlock()
	s.stopBg()
	s.cancelInflight()
	// The requests still running answer (cancelled) before the output
	// closes. The reading goroutine ends when the stream's read fails,
	// which closing rwc does not always cause: do not wait for it.
	s.bgTasks.Wait()
	flushCtx, cancelFlush := context.WithTimeout(context.WithoutCancel(ctx), closeFlushTimeout)
	defer cancelFlush()
	if err := st.closeFlushed(flushCtx); err != nil {
		s.tracef("closing the connection: %v", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == stateShutdown {
		select {
		case <-s.exited:
			return s.exitCode
		default:
			// The stream ended after shutdown without exit: a clean end.
			return 0
		}
	}
	return 1
}

// closeFlushTimeout bounds how long Run waits, at the end, for the client
// to read what is queued for it: a client that stopped reading cannot
// keep the process alive.
const closeFlushTimeout = time.Second

// handle is the connection's handler: it runs on the reading goroutine, in
// message order. It never returns an error (that would close the
// connection).
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	call, isCall := req.(*jsonrpc2.Call)
	method := req.Method()
	if !isCall {
		s.handleNotification(ctx, method, req.Params())
		return nil
	}
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	case state == stateNew && method != protocol.MethodInitialize:
		_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, fmt.Sprintf("%s: the server is not initialized yet: send initialize first", method)))
		return nil
	case state == stateShutdown:
		_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, fmt.Sprintf("%s: the server is shut down: only exit is accepted", method)))
		return nil
	case method == protocol.MethodInitialize:
		s.safeReply(ctx, reply, method, func() (any, error) { return s.initialize(ctx, req.Params()) })
		return nil
	case method == protocol.MethodShutdown:
		s.mu.Lock()
		s.state = stateShutdown
		s.mu.Unlock()
		s.cancelInflight()
		_ = reply(ctx, nil, nil)
		return nil
	}
	route, ok := s.requests[method]
	if !ok {
		_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, fmt.Sprintf("method not found: %s", method)))
		return nil
	}
	key := idKey(call.ID())
	reqCtx, cancel := context.WithCancel(s.bg)
	s.mu.Lock()
	v := s.cur
	if _, dup := s.inflight[key]; dup {
		s.mu.Unlock()
		cancel()
		_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, fmt.Sprintf("%s: request id %s is already in flight", method, key)))
		return nil
	}
	if s.stopping {
		s.mu.Unlock()
		cancel()
		return nil
	}
	s.inflight[key] = cancel
	s.bgTasks.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.bgTasks.Done()
		if route.class == interactiveWork {
			defer s.interactive.begin()()
		}
		defer func() {
			s.mu.Lock()
			delete(s.inflight, key)
			s.mu.Unlock()
			cancel()
		}()
		s.safeReply(reqCtx, reply, method, func() (any, error) {
			res, err := route.handler(reqCtx, s, v, call.Params())
			if reqCtx.Err() != nil {
				return nil, jsonrpc2.NewError(codeRequestCancelled, fmt.Sprintf("%s: request cancelled", method))
			}
			return res, err
		})
	}()
	return nil
}

// safeReply runs f, recovering a panic into an InternalError, and sends
// the answer. A plain error from f is an InternalError too unless it
// already carries a code.
func (s *Server) safeReply(ctx context.Context, reply jsonrpc2.Replier, method string, f func() (any, error)) {
	res, err := s.recovered(method, f)
	if err != nil {
		var rpcErr *jsonrpc2.Error
		if !errors.As(err, &rpcErr) {
			rpcErr = jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
		}
		_ = reply(context.Background(), nil, rpcErr)
		return
	}
	_ = reply(context.Background(), res, nil)
}

// recovered calls f and turns a panic into an InternalError, logged to
// the client with its stack on the trace.
func (s *Server) recovered(method string, f func() (any, error)) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.tracef("panic in %s: %v\n%s", method, r, debug.Stack())
			s.logToClient(protocol.MessageTypeError, fmt.Sprintf("beeuni-lsp: internal error in %s: %v (the server goes on)", method, r))
			res, err = nil, jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("%s: internal error: %v", method, r))
		}
	}()
	return f()
}

func (s *Server) handleNotification(ctx context.Context, method string, params json.RawMessage) {
	if method == protocol.MethodExit {
		s.mu.Lock()
		if s.state == stateShutdown {
			s.exitCode = 0
		}
		s.mu.Unlock()
		s.exitOnce.Do(func() { close(s.exited) })
		return
	}
	if method == protocol.MethodCancelRequest {
		var p cancelParams
		if json.Unmarshal(params, &p) == nil {
			s.cancelRequest(string(p.ID))
		}
		return
	}
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	if state != stateRunning && state != stateInitializing {
		return // notifications before initialize or after shutdown are dropped
	}
	h, ok := s.notifies[method]
	if !ok {
		return // unknown notifications are ignored
	}
	_, err := s.recovered(method, func() (any, error) { return nil, h(ctx, s, params) })
	if err != nil {
		s.logToClient(protocol.MessageTypeWarning, fmt.Sprintf("beeuni-lsp: %s: %v", method, err))
	}
}

// idKey is the map key of a request id: its JSON form.
func idKey(id jsonrpc2.ID) string {
	data, err := json.Marshal(&id)
	if err != nil {
		return fmt.Sprintf("%q", id)
	}
	return string(data)
}

func (s *Server) cancelRequest(key string) {
	s.mu.Lock()
	cancel := s.inflight[key]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (s *Server) cancelInflight() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, cancel := range s.inflight {
		cancel()
	}
}

// tracef writes a line to the server's trace (stderr for the binary).
func (s *Server) tracef(format string, args ...any) {
	if s.opts.Log == nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.opts.Log, "beeuni-lsp: "+format+"\n", args...)
}

// logToClient sends window/logMessage.
func (s *Server) logToClient(typ protocol.MessageType, msg string) {
	if s.conn == nil {
		return
	}
	_ = s.conn.Notify(s.bg, protocol.MethodWindowLogMessage, &protocol.LogMessageParams{Type: typ, Message: msg})
}

// notify sends a notification to the client, ignoring a closed connection.
func (s *Server) notify(method string, params any) {
	if err := s.conn.Notify(context.Background(), method, params); err != nil {
		s.tracef("sending %s: %v", method, err)
	}
}

// call sends a request to the client and decodes its result. It must not
// run on the reading goroutine (the answer is read there).
func (s *Server) call(ctx context.Context, method string, params, result any) error {
	_, err := s.conn.Call(ctx, method, params, result)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

// isStopping reports whether Run is returning: no new work may start.
func (s *Server) isStopping() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopping
}

// goBackground runs f on its own goroutine, tracked so that Run waits for
// it, with panics recovered and logged.
func (s *Server) goBackground(name string, f func(ctx context.Context)) {
	s.mu.Lock()
	if s.stopping {
		s.mu.Unlock()
		return
	}
	s.bgTasks.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.bgTasks.Done()
		_, _ = s.recovered(name, func() (any, error) { f(s.bg); return nil, nil })
	}()
}

// decodeParams decodes params into v, answering InvalidParams on failure.
func decodeParams(method string, params json.RawMessage, v any) error {
	if len(params) == 0 || string(params) == "null" {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, method+": missing params")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s: invalid params: %v", method, err))
	}
	return nil
}
