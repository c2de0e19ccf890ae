package lsp

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// TestOutQueueReplacesOnlyWaitingPublishes: while the client is behind
// (the writer busy with an earlier frame), a publish replaces, in its
// place, the newest publish of the same URI still waiting; every other
// frame keeps its order, and nothing else is dropped. A publish already
// taken by the writer is not replaced: the newer one is queued after it.
// A client that keeps up gets every publish.
func TestOutQueueReplacesOnlyWaitingPublishes(t *testing.T) {
	type push struct {
		data   string
		uri    protocol.DocumentURI
		behind bool // the client is behind: the writer is busy
	}
	tests := []struct {
		name   string
		before []push // pushed, then popOne frames taken by the writer
		popOne int
		after  []push
		want   []string // the frames written, in order
	}{
		{
			name:   "answers and notifications keep their order",
			before: []push{{"answer 1", "", true}, {"log", "", true}, {"answer 2", "", true}},
			want:   []string{"answer 1", "log", "answer 2"},
		},
		{
			name:   "a publish takes the place of the waiting one of its URI",
			before: []push{{"x v1", "file:///x", true}, {"answer", "", true}, {"x v2", "file:///x", true}},
			want:   []string{"x v2", "answer"},
		},
		{
			name: "each URI on its own",
			before: []push{{"x v1", "file:///x", true}, {"y v1", "file:///y", true}, {"x v2", "file:///x", true}, {"answer", "", true},
				{"y v2", "file:///y", true}, {"z v1", "file:///z", true}, {"x v3", "file:///x", true}},
			want: []string{"x v3", "y v2", "answer", "z v1"},
		},
		{
			name:   "a client that keeps up gets every publish",
			before: []push{{"x v1", "file:///x", false}, {"answer", "", false}, {"x v2", "file:///x", false}},
			want:   []string{"x v1", "answer", "x v2"},
		},
		{
			name:   "the newest waiting publish is the one replaced",
			before: []push{{"x v1", "file:///x", false}, {"x v2", "file:///x", false}, {"x v3", "file:///x", true}},
			want:   []string{"x v1", "x v3"},
		},
		{
			name:   "a publish being written is not replaced, the next goes after it",
			before: []push{{"x v1", "file:///x", true}, {"answer", "", true}},
			popOne: 1,
			after:  []push{{"x v2", "file:///x", true}, {"y v1", "file:///y", true}, {"x v3", "file:///x", true}},
			want:   []string{"x v1", "answer", "x v3", "y v1"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var q outQueue
			var got []string
			for _, p := range tc.before {
				q.push([]byte(p.data), p.uri, p.behind)
			}
			for range tc.popOne {
				data, _ := q.pop()
				got = append(got, string(data))
			}
			for _, p := range tc.after {
				q.push([]byte(p.data), p.uri, p.behind)
			}
			waiting := 0
			for _, f := range q.frames {
				waiting += len(f.data)
			}
			if q.bytes != waiting {
				t.Errorf("queue counts %d bytes, holds %d", q.bytes, waiting)
			}
			for data, ok := q.pop(); ok; data, ok = q.pop() {
				got = append(got, string(data))
			}
			if strings.Join(got, ", ") != strings.Join(tc.want, ", ") {
				t.Errorf("written %q, want %q", got, tc.want)
			}
			if q.bytes != 0 || len(q.byURI) != 0 {
				t.Errorf("an empty queue counts %d bytes and %d waiting publishes", q.bytes, len(q.byURI))
			}
		})
	}
}

// TestStreamOverBudgetUntilTheClientReads: while the frames not written
// make the budget, publishRoom says no; answers are still queued, and once
// the client has read enough the stream calls onRoom, and every frame
// arrives whole and in order.
func TestStreamOverBudgetUntilTheClientReads(t *testing.T) {
	clientIn, serverOut := io.Pipe()
	st := newStream(rwc{Reader: bytes.NewReader(nil), w: serverOut})
	room := make(chan struct{}, 10)
	st.onRoom = func() { room <- struct{}{} }
	const frames = 6
	answer := func(i int) []byte {
		return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":"%s"}`, i, strings.Repeat("a", 1<<20)))
	}
	if !st.publishRoom() {
		t.Fatal("no room in an empty queue")
	}
	for i := range frames {
		if err := st.writeFrame(answer(i)); err != nil {
			t.Fatal(err)
		}
	}
	if st.publishRoom() {
		t.Fatalf("room for a publish with %d bytes queued (budget %d)", st.queuedBytes(), outputBudget)
	}
	select {
	case <-room:
		t.Fatal("onRoom called before the client read anything")
	default:
	}
	in := bufio.NewReader(clientIn)
	for i := range frames {
		body, err := readOneFrame(in)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(body, answer(i)) {
			t.Fatalf("frame %d: got %d bytes %.40q…, want answer %d", i, len(body), body, i)
		}
		if i == frames-1 {
			select {
			case <-room:
			case <-time.After(10 * time.Second):
				t.Fatal("onRoom not called once the client had read the queue")
			}
		}
	}
	if len(room) != 0 {
		t.Errorf("onRoom called %d more times: once per publishRoom that said no", len(room))
	}
	if !st.publishRoom() {
		t.Fatalf("no room with %d bytes queued", st.queuedBytes())
	}
	if err := st.closeFlushed(context.Background()); err != nil {
		t.Fatal(err)
	}
}
