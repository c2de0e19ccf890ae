// Package vfstest holds what tests of the packages that read through vfs.FS
// share: a file system that records what is read (to check that nothing
// outside a repository is), and a writer of small repositories on the real
// disk (hostile workspaces with symbolic links).
package vfstest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// RecordingFS wraps a file system, recording the paths whose content or
// listing is read, and failing reads of denied paths with a permission error
// (root reads any file whatever its mode, so an unreadable file is simulated
// here). Safe for concurrent use.
type RecordingFS struct {
	vfs.FS
	mu    sync.Mutex
	reads []string
	deny  map[string]bool
}

// NewRecordingFS records the reads made through fsys.
func NewRecordingFS(fsys vfs.FS) *RecordingFS {
	return &RecordingFS{FS: fsys, deny: map[string]bool{}}
}

// Deny makes ReadFile of path fail with fs.ErrPermission.
func (r *RecordingFS) Deny(path string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.deny[filepath.Clean(path)] = true
}

// Allow lifts Deny.
func (r *RecordingFS) Allow(path string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.deny, filepath.Clean(path))
}

// ReadFile implements vfs.FS.
func (r *RecordingFS) ReadFile(p string) ([]byte, error) {
	if r.record(p) {
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrPermission}
	}
	return r.FS.ReadFile(p)
}

// ReadDir implements vfs.FS.
func (r *RecordingFS) ReadDir(p string) ([]fs.DirEntry, error) {
	r.record(p)
	return r.FS.ReadDir(p)
}

// record notes a read of p and reports whether p is denied.
func (r *RecordingFS) record(p string) (denied bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reads = append(r.reads, p)
	return r.deny[filepath.Clean(p)]
}

// Reads returns the paths read so far, in order.
func (r *RecordingFS) Reads() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.reads...)
}

// AssertReadsWithin fails t for every read whose real path (symbolic links
// resolved) leaves root.
func (r *RecordingFS) AssertReadsWithin(t testing.TB, root string) {
	t.Helper()
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Reads() {
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			real = p
		}
		if !vfs.Within(realRoot, real) {
			t.Errorf("read %s (really %s), outside the repository %s", p, real, realRoot)
		}
	}
}

// WriteRepo writes files (slash path relative to the repository → content)
// under a new repository in t.TempDir() and returns its root. A content of
// the form "-> TARGET" makes a symbolic link to TARGET.
func WriteRepo(t testing.TB, files map[string]string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	WriteFiles(t, root, files)
	return root
}

// WriteFiles writes files (slash path relative to dir → content) under dir,
// creating the folders they need. A content of the form "-> TARGET" makes a
// symbolic link to TARGET.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "-> "); ok {
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Snapshot lists every file, folder and link under dir (dir itself as
// "./"), by path relative to dir: a file with its content, a folder (its
// path ending in "/") with "", a link with "-> TARGET". Compare two to
// check that nothing under dir changed.
func Snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		r, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out[r] = "-> " + target
		case d.IsDir():
			out[r+"/"] = ""
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[r] = string(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
