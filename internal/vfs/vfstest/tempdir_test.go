package vfstest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs/vfstest"
)

// TestOpenTempDir: with TMPDIR written with a trailing slash and through a
// symbolic link, OpenTempDir opens the two folders t.TempDir made and
// changes the mode of no folder above them.
func TestOpenTempDir(t *testing.T) {
	outer, err := os.MkdirTemp("", "opentempdir-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(outer)
	real := filepath.Join(outer, "real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(outer, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(outer, "link")); err != nil {
		t.Fatal(err)
	}
	t.Run("trailing slash through a link", func(t *testing.T) {
		t.Setenv("TMPDIR", filepath.Join(outer, "link")+"/")
		dir := t.TempDir()
		if err := vfstest.OpenTempDir(dir); err != nil {
			t.Fatal(err)
		}
		for path, want := range map[string]os.FileMode{dir: 0o755, filepath.Dir(dir): 0o755, real: 0o700, outer: 0o700} {
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := info.Mode().Perm(); got != want {
				t.Errorf("%s: mode %04o, want %04o", path, got, want)
			}
		}
	})
	t.Run("not a folder of t.TempDir", func(t *testing.T) {
		nested := filepath.Join(real, "a", "b", "c")
		if err := os.MkdirAll(nested, 0o700); err != nil {
			t.Fatal(err)
		}
		err := vfstest.OpenTempDir(nested)
		if err == nil || !strings.Contains(err.Error(), "not a folder of t.TempDir()") {
			t.Errorf("OpenTempDir(%s): %v, want a refusal", nested, err)
		}
		for _, path := range []string{nested, filepath.Dir(nested)} {
			if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o700 {
				t.Errorf("%s: %v, %v; want it left 0700", path, info.Mode(), err)
			}
		}
	})
}
