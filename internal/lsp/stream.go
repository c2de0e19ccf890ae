package lsp

import (
	"bufio"
	"bytes"
	"context"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"unicode"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// maxMessageSize bounds one message body. A 10 MB document sent whole is
// well inside it; a larger Content-Length is answered with an error.
const maxMessageSize = 256 << 20

// maxHeaderLine bounds one header line so that a stream of garbage with no
// newline cannot exhaust memory.
const maxHeaderLine = 64 << 10

// stream is a jsonrpc2.Stream in the LSP base protocol framing
// (Content-Length headers) that survives a malformed peer. The stream of
// jsonrpc2 v0.10.0 returns an error for a bad header or bad JSON, and the
// connection then closes; this one answers such a message itself with the
// JSON-RPC error it deserves (ParseError or InvalidRequest, id null when the
// id cannot be read) and goes on with the next message. Only a failure of
// the underlying reader (EOF, closed pipe) ends Read with an error.
type stream struct {
	rwc io.ReadWriteCloser
	in  *bufio.Reader
	// pending holds bytes read past the end of a message whose
	// Content-Length was too large; they are read again as headers.
	pending []byte

	// Writes go through a queue and one writing goroutine, so that the
	// connection's reading goroutine never waits for the peer to read:
	// on a synchronous pipe, a peer that is itself writing would otherwise
	// wait for us, and both would stop.
	outMu   sync.Mutex
	outCond *sync.Cond
	queue   outQueue
	writing int // the size of the frame being written
	budget  int // outputBudget, or what Options.outputBudget says
	// starved: a publish was held back for want of room (publishRoom);
	// the writer calls onRoom once there is room again.
	starved bool
	// closing: closeFlushed began; nothing more is queued, and the
	// writer ends once the queue is written. closed: the frames left
	// are dropped.
	closing, closed bool
	writeErr        error
	writerDone      chan struct{}
	// onRoom has what was held back published (publisher.publishHeld);
	// called on the writing goroutine, without outMu: it must be quick.
	// May be nil.
	onRoom func()
	// onProtocolError is told about each message answered by the stream
	// itself (for logging); may be nil.
	onProtocolError func(error)
}

// outputBudget is the output queue's byte budget: while the frames not
// yet written (the one being written included) make this much, no
// publishDiagnostics is queued; the publisher holds them back and
// publishes the newest diagnostics of each held file once the client has
// read enough for the queue to be under the budget again. Answers and
// other messages are always queued. A publish is at most a few MB (10,000
// findings in one file), so the budget lets one through whole.
const outputBudget = 4 << 20

// outQueue is the frames not written yet, in order. A publishDiagnostics
// may replace, in its place, the newest one for the same URI still
// waiting: the client only ever wants a file's newest diagnostics, and one
// that reads slower than the server publishes would otherwise be sent
// (and the server hold) every one. Nothing else is replaced, dropped or
// reordered.
type outQueue struct {
	frames []*outFrame
	byURI  map[protocol.DocumentURI]*outFrame // the newest publish waiting, by URI
	bytes  int
}

type outFrame struct {
	data []byte
	uri  protocol.DocumentURI // a publishDiagnostics' URI, else empty
}

// push queues data. A publish (uri not empty) replaces the newest one of
// uri still waiting when replace is set, else it is queued after it.
func (q *outQueue) push(data []byte, uri protocol.DocumentURI, replace bool) {
	if f := q.byURI[uri]; replace && uri != "" && f != nil {
		q.bytes += len(data) - len(f.data)
		f.data = data
		return
	}
	f := &outFrame{data: data, uri: uri}
	q.frames = append(q.frames, f)
	q.bytes += len(data)
	if uri != "" {
		if q.byURI == nil {
			q.byURI = map[protocol.DocumentURI]*outFrame{}
		}
		q.byURI[uri] = f
	}
}

// pop takes the first frame out (ok false: none).
func (q *outQueue) pop() (data []byte, ok bool) {
	if len(q.frames) == 0 {
		return nil, false
	}
	f := q.frames[0]
	q.frames[0] = nil
	q.frames = q.frames[1:]
	q.bytes -= len(f.data)
	if q.byURI[f.uri] == f {
		delete(q.byURI, f.uri)
	}
	return f.data, true
}

func newStream(rwc io.ReadWriteCloser) *stream {
	s := &stream{rwc: rwc, in: bufio.NewReaderSize(rwc, 64<<10), budget: outputBudget, writerDone: make(chan struct{})}
	s.outCond = sync.NewCond(&s.outMu)
	go s.writeLoop()
	return s
}

// writeLoop writes queued frames in order, one at a time (a publish still
// queued can be replaced), until the queue is written after closeFlushed
// began, the stream is closed or a write fails.
func (s *stream) writeLoop() {
	defer close(s.writerDone)
	s.outMu.Lock()
	defer s.outMu.Unlock()
	for {
		for len(s.queue.frames) == 0 && !s.closing && !s.closed {
			s.outCond.Wait()
		}
		if s.closed {
			return
		}
		frame, ok := s.queue.pop()
		if !ok {
			return // closing, and everything is written
		}
		s.writing = len(frame)
		s.outMu.Unlock()
		_, err := s.rwc.Write(frame)
		s.outMu.Lock()
		s.writing = 0
		if err != nil {
			s.writeErr = fmt.Errorf("writing message: %w", err)
			s.queue = outQueue{}
			return
		}
		if s.starved && s.hasRoomLocked() && !s.closing && s.onRoom != nil {
			s.starved = false
			s.outMu.Unlock()
			s.onRoom()
			s.outMu.Lock()
		}
	}
}

// readByte returns the next input byte, pending bytes first.
func (s *stream) readByte() (byte, error) {
	if len(s.pending) > 0 {
		b := s.pending[0]
		s.pending = s.pending[1:]
		return b, nil
	}
	return s.in.ReadByte()
}

// readLine reads up to and including "\n". A line longer than
// maxHeaderLine is cut (the rest is read as further lines).
func (s *stream) readLine() ([]byte, error) {
	var line []byte
	for len(line) < maxHeaderLine {
		b, err := s.readByte()
		if err != nil {
			return line, err
		}
		line = append(line, b)
		if b == '\n' {
			break
		}
	}
	return line, nil
}

// read fills p from pending bytes, then from the reader.
func (s *stream) read(p []byte) (int, error) {
	if len(s.pending) > 0 {
		n := copy(p, s.pending)
		s.pending = s.pending[n:]
		return n, nil
	}
	return s.in.Read(p)
}

var contentLengthName = []byte("content-length:")

// Read implements jsonrpc2.Stream.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, err := s.readFrame()
		if err != nil {
			var perr *frameError
			if errors.As(err, &perr) {
				s.answerError(nil, jsonrpc2.ParseError, perr.msg)
				continue
			}
			return nil, 0, err
		}
		msg, err := decodeMessage(body)
		if err != nil {
			var rerr *requestError
			if errors.As(err, &rerr) {
				s.answerError(rerr.id, rerr.code, rerr.msg)
				continue
			}
			return nil, 0, err
		}
		return msg, int64(len(body)), nil
	}
}

// frameError is a framing problem the stream answers and recovers from.
type frameError struct{ msg string }

func (e *frameError) Error() string { return e.msg }

// readFrame reads headers and one body. Header lines that are not headers
// are skipped; a line holding "Content-Length:" after garbage (the tail of a
// body whose Content-Length was too small) starts a new header block.
func (s *stream) readFrame() ([]byte, error) {
	length := -1
	var problem string
	sawHeader := false
	for {
		line, err := s.readLine()
		if err != nil {
			if errors.Is(err, io.EOF) && len(line) == 0 && !sawHeader {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("reading header: %w", err)
		}
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 {
			if !sawHeader {
				continue // blank lines between messages
			}
			break
		}
		if i := bytes.Index(asciiLower(trimmed), contentLengthName); i >= 0 {
			if i > 0 {
				// Garbage before a header: a new message starts here.
				length, problem = -1, ""
			}
			sawHeader = true
			value := string(bytes.TrimSpace(trimmed[i+len(contentLengthName):]))
			n, perr := strconv.ParseInt(value, 10, 64)
			switch {
			case perr != nil:
				problem = fmt.Sprintf("invalid Content-Length %q", value)
			case n <= 0:
				problem = fmt.Sprintf("invalid Content-Length %d", n)
			case n > maxMessageSize:
				problem = fmt.Sprintf("Content-Length %d is over the limit of %d bytes", n, maxMessageSize)
			default:
				length = int(n)
			}
			continue
		}
		if bytes.IndexByte(trimmed, ':') > 0 && isHeaderName(trimmed[:bytes.IndexByte(trimmed, ':')]) {
			sawHeader = true // Content-Type or another header: ignored
			continue
		}
		if !sawHeader {
			continue // garbage between messages
		}
		problem = fmt.Sprintf("invalid header line %q", truncate(string(trimmed), 80))
	}
	if problem != "" || length < 0 {
		if problem == "" {
			problem = "missing Content-Length header"
		}
		return nil, &frameError{msg: problem}
	}
	return s.readBody(length)
}

// readBody reads length bytes. When the bytes read so far hold a complete
// JSON value followed by the start of another message's headers, the
// Content-Length was too large: the value is the message and the rest is
// read again as headers, so that the next message is not lost. Each byte is
// scanned once, so that a large body costs linear time.
func (s *stream) readBody(length int) ([]byte, error) {
	body := make([]byte, 0, min(length, 1<<20))
	chunk := make([]byte, min(length, 64<<10))
	var scan jsonScan
	noHeaderAfter := false // the bytes after the value are not a header
	for len(body) < length {
		want := min(len(chunk), length-len(body))
		n, err := s.read(chunk[:want])
		body = append(body, chunk[:n]...)
		if err != nil {
			return nil, fmt.Errorf("reading body: %w", err)
		}
		if end := scan.feed(body); end > 0 && end < len(body) && !noHeaderAfter {
			rest := body[end:]
			next := bytes.TrimLeftFunc(rest, unicode.IsSpace)
			switch {
			case len(next) >= len(contentLengthName) && bytes.EqualFold(next[:len(contentLengthName)], contentLengthName):
				i := len(rest) - len(next)
				s.pending = append(append([]byte(nil), rest[i:]...), s.pending...)
				return body[:end], nil
			case len(next) > 0 && !bytes.HasPrefix(contentLengthName, asciiLower(next[:min(len(next), len(contentLengthName))])):
				noHeaderAfter = true
			}
		}
	}
	return body, nil
}

// jsonScan finds the end offset of the JSON object or array that starts a
// message body (after white space); it scans structure only and does not
// validate. Data may grow between calls: each call to feed scans
// only the bytes added since the last one.
type jsonScan struct {
	pos, depth                 int
	inString, escaped, started bool
	end                        int // > 0: the value's end; < 0: not a JSON object or array
}

// feed scans data, whose first bytes are those of the previous call, and
// returns the value's end offset, or 0 when it is not complete yet or data
// does not start with an object or array.
func (j *jsonScan) feed(data []byte) int {
	if j.end != 0 {
		return max(j.end, 0)
	}
	for ; j.pos < len(data); j.pos++ {
		b := data[j.pos]
		if j.inString {
			switch {
			case j.escaped:
				j.escaped = false
			case b == '\\':
				j.escaped = true
			case b == '"':
				j.inString = false
			}
			continue
		}
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		case '"':
			if !j.started {
				j.end = -1
				return 0
			}
			j.inString = true
		case '{', '[':
			j.started = true
			j.depth++
		case '}', ']':
			if !j.started {
				j.end = -1
				return 0
			}
			j.depth--
			if j.depth == 0 {
				j.end = j.pos + 1
				return j.end
			}
		default:
			if !j.started {
				j.end = -1
				return 0
			}
		}
	}
	return 0
}

// asciiLower returns b with ASCII letters lowered and every other byte as
// it is. Unlike bytes.ToLower it keeps the length, so that an index found
// in the result is an index in b (bytes.ToLower turns an invalid UTF-8 byte
// into the 3-byte U+FFFD: a header line starting with one made the server
// slice out of range and crash).
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

func isHeaderName(b []byte) bool {
	for _, c := range b {
		if !(c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return len(b) > 0
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// requestError is a message that framed well but is not a valid JSON-RPC
// message; the stream answers it with code and the id when one was read.
type requestError struct {
	id   stdjson.RawMessage
	code jsonrpc2.Code
	msg  string
}

func (e *requestError) Error() string { return e.msg }

// decodeMessage checks a body before jsonrpc2 decodes it: JSON that does
// not parse is a ParseError; a batch, a missing or non-string method, a bad
// id or a bad version is an InvalidRequest.
func decodeMessage(body []byte) (jsonrpc2.Message, error) {
	trimmed := bytes.TrimSpace(body)
	if !stdjson.Valid(trimmed) {
		return nil, &requestError{code: jsonrpc2.ParseError, msg: "parse error: the message is not valid JSON"}
	}
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return nil, &requestError{code: jsonrpc2.InvalidRequest, msg: "invalid request: batches are not supported by the Language Server Protocol"}
	}
	var head struct {
		JSONRPC *string            `json:"jsonrpc"`
		ID      stdjson.RawMessage `json:"id"`
		Method  stdjson.RawMessage `json:"method"`
		Result  stdjson.RawMessage `json:"result"`
		Error   stdjson.RawMessage `json:"error"`
	}
	if err := stdjson.Unmarshal(trimmed, &head); err != nil {
		return nil, &requestError{code: jsonrpc2.InvalidRequest, msg: "invalid request: the message is not a JSON object"}
	}
	id := head.ID
	if !validID(id) {
		return nil, &requestError{code: jsonrpc2.InvalidRequest, msg: "invalid request: the id must be an integer (32 bits) or a string"}
	}
	if head.JSONRPC != nil && *head.JSONRPC != "2.0" {
		return nil, &requestError{id: id, code: jsonrpc2.InvalidRequest, msg: fmt.Sprintf("invalid request: jsonrpc must be \"2.0\", not %q", *head.JSONRPC)}
	}
	if head.Method == nil {
		if id == nil || head.Result == nil && head.Error == nil {
			return nil, &requestError{id: id, code: jsonrpc2.InvalidRequest, msg: "invalid request: no method"}
		}
	} else {
		var method string
		if err := stdjson.Unmarshal(head.Method, &method); err != nil || method == "" {
			return nil, &requestError{id: id, code: jsonrpc2.InvalidRequest, msg: "invalid request: the method must be a non-empty string"}
		}
	}
	msg, err := jsonrpc2.DecodeMessage(trimmed)
	if err != nil {
		return nil, &requestError{id: id, code: jsonrpc2.InvalidRequest, msg: "invalid request: " + err.Error()}
	}
	return msg, nil
}

// validID accepts no id, null, a string, or an integer that fits the int32
// ids of jsonrpc2 v0.10.0.
func validID(id stdjson.RawMessage) bool {
	if id == nil || string(id) == "null" {
		return true
	}
	var s string
	if stdjson.Unmarshal(id, &s) == nil {
		return true
	}
	var n int32
	return stdjson.Unmarshal(id, &n) == nil
}

// answerError writes an error response the connection never saw a request
// for. A null or unreadable id is written as null.
func (s *stream) answerError(id stdjson.RawMessage, code jsonrpc2.Code, msg string) {
	if s.onProtocolError != nil {
		s.onProtocolError(errors.New(msg))
	}
	if id == nil || !validID(id) {
		id = stdjson.RawMessage("null")
	}
	resp := struct {
		JSONRPC string             `json:"jsonrpc"`
		ID      stdjson.RawMessage `json:"id"`
		Error   *jsonrpc2.Error    `json:"error"`
	}{"2.0", id, &jsonrpc2.Error{Code: code, Message: msg}}
	data, err := stdjson.Marshal(resp)
	if err != nil {
		return
	}
	_ = s.writeFrame(data)
}

// Write implements jsonrpc2.Stream.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	data, err := marshalMessage(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	if err := s.writeFrame(data); err != nil {
		return 0, err
	}
	return int64(len(data)), nil
}

// writeFrame queues one framed message.
func (s *stream) writeFrame(data []byte) error {
	header := "Content-Length: " + strconv.Itoa(len(data)) + "\r\n\r\n"
	buf := make([]byte, 0, len(header)+len(data))
	buf = append(append(buf, header...), data...)
	return s.enqueue(buf, "")
}

// writePublish queues a textDocument/publishDiagnostics whose params are
// JSON already (compact, as encoding/json writes them), framed as
// jsonrpc2 frames a notification, without encoding and checking the
// params again; it may replace a publish for uri still waiting (enqueue).
// It returns params as the frame holds them (read-only: the frame is
// being written).
func (s *stream) writePublish(uri protocol.DocumentURI, params []byte) ([]byte, error) {
	frame := notificationFrame(protocol.MethodTextDocumentPublishDiagnostics, params)
	return frame[len(frame)-1-len(params) : len(frame)-1 : len(frame)-1], s.enqueue(frame, uri)
}

// publishRoom reports whether the output queue is under its budget, so
// that a publish may be queued. When it is not, the writer calls onRoom
// once it is again.
func (s *stream) publishRoom() bool {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	if s.hasRoomLocked() {
		return true
	}
	s.starved = true
	return false
}

func (s *stream) hasRoomLocked() bool { return s.queue.bytes+s.writing < s.budget }

// queuedBytes is the size of the frames not written yet.
func (s *stream) queuedBytes() int {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	return s.queue.bytes + s.writing
}

// notificationFrame is the frame of a notification: header and body, the
// body as marshalMessage writes a jsonrpc2.Notification of these params.
func notificationFrame(method string, params []byte) []byte {
	name, _ := stdjson.Marshal(method) // a string always encodes
	const open, mid = `{"jsonrpc":"2.0","method":`, `,"params":`
	n := len(open) + len(name) + len(mid) + len(params) + 1
	header := "Content-Length: " + strconv.Itoa(n) + "\r\n\r\n"
	buf := make([]byte, 0, len(header)+n)
	buf = append(buf, header...)
	buf = append(buf, open...)
	buf = append(buf, name...)
	buf = append(buf, mid...)
	buf = append(buf, params...)
	return append(buf, '}')
}

// enqueue queues one frame, header included; uri names a publish's file.
// A publish replaces the one of its URI still waiting only while the
// client is behind, that is while the writer is busy with an earlier
// frame: a client that reads what it is sent gets every publish.
func (s *stream) enqueue(buf []byte, uri protocol.DocumentURI) error {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	switch {
	case s.writeErr != nil:
		return s.writeErr
	case s.closing || s.closed:
		return errors.New("writing message: the stream is closed")
	}
	s.queue.push(buf, uri, s.writing > 0)
	s.outCond.Signal()
	return nil
}

// Close implements jsonrpc2.Stream: the connection calls it when reading
// fails (the input ended). Writing goes on, so that the answers of the
// requests still running reach the client; Server.Run ends it with
// closeFlushed.
func (s *stream) Close() error { return nil }

// closeFlushed stops queueing, lets the writer write what is queued until
// ctx is done (a client that does not read cannot keep the process
// alive), drops what is left, and closes the connection.
func (s *stream) closeFlushed(ctx context.Context) error {
	s.outMu.Lock()
	s.closing = true
	s.outCond.Broadcast()
	s.outMu.Unlock()
	select {
	case <-s.writerDone:
	case <-ctx.Done():
	}
	s.outMu.Lock()
	s.closed = true
	dropped := s.queue.bytes + s.writing
	s.queue = outQueue{}
	s.outCond.Broadcast()
	s.outMu.Unlock()
	if err := s.rwc.Close(); err != nil {
		return fmt.Errorf("closing the connection: %w", err)
	}
	if dropped > 0 {
		return fmt.Errorf("dropped %d bytes the client did not read: %w", dropped, context.Cause(ctx))
	}
	return nil
}

// marshalMessage encodes a message: encoding/json around the message's
// own MarshalJSON (jsonrpc2 encodes its fields with segmentio/encoding).
// Measured against segmentio/encoding's Marshal by
// BenchmarkKeystrokeJSON/message-encode, it is no slower (docs/server.md).
func marshalMessage(msg jsonrpc2.Message) ([]byte, error) { return stdjson.Marshal(msg) }
