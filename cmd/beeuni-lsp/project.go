package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// projectRoot returns the folder of the project a command works on: PATH's
// folder when PATH is the project's folder or its beeuni.yaml, else (no
// PATH) the nearest folder from the working folder up that holds a
// beeuni.yaml. It prints a one-line reason to stderr and returns exit code
// 2 when there is none.
func projectRoot(e env, fsys vfs.FS, arg string) (string, int) {
	if arg == "" {
		for dir := filepath.Clean(e.dir); ; {
			if info, err := fsys.Stat(filepath.Join(dir, analysis.ManifestName)); err == nil && info.Mode().IsRegular() {
				return dir, 0
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				fmt.Fprintf(e.stderr, "beeuni-lsp: no %s in the working folder or any folder above it\n", analysis.ManifestName)
				return "", 2
			}
			dir = parent
		}
	}
	p := arg
	if !filepath.IsAbs(p) {
		p = filepath.Join(e.dir, p)
	}
	p = filepath.Clean(p)
	info, err := fsys.Stat(p)
	if err != nil {
		fmt.Fprintf(e.stderr, "beeuni-lsp: cannot read %s: %v\n", relPath(e, p), unwrapPathError(err))
		return "", 2
	}
	if !info.IsDir() {
		if filepath.Base(p) != analysis.ManifestName {
			fmt.Fprintf(e.stderr, "beeuni-lsp: %s is not a folder nor a %s: name the project's folder or its %s\n", arg, analysis.ManifestName, analysis.ManifestName)
			return "", 2
		}
		return filepath.Dir(p), 0
	}
	if _, err := fsys.ReadDir(p); err != nil {
		fmt.Fprintf(e.stderr, "beeuni-lsp: cannot read folder %s: %v\n", relPath(e, p), unwrapPathError(err))
		return "", 2
	}
	if _, err := fsys.Stat(filepath.Join(p, analysis.ManifestName)); err != nil {
		fmt.Fprintf(e.stderr, "beeuni-lsp: no %s in %s\n", analysis.ManifestName, relPath(e, p))
		return "", 2
	}
	return p, 0
}

// loadProject finds and loads the project of arg (see projectRoot), or
// prints a one-line reason to stderr and returns exit code 2.
func loadProject(ctx context.Context, e env, fsys vfs.FS, arg string) (*analysis.Project, int) {
	root, code := projectRoot(e, fsys, arg)
	if code != 0 {
		return nil, code
	}
	p, err := analysis.Load(ctx, fsys, root)
	if err != nil {
		fmt.Fprintf(e.stderr, "beeuni-lsp: cannot read %s: %v\n", relPath(e, filepath.Join(root, analysis.ManifestName)), relMessage(e, root, unwrapPathError(err).Error()))
		return nil, 2
	}
	return p, 0
}

// relPath names an absolute path relative to the working folder, with
// slashes (`shop/beeuni.yaml` when run as `validate shop`), so that
// terminals, editors and problem matchers open it.
func relPath(e env, abs string) string {
	if r, err := filepath.Rel(e.dir, abs); err == nil {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(abs)
}

// relMessage names the paths under root in msg (an error's text, which
// may hold absolute paths) relative to the working folder.
func relMessage(e env, root, msg string) string {
	prefix := relPath(e, root) + "/"
	if prefix == "./" {
		prefix = ""
	}
	msg = strings.ReplaceAll(msg, root+string(filepath.Separator), prefix)
	return strings.ReplaceAll(msg, root, relPath(e, root))
}

// unwrapPathError drops the path from an *fs.PathError (the message names
// the path already).
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
