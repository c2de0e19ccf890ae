//go:build linux

package main

import (
	"fmt"
	"os"
	"syscall"
	"time"
)

// pollableStdin returns a reader of in (the server's stdin) that the Go
// runtime's network poller waits on, and restore, which the caller runs
// once it is done reading (it closes what pollableStdin opened and puts
// back what it changed). When it cannot, the reader is in itself.
//
// An editor starts the server with a pipe or a socket as stdin. Read as
// Go opens it, in blocking mode, a thread sits in read(2) between
// messages: each keystroke's message then wakes that thread, the runtime
// hands its processor over, and the runtime's monitor, seeing a thread in a
// system call, keeps polling instead of sleeping. Waited on by the poller,
// a message costs one epoll wake-up: at 1,000 tools, about a fifth less CPU
// per keystroke (docs/performance.md, "Stdin through the poller, parked
// YAML workers").
//
// The blocking mode belongs to the open file description, which whatever
// else holds it shares:
//   - a pipe is opened again through /proc/self/fd (a new description of
//     the same pipe, non-blocking; the inherited one keeps its mode);
//   - a socket (what Node's and Neovim's libuv hand a child) cannot be
//     opened again, so its description is made non-blocking, read through
//     a descriptor of its own, and made blocking again by restore; never
//     when stdout or stderr is the same socket (their blocking writes would
//     fail with EAGAIN);
//   - stdin the poller already waits on, a terminal, a regular file or
//     anything else is read as it is.
func pollableStdin(in, out, errOut *os.File) (reader *os.File, restore func()) {
	none := func() {}
	fd, st, ok := fdStat(in)
	if !ok || pollable(in) {
		return in, none
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFIFO:
		nfd, err := syscall.Open(fmt.Sprintf("/proc/self/fd/%d", fd), syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != nil {
			return in, none // no /proc: read it blocking
		}
		var nst syscall.Stat_t
		if syscall.Fstat(nfd, &nst) != nil || nst.Dev != st.Dev || nst.Ino != st.Ino {
			syscall.Close(nfd)
			return in, none
		}
		f := os.NewFile(uintptr(nfd), in.Name())
		if !pollable(f) {
			f.Close()
			return in, none
		}
		return f, func() { f.Close() }
	case syscall.S_IFSOCK:
		for _, o := range []*os.File{out, errOut} {
			if _, ost, ok := fdStat(o); ok && ost.Dev == st.Dev && ost.Ino == st.Ino {
				return in, none
			}
		}
		dup, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_DUPFD_CLOEXEC, 0)
		if errno != 0 {
			return in, none
		}
		blocking := func() { _ = syscall.SetNonblock(fd, false) }
		if syscall.SetNonblock(int(dup), true) != nil {
			syscall.Close(int(dup))
			return in, none
		}
		f := os.NewFile(dup, in.Name())
		if !pollable(f) {
			f.Close()
			blocking()
			return in, none
		}
		return f, func() { f.Close(); blocking() }
	}
	return in, none
}

// pollable reports whether the poller waits on f: only such a file has
// deadlines.
func pollable(f *os.File) bool { return f.SetReadDeadline(time.Time{}) == nil }

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
