package bench

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// memory reads the peak and current resident size of the server and asks
// it for its heap after a forced collection.
func (r *runner) memory(ctx context.Context) error {
	pid := r.c.Pid()
	var err error
	if r.res.PeakRSS, err = ProcStatus(pid, "VmHWM"); err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	var mem struct {
		HeapAlloc int64 `json:"heapAlloc"`
	}
	r.res.HeapAfterGC = -1
	if _, err := r.c.Call(wctx, "beeuni/debugMemory", nil, &mem); err != nil {
		var rpcErr *RPCError
		if !errors.As(err, &rpcErr) {
			return err
		}
		r.res.Notes = append(r.res.Notes, "beeuni/debugMemory: "+rpcErr.Message)
	} else {
		r.res.HeapAfterGC = mem.HeapAlloc
	}
	if r.res.RSSEnd, err = ProcStatus(pid, "VmRSS"); err != nil {
		return err
	}
	return nil
}

// FileURI returns the file:// URI of an absolute path.
func FileURI(path string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return u.String()
}

// PositionAt converts a byte offset in text to an LSP position in UTF-16
// code units.
func PositionAt(text string, offset int) Position {
	if offset > len(text) {
		offset = len(text)
	}
	lineStart := strings.LastIndexByte(text[:offset], '\n') + 1
	line := strings.Count(text[:lineStart], "\n")
	char := 0
	for _, r := range text[lineStart:offset] {
		if r >= 0x10000 && r != utf8.RuneError {
			char += 2
		} else {
			char++
		}
	}
	return Position{Line: line, Character: char}
}

// procCPU returns the user+system CPU time of a process.
func procCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1, err
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return -1, errors.New("malformed /proc stat")
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return -1, errors.New("short /proc stat")
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return -1, errors.New("malformed /proc stat times")
	}
	const clockTicks = 100 // USER_HZ on Linux
	return time.Duration(ut+st) * time.Second / clockTicks, nil
}

// procRead returns the bytes a process has read (rchar: files and pipes).
func procRead(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		return -1, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "rchar: "); ok {
			return strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	return -1, errors.New("no rchar in /proc io")
}

func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
