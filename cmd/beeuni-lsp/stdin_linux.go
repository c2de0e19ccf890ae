//go:build linux

package main

import (
	"fmt"
	"os"
	"syscall"
	"time"
)

// pollableStdin returns a reader of in (the server's stdin) that the Go
// runtime's network poller waits on, or in itself when it cannot.
//
// An editor starts the server with a pipe or a socket as stdin. Read as
// Go opens it, in blocking mode, a thread sits in read(2) between
// messages: each keystroke's message then wakes that thread, the runtime
// hands its processor over, and the runtime's monitor, seeing a thread in a
// system call, keeps polling instead of sleeping. Waited on by the poller,
// a message costs one epoll wake-up: at 1,000 tools, about a third less CPU
// per keystroke (docs/performance.md, "Stdin through the poller").
//
// The mode is a property of the open file description, shared with
// whatever else holds it, so it is never changed where that could be seen:
//   - a pipe is opened again through /proc/self/fd (a new description of
//     the same pipe, non-blocking; the inherited one is left as it was);
//   - a socket cannot be opened again: it is made non-blocking only when
//     stdout is not the same socket (a blocking write to stdout must not
//     start failing with EAGAIN);
//   - a terminal, a regular file or anything else is read as it is.
func pollableStdin(in, out *os.File) *os.File {
	fd, st, ok := fdStat(in)
	if !ok {
		return in
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFIFO:
		nfd, err := syscall.Open(fmt.Sprintf("/proc/self/fd/%d", fd), syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != nil {
			return in // no /proc: read it blocking
		}
		var nst syscall.Stat_t
		if syscall.Fstat(nfd, &nst) != nil || nst.Dev != st.Dev || nst.Ino != st.Ino {
			syscall.Close(nfd)
			return in
		}
		return pollableOr(os.NewFile(uintptr(nfd), in.Name()), in, true)
	case syscall.S_IFSOCK:
		if _, ost, ok := fdStat(out); ok && ost.Dev == st.Dev && ost.Ino == st.Ino {
			return in
		}
		if syscall.SetNonblock(fd, true) != nil {
			return in
		}
		return pollableOr(os.NewFile(uintptr(fd), in.Name()), in, false)
	}
	return in
}

// pollableOr returns f when the poller took it (only a pollable file has
// deadlines), else in, closing f first when it is a new descriptor.
func pollableOr(f, in *os.File, own bool) *os.File {
	if f.SetReadDeadline(time.Time{}) == nil {
		return f
	}
	if own {
		f.Close()
	}
	return in
}

// fdStat returns f's descriptor and its fstat(2), read without putting f
// in blocking mode (as File.Fd would).
func fdStat(f *os.File) (int, syscall.Stat_t, bool) {
	var st syscall.Stat_t
	if f == nil {
		return -1, st, false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return -1, st, false
	}
	fd := -1
	var statErr error
	if err := rc.Control(func(u uintptr) {
		fd = int(u)
		statErr = syscall.Fstat(fd, &st)
	}); err != nil || statErr != nil {
		return -1, st, false
	}
	return fd, st, true
}
