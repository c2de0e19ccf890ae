package edit

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/beeunitools"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// ReturnKeepTitle is the menu title of the return action that leaves the
// module file where it is.
func ReturnKeepTitle(name string) string { return ReturnTitle(name) + " (keep the file)" }

// maxImportScan bounds the entries the search for a module's importers
// visits; past it, the module counts as imported (it is kept).
const maxImportScan = 20000

// keepReason says why return to beeuni: must leave module (absolute) on
// disk, or "" when deleting it loses nothing the project needs: it is an
// ejected copy (the entry carries the marker the eject writes, or the file
// opens with the header of the Beeuni source the eject wrote), and no
// module of the repository imports it.
func keepReason(p *analysis.Project, fsys vfs.FS, name, module string, marked bool) string {
	rel := p.Rel(module)
	if !marked && !ejectHeader(fsys, name, module) {
		return fmt.Sprintf("%s is not an ejected copy (no `%s` on the entry, no Beeuni header in the file)", rel, EjectedComment(name))
	}
	importer, err := importerOf(fsys, p.Root, module)
	switch {
	case err != nil:
		return fmt.Sprintf("cannot tell whether a module imports %s: %v", rel, err)
	case importer != "":
		return fmt.Sprintf("%s imports %s", p.Rel(importer), rel)
	}
	return ""
}

// ejectHeader reports whether module begins with the first line of the
// Beeuni source of name, the header every ejected copy starts with.
func ejectHeader(fsys vfs.FS, name, module string) bool {
	src, ok := beeunitools.Source(name)
	if !ok {
		return false
	}
	first, _, _ := bytes.Cut(src, []byte("\n"))
	data, err := fsys.ReadFile(module)
	return err == nil && len(first) > 0 && bytes.HasPrefix(data, first)
}

var errTooManyFiles = errors.New("the repository has too many files to look through")

// importerOf returns a JavaScript or TypeScript file of the repository at
// root (dependencies, hidden folders and symbolic links skipped, as the
// workspace scan does) whose text holds a relative specifier that
// resolves to module, or "". The check is textual and errs towards
// "imported": a specifier in a comment counts too.
func importerOf(fsys vfs.FS, root, module string) (string, error) {
	target := stripModuleExt(module)
	queue := []string{root}
	visited := 0
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		entries, err := fsys.ReadDir(dir)
		if err != nil {
			if dir == root {
				return "", err
			}
			continue
		}
		for _, e := range entries {
			if visited++; visited > maxImportScan {
				return "", errTooManyFiles
			}
			name := e.Name()
			path := filepath.Join(dir, name)
			switch {
			case e.Type()&fs.ModeSymlink != 0:
			case e.IsDir():
				if name != "node_modules" && !strings.HasPrefix(name, ".") {
					queue = append(queue, path)
				}
			case path != module && analysis.HasModuleExtension(name):
				data, err := fsys.ReadFile(path)
				if err != nil {
					continue
				}
				if importsTarget(data, dir, target) {
					return path, nil
				}
			}
		}
	}
	return "", nil
}

// importsTarget reports whether src holds a quoted relative specifier
// ("./x", "../x") that, read from dir, names target (a path without its
// module extension): with or without an extension, or as a folder whose
// index it is.
func importsTarget(src []byte, dir, target string) bool {
	for i := 0; i < len(src); i++ {
		q := src[i]
		if q != '\'' && q != '"' && q != '`' {
			continue
		}
		end := bytes.IndexByte(src[i+1:], q)
		if end < 0 {
			return false
		}
		spec := string(src[i+1 : i+1+end])
		if nl := strings.IndexByte(spec, '\n'); nl >= 0 {
			// Not a one-line string: look again from the line break.
			i += nl
			continue
		}
		i += end + 1
		if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
			continue
		}
		named := filepath.Join(dir, filepath.FromSlash(spec))
		if stripModuleExt(named) == target || filepath.Join(named, "index") == target {
			return true
		}
	}
	return false
}

// stripModuleExt drops a module extension from p.
func stripModuleExt(p string) string {
	if analysis.HasModuleExtension(p) {
		return strings.TrimSuffix(p, filepath.Ext(p))
	}
	return p
}
