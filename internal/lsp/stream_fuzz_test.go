package lsp

import (
	"bytes"
	"context"
	"fmt"
	"io"
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
	}
}

type nopCloser struct{ io.Reader }

func (nopCloser) Write(p []byte) (int, error) { return len(p), nil }
func (nopCloser) Close() error                { return nil }
