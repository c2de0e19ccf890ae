package vfstest

import (
	"fmt"
	"os"
	"path/filepath"
)

// OpenTempDir lets other users enter dir, a folder t.TempDir() returned, and
// read it: it makes dir and the test's temporary root above it (the two
// folders t.TempDir made, 0700) 0755, and nothing else. It checks first that
// the root's parent is os.TempDir() (compared clean and with symbolic links
// evaluated, so that TMPDIR=/tmp/ or a TMPDIR through a link is recognised)
// and refuses otherwise: it never changes the mode of a folder the test did
// not make, such as /tmp (its sticky bit) or /.
func OpenTempDir(dir string) error {
	testRoot := filepath.Dir(filepath.Clean(dir))
	parent, err := filepath.EvalSymlinks(filepath.Dir(testRoot))
	if err != nil {
		return fmt.Errorf("opening %s to other users: %w", dir, err)
	}
	tmp, err := filepath.EvalSymlinks(os.TempDir())
	if err != nil {
		return fmt.Errorf("opening %s to other users: the temporary folder: %w", dir, err)
	}
	if parent != tmp {
		return fmt.Errorf("opening %s to other users: not a folder of t.TempDir() (%s is not the temporary folder %s): changing modes outside the test's own folders is refused", dir, parent, tmp)
	}
	for _, d := range []string{dir, testRoot} {
		if err := os.Chmod(d, 0o755); err != nil {
			return fmt.Errorf("opening %s to other users: %w", dir, err)
		}
	}
	return nil
}
