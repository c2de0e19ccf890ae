package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"testing"
)

// FuzzJSONScan checks that scanning a body chunk by chunk, as readBody
// does, gives at every step what one scan of the bytes so far gives.
func FuzzJSONScan(f *testing.F) {
	f.Add([]byte(`{"a":"b\"}","c":[1,{}]}Content-Length: 5`), uint8(3))
	f.Add([]byte(`  [ "\\", "]" ] x`), uint8(1))
	f.Add([]byte(`"string"`), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, step uint8) {
		n := int(step)%7 + 1
		var inc jsonScan
		for end := 0; end <= len(data); end += n {
			got := inc.feed(data[:end])
			var once jsonScan
			if want := once.feed(data[:end]); got != want {
				t.Fatalf("after %d bytes of %q: incremental %d, one scan %d", end, data, got, want)
			}
		}
	})
}

// BenchmarkReadLargeMessage reads one 10 MB message: the framing costs
// time linear in the body (it was scanned again for every 64 KB chunk).
func BenchmarkReadLargeMessage(b *testing.B) {
	text := bytes.Repeat([]byte("# filler filler filler filler filler filler filler filler\n"), (10<<20)/58)
	body := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///x/notes.txt","languageId":"plaintext","version":1,"text":%q}}}`, text))
	msg := append([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body))), body...)
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		st := newStream(nopCloser{bytes.NewReader(msg)})
		if _, _, err := st.Read(context.Background()); err != nil {
			b.Fatal(err)
		}
		if err := st.closeFlushed(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

type nopCloser struct{ io.Reader }

func (nopCloser) Write(p []byte) (int, error) { return len(p), nil }
func (nopCloser) Close() error                { return nil }

// FuzzStreamRead feeds arbitrary bytes to the server's reading side: it
// never panics, every message it returns is one the bytes held, and it
// ends with the input (no endless loop on garbage, no wait for bytes that
// will not come). What it answers on its own (parse errors) is written,
// framed, to the output.
func FuzzStreamRead(f *testing.F) {
	f.Add([]byte("Content-Length: 52\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}"))
	f.Add([]byte("Content-Length: 5\r\n\r\n{\"a\"}Content-Length: 2\r\n\r\n[]"))
	f.Add([]byte("content-length:9999\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\r\nContent-Length: 2\r\n\r\n{}"))
	f.Add([]byte("garbage\nContent-Type: x\r\n\r\n{}\n\n\nContent-Length: -1\r\n\r\n"))
	f.Add([]byte("Content-Length: 30\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":1}"))
	f.Fuzz(func(t *testing.T, input []byte) {
		out := &lockedBuffer{}
		st := newStream(rwc{Reader: bytes.NewReader(input), w: out})
		for i := 0; ; i++ {
			if i > len(input)+1 {
				t.Fatalf("more messages than bytes: the stream loops on %q", input)
			}
			msg, n, err := st.Read(context.Background())
			if err != nil {
				break
			}
			if msg == nil || n <= 0 || int(n) > len(input) {
				t.Fatalf("Read returned %v with size %d from %d input bytes", msg, n, len(input))
			}
		}
		// Whatever the stream answered itself is well framed.
		if err := st.closeFlushed(context.Background()); err != nil {
			t.Fatal(err)
		}
		written := out.snapshot()
		in := bufio.NewReader(bytes.NewReader(written))
		for {
			frame, err := readOneFrame(in)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("the stream's own answers are misframed: %v\n%q", err, written)
			}
			if !json.Valid(frame) {
				t.Fatalf("the stream answered with invalid JSON %q", frame)
			}
		}
	})
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) snapshot() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

type rwc struct {
	io.Reader
	w io.Writer
}

func (r rwc) Write(p []byte) (int, error) { return r.w.Write(p) }
func (rwc) Close() error                  { return nil }

// readOneFrame reads one "Content-Length: N\r\n\r\n" framed body.
func readOneFrame(in *bufio.Reader) ([]byte, error) {
	line, err := in.ReadString('\n')
	if err != nil {
		if line == "" {
			return nil, io.EOF
		}
		return nil, err
	}
	var n int
	if _, err := fmt.Sscanf(line, "Content-Length: %d\r\n", &n); err != nil {
		return nil, fmt.Errorf("header %q: %v", line, err)
	}
	if blank, err := in.ReadString('\n'); err != nil || blank != "\r\n" {
		return nil, fmt.Errorf("no blank line after the header: %q %v", blank, err)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(in, body); err != nil {
		return nil, err
	}
	return body, nil
}
