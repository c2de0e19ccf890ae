package vfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestDiskReadFileRefusesHostileFiles puts on disk what a hostile repository
// can hold where a module or manifest should be, and checks that ReadFile
// answers each with an error that says what it is, instead of blocking on a
// FIFO, reading a device forever or loading a huge file into memory.
func TestDiskReadFileRefusesHostileFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.ts")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	mustSymlink(t, "/dev/zero", filepath.Join(dir, "zero.ts"))
	mustSymlink(t, "/dev/null", filepath.Join(dir, "null.yaml"))
	mustSymlink(t, "loop-b", filepath.Join(dir, "loop-a"))
	mustSymlink(t, "loop-a", filepath.Join(dir, "loop-b"))
	if err := os.Mkdir(filepath.Join(dir, "folder.ts"), 0o755); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.ts")
	if err := os.WriteFile(big, make([]byte, 50<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse.ts")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 40); err != nil { // a terabyte that takes no disk
		t.Fatal(err)
	}
	f.Close()

	disk := &Disk{MaxFileSize: 10 << 20}
	tests := []struct {
		name string
		path string
		want error  // errors.Is target, nil: any error
		says string // part of the message
	}{
		{"fifo", fifo, ErrNotRegular, "named pipe"},
		{"symlink to /dev/zero", filepath.Join(dir, "zero.ts"), ErrNotRegular, "character device"},
		{"symlink to /dev/null", filepath.Join(dir, "null.yaml"), ErrNotRegular, "character device"},
		{"directory", filepath.Join(dir, "folder.ts"), ErrNotRegular, "directory"},
		{"50 MB file over a 10 MB limit", big, ErrTooLarge, "limit"},
		{"sparse 1 TB file", sparse, ErrTooLarge, "limit"},
		{"symlink loop", filepath.Join(dir, "loop-a"), syscall.ELOOP, "loop-a"},
		{"missing", filepath.Join(dir, "missing.ts"), fs.ErrNotExist, "missing.ts"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, err := disk.ReadFile(tc.path)
			if err == nil {
				t.Fatalf("ReadFile(%s) read %d bytes, want an error", tc.path, len(data))
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("ReadFile(%s) = %v, want %v", tc.path, err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.says) {
				t.Errorf("ReadFile(%s) = %q, want it to say %q", tc.path, err, tc.says)
			}
		})
	}
}

// TestDiskReadFileDefaultLimitTakes50MB checks that the default limit lets a
// 50 MB file through whole (the engine then decides what to report) while a
// smaller configured limit refuses it.
func TestDiskReadFileDefaultLimitTakes50MB(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.ts")
	if err := os.WriteFile(p, make([]byte, 50<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := NewDisk().ReadFile(p)
	if err != nil || len(data) != 50<<20 {
		t.Fatalf("ReadFile = %d bytes, %v; want 50 MB, nil", len(data), err)
	}
	if _, err := (&Disk{MaxFileSize: 50<<20 - 1}).ReadFile(p); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("ReadFile with limit one byte short = %v, want ErrTooLarge", err)
	}
}

// TestDiskReadFileEndlessRegularFile reads a /proc file that reports size 0:
// the limit still bounds what is read.
func TestDiskReadFileEndlessRegularFile(t *testing.T) {
	const p = "/proc/self/status"
	info, err := os.Stat(p)
	if err != nil {
		t.Fatalf("stat %s: %v", p, err)
	}
	if !info.Mode().IsRegular() || info.Size() != 0 {
		t.Fatalf("%s: mode %v size %d, the test expects a regular file reporting size 0", p, info.Mode(), info.Size())
	}
	if _, err := (&Disk{MaxFileSize: 16}).ReadFile(p); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("ReadFile(%s) with a 16-byte limit = %v, want ErrTooLarge", p, err)
	}
	data, err := NewDisk().ReadFile(p)
	if err != nil || !strings.Contains(string(data), "Name:") {
		t.Fatalf("ReadFile(%s) = %q, %v", p, data, err)
	}
}

// TestDiskReadFileUnreadable checks the error path of a file the process may
// not read. Root reads any file whatever its mode, so the test opens a file
// that refuses reads to everyone: /proc/self/mem at offset 0 answers EIO.
func TestDiskReadFileUnreadable(t *testing.T) {
	const p = "/proc/self/mem"
	_, err := NewDisk().ReadFile(p)
	if err == nil {
		t.Fatalf("ReadFile(%s) succeeded, want an error", p)
	}
	if !strings.Contains(err.Error(), p) {
		t.Errorf("error %q does not name the file", err)
	}
	if os.Geteuid() != 0 {
		q := filepath.Join(t.TempDir(), "secret.ts")
		if err := os.WriteFile(q, []byte("x"), 0o000); err != nil {
			t.Fatal(err)
		}
		if _, err := NewDisk().ReadFile(q); !errors.Is(err, fs.ErrPermission) {
			t.Errorf("ReadFile(mode 000) = %v, want a permission error", err)
		}
	}
}

func TestDiskEvalSymlinksLoop(t *testing.T) {
	dir := t.TempDir()
	mustSymlink(t, ".", filepath.Join(dir, "self"))
	mustSymlink(t, "b", filepath.Join(dir, "a"))
	mustSymlink(t, "a", filepath.Join(dir, "b"))
	if _, err := NewDisk().EvalSymlinks(filepath.Join(dir, "a", "x.ts")); err == nil {
		t.Error("EvalSymlinks through a loop succeeded")
	}
	// A link to its own folder is no loop: it resolves to the folder.
	got, err := NewDisk().EvalSymlinks(filepath.Join(dir, "self", "self", "self"))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(dir)
	if got != want {
		t.Errorf("EvalSymlinks(self/self/self) = %s, want %s", got, want)
	}
}

func TestWithin(t *testing.T) {
	tests := []struct {
		root, path string
		want       bool
	}{
		{"/repo", "/repo", true},
		{"/repo", "/repo/", true},
		{"/repo", "/repo/tools/a.ts", true},
		{"/repo", "/repo/..foo", true},
		{"/repo", "/repo/a/../b", true},
		{"/repo", "/repo/a/../../etc", false},
		{"/repo", "/repo/..", false},
		{"/repo", "/repox", false},
		{"/repo", "/repo-other/a", false},
		{"/repo", "/", false},
		{"/repo", "/etc/passwd", false},
		{"/repo/", "/repo/a", true},
		{"/", "/anything", true},
		{"/repo", "repo/a", false},
		{"repo", "/repo/a", false},
		{"", "/a", false},
		{"/repo", "", false},
	}
	for _, tc := range tests {
		if got := Within(tc.root, tc.path); got != tc.want {
			t.Errorf("Within(%q, %q) = %v, want %v", tc.root, tc.path, got, tc.want)
		}
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatalf("symlink %s -> %s: %v", link, target, err)
	}
}
