package vfstest_test

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
	"github.com/beeuni/beeuni-lsp/internal/vfs/vfstest"
)

func TestRecordingFS(t *testing.T) {
	root := vfstest.WriteRepo(t, map[string]string{
		"a.txt":     "a",
		"dir/b.txt": "b",
		"link.txt":  "-> a.txt",
	})
	if target, err := os.Readlink(filepath.Join(root, "link.txt")); err != nil || target != "a.txt" {
		t.Fatalf("link.txt: Readlink = %q, %v; want a symbolic link to a.txt", target, err)
	}
	fsys := vfstest.NewRecordingFS(vfs.NewDisk())
	a := filepath.Join(root, "a.txt")
	if got, err := fsys.ReadFile(filepath.Join(root, "link.txt")); err != nil || string(got) != "a" {
		t.Fatalf("ReadFile(link.txt) = %q, %v; want %q", got, err, "a")
	}
	fsys.Deny(a)
	if _, err := fsys.ReadFile(a); !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("ReadFile of a denied file: err = %v, want fs.ErrPermission", err)
	}
	fsys.Allow(a)
	if _, err := fsys.ReadFile(a); err != nil {
		t.Fatalf("ReadFile after Allow: %v", err)
	}
	if _, err := fsys.ReadDir(filepath.Join(root, "dir")); err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(root, "link.txt"), a, a, filepath.Join(root, "dir")}
	if got := fsys.Reads(); !slices.Equal(got, want) {
		t.Fatalf("Reads() = %q, want %q", got, want)
	}
	fsys.AssertReadsWithin(t, root)
}

func TestSnapshot(t *testing.T) {
	dir := t.TempDir()
	vfstest.WriteFiles(t, dir, map[string]string{"a.txt": "a", "sub/b.txt": "b", "link": "-> a.txt"})
	got := vfstest.Snapshot(t, dir)
	want := map[string]string{
		"./":                          "",
		"a.txt":                       "a",
		"link":                        "-> a.txt",
		"sub/":                        "",
		filepath.Join("sub", "b.txt"): "b",
	}
	if !maps.Equal(got, want) {
		t.Fatalf("Snapshot = %q, want %q", got, want)
	}
}
