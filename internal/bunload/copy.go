package bunload

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// CopyWorkspace copies the folder src into dst (which must not exist) for
// Bun to load modules from a copy: regular files and folders, and symbolic
// links as links when they are relative and resolve, in src, to a place
// inside src; `.git` is left out. Every other link (absolute, leading out of
// src, not resolving) is skipped, so that module code run in the copy cannot
// reach the real tree through one; skipped lists them, "path -> target",
// the path relative to src.
func CopyWorkspace(src, dst string) (skipped []string, err error) {
	root, err := filepath.EvalSymlinks(src)
	if err != nil {
		return nil, fmt.Errorf("copy %s: %w", src, err)
	}
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir() && d.Name() == ".git" && rel != ".":
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			if !staysInside(root, p, rel, link) {
				skipped = append(skipped, filepath.ToSlash(rel)+" -> "+link)
				return nil
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			return copyFile(p, target)
		}
		return nil // sockets, devices, FIFOs: not part of a config release
	})
	return skipped, err
}

// staysInside tells whether the link at p (rel from the walk's root), to
// link, is relative and leads to root or a place inside it (root
// symlink-free).
func staysInside(root, p, rel, link string) bool {
	if filepath.IsAbs(link) || filepath.VolumeName(link) != "" {
		return false // a copy would point at the real tree
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false // dangling or a loop
	}
	// Inside both as written (no way up past the copy's root, whatever its
	// name) and as resolved (through the links on the way).
	return inside(".", filepath.Join(filepath.Dir(rel), link)) && inside(root, real)
}

// inside tells whether path is root or below it, both clean and absolute
// or both relative to one folder.
func inside(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s: %w", src, err)
	}
	return out.Close()
}
