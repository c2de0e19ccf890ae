//go:build linux

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// blockingPipe is a pipe as an editor hands it to the server: blocking
// descriptors (os.Pipe's are non-blocking already).
func blockingPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	r, w = os.NewFile(uintptr(fds[0]), "pipe-r"), os.NewFile(uintptr(fds[1]), "pipe-w")
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

func blockingSocketPair(t *testing.T) (a, b *os.File) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	a, b = os.NewFile(uintptr(fds[0]), "sock-a"), os.NewFile(uintptr(fds[1]), "sock-b")
	t.Cleanup(func() { a.Close(); b.Close() })
	return a, b
}

func nonBlocking(t *testing.T, f *os.File) bool {
	t.Helper()
	fd, _, ok := fdStat(f)
	if !ok {
		t.Fatalf("no descriptor for %s", f.Name())
	}
	flags, err := fcntlGetfl(fd)
	if err != nil {
		t.Fatal(err)
	}
	return flags&syscall.O_NONBLOCK != 0
}

func fcntlGetfl(fd int) (int, error) {
	r, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	if e != 0 {
		return 0, e
	}
	return int(r), nil
}

// checkStream reads what w wrote through r, then the end of the stream.
func checkStream(t *testing.T, r, w *os.File) {
	t.Helper()
	if err := r.SetReadDeadline(time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read before any write: %v, want a deadline error (the poller waits, not a thread)", err)
	}
	if err := r.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("Content-Length: 2\r\n\r\n{}")); err != nil {
		t.Fatal(err)
	}
	w.Close()
	got, err := io.ReadAll(r)
	if err != nil || string(got) != "Content-Length: 2\r\n\r\n{}" {
		t.Fatalf("read %q, %v", got, err)
	}
}

func TestPollableStdinPipe(t *testing.T) {
	r, w := blockingPipe(t)
	_, out := blockingPipe(t)
	got, restore := pollableStdin(r, out, nil)
	defer restore()
	if got == r || !pollable(got) {
		t.Fatalf("a pipe's stdin is not waited on by the poller (same file: %v)", got == r)
	}
	if nonBlocking(t, r) {
		t.Fatal("the inherited pipe description was made non-blocking: whoever else holds it would see EAGAIN")
	}
	checkStream(t, got, w)
	restore()
	if _, _, ok := fdStat(r); !ok {
		t.Fatal("restore closed the inherited descriptor")
	}
}

func TestPollableStdinSocket(t *testing.T) {
	in, peer := blockingSocketPair(t)
	out, _ := blockingSocketPair(t)
	errOut, _ := blockingSocketPair(t)
	got, restore := pollableStdin(in, out, errOut)
	if got == in || !pollable(got) {
		t.Fatal("a socket's stdin is not waited on by the poller through a descriptor of its own")
	}
	checkStream(t, got, peer)
	restore()
	// Whoever else holds the socket (a wrapper shell) reads it blocking
	// again, through a descriptor the server left open.
	if _, _, ok := fdStat(in); !ok {
		t.Fatal("restore closed the inherited descriptor")
	}
	if nonBlocking(t, in) {
		t.Fatal("the socket was left non-blocking after the server was done with it")
	}
}

func TestPollableStdinLeftAsIs(t *testing.T) {
	// One socket for stdin and stdout, or stdin and stderr: making it
	// non-blocking would make their blocking writes fail with EAGAIN.
	both, _ := blockingSocketPair(t)
	out, _ := blockingSocketPair(t)
	for _, c := range []struct{ out, errOut *os.File }{{both, nil}, {out, both}} {
		got, restore := pollableStdin(both, c.out, c.errOut)
		restore()
		if got != both || nonBlocking(t, both) {
			t.Fatal("stdin shared with stdout or stderr was changed")
		}
	}
	// Stdin the poller already waits on (os.Pipe's are non-blocking): a
	// second file of its descriptor would close it when collected.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	if got, _ := pollableStdin(r, nil, nil); got != r {
		t.Fatal("stdin the poller already waits on was replaced")
	}
	file, err := os.Create(filepath.Join(t.TempDir(), "input"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if got, _ := pollableStdin(file, nil, nil); got != file {
		t.Fatal("a regular file's stdin was replaced")
	}
	if got, _ := pollableStdin(nil, nil, nil); got != nil {
		t.Fatal("no stdin became one")
	}
}

// pipeFDs lists this process's descriptors reading the pipe f reads,
// other than f's own, each with whether it is non-blocking.
func pipeFDs(t *testing.T, f *os.File) map[string]bool {
	t.Helper()
	fd, _, _ := fdStat(f)
	target, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, e := range entries {
		if e.Name() == strconv.Itoa(fd) {
			continue
		}
		if l, err := os.Readlink("/proc/self/fd/" + e.Name()); err != nil || l != target {
			continue
		}
		info, err := os.ReadFile("/proc/self/fdinfo/" + e.Name())
		if err != nil {
			continue // closed meanwhile
		}
		for _, line := range strings.Split(string(info), "\n") {
			if v, ok := strings.CutPrefix(line, "flags:"); ok {
				flags, _ := strconv.ParseInt(strings.TrimSpace(v), 8, 64)
				if flags&syscall.O_ACCMODE == syscall.O_RDONLY {
					out[e.Name()] = flags&syscall.O_NONBLOCK != 0
				}
			}
		}
	}
	return out
}

// The server reads a pipe stdin through a non-blocking descriptor of its
// own while it runs, and closes it when it is done.
func TestServeReadsStdinThroughThePoller(t *testing.T) {
	restoreGC(t) // runServe tunes the collector
	r, w := blockingPipe(t)
	outR, outW := blockingPipe(t)
	go io.Copy(io.Discard, outR)
	done := make(chan int, 1)
	go func() {
		done <- runServe(context.Background(), env{stdin: r, stdout: outW, stderr: io.Discard, dir: t.TempDir()}, nil)
	}()
	frame := func(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }
	if _, err := io.WriteString(w, frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		fds := pipeFDs(t, r)
		if len(fds) == 1 {
			for name, nb := range fds {
				if !nb {
					t.Fatalf("the server's descriptor %s of its stdin is blocking", name)
				}
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server opened %d descriptors of its stdin pipe, want 1 non-blocking one", len(fds))
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := io.WriteString(w, frame(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)+frame(`{"jsonrpc":"2.0","method":"exit"}`)); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit code %d after shutdown and exit", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not return after exit")
	}
	if fds := pipeFDs(t, r); len(fds) != 0 {
		t.Fatalf("descriptors of the stdin pipe left open after the server returned: %v", fds)
	}
}
