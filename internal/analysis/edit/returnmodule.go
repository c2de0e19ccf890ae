package edit

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/beeunitools"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// ReturnKeepTitle is the menu title of the return action that leaves the
// module file where it is.
func ReturnKeepTitle(name string) string { return ReturnTitle(name) + " (keep the file)" }

// ReturnDeleteTitle is the menu title of the return action that deletes
// the module (rel, repository-relative): the title names what is lost.
func ReturnDeleteTitle(name, rel string) string {
	return fmt.Sprintf("%s (delete %s)", ReturnTitle(name), rel)
}

// maxImportScan bounds the entries the search for a module's importers
// visits; past it, the module counts as imported (it is kept).
const maxImportScan = 20000

// keepReason says why return to beeuni: must leave module (absolute) on
// disk, or "" when deleting it loses nothing the project needs: its text
// is still what eject wrote (the embedded Beeuni source of name, line
// breaks aside), so no work of the user's is in it, and no module of the
// repository may import it.
func keepReason(p *analysis.Project, fsys vfs.FS, name, module string) string {
	rel := p.Rel(module)
	if why := notAsEjected(fsys, name, module); why != "" {
		return fmt.Sprintf("%s %s", rel, why)
	}
	importer, err := importerOf(fsys, p.Root, module)
	switch {
	case err != nil:
		return fmt.Sprintf("cannot tell whether a module imports %s: %v", rel, err)
	case importer != "":
		return fmt.Sprintf("%s may import %s", p.Rel(importer), rel)
	}
	return ""
}

// notAsEjected says how module differs from the copy eject writes for
// name (the embedded Beeuni source, byte for byte; CRLF line breaks, as a
// checkout may write them, count as LF), or "" when it does not. The
// `# ejected from` marker on the entry is not enough: the user may have
// edited the copy since.
func notAsEjected(fsys vfs.FS, name, module string) string {
	src, ok := beeunitools.Source(name)
	if !ok {
		return "is not the copy of a Beeuni tool"
	}
	data, err := fsys.ReadFile(module)
	if err != nil {
		return fmt.Sprintf("cannot be read: %v", err)
	}
	if !bytes.Equal(data, src) && !bytes.Equal(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), src) {
		return "differs from the Beeuni source eject writes (edited since, or not an ejected copy)"
	}
	return ""
}

var errTooManyFiles = errors.New("the repository has too many files to look through")

// importerOf returns a JavaScript or TypeScript file (JSX included) of
// the repository at root (dependencies, hidden folders and symbolic links
// skipped, as the workspace scan does) whose text may import module, or
// "" (see importsTarget). The check is textual and errs towards
// "imported": a specifier in a comment counts too, and a folder or file
// it cannot read is an error (the caller keeps the module).
func importerOf(fsys vfs.FS, root, module string) (string, error) {
	target := stripModuleExt(module)
	names := importNames(module)
	queue := []string{root}
	visited := 0
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		entries, err := fsys.ReadDir(dir)
		if err != nil {
			// A folder left unread may hold an importer: the scan is
			// incomplete, and the module counts as imported.
			return "", err
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
			case path != module && mayImport(name):
				data, err := fsys.ReadFile(path)
				if err != nil {
					return "", err
				}
				if importsTarget(data, dir, target, names) {
					return path, nil
				}
			}
		}
	}
	return "", nil
}

// importsTarget reports whether src holds a quoted specifier that may
// name target (a path without its module extension; names are
// importNames of it). A relative one ("./x", "../x"), read from dir, must
// resolve to it: with or without an extension, or as a folder whose index
// it is. Any other (bare, a tsconfig `paths` alias or `baseUrl` path, a
// package.json `#imports` name) counts when its last segment, extension
// and `/index` dropped, is one of names: where it resolves to depends on
// configuration this check does not read, so it errs towards keeping.
func importsTarget(src []byte, dir, target string, names []string) bool {
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
			if last := lastSegment(spec); last != "" && slices.Contains(names, last) {
				return true
			}
			continue
		}
		named := filepath.Join(dir, filepath.FromSlash(spec))
		if stripModuleExt(named) == target || filepath.Join(named, "index") == target {
			return true
		}
	}
	return false
}

// importNames are the last segments a non-relative specifier of module
// may end with: its base name without extension and, for an index file,
// its folder's name.
func importNames(module string) []string {
	base := filepath.Base(stripModuleExt(module))
	if base == "index" {
		return []string{filepath.Base(filepath.Dir(module))}
	}
	return []string{base}
}

// lastSegment returns the last path segment of a non-relative specifier,
// its module extension and a final `/index` dropped, and a `#` of an
// `#imports` name too: "@/lib/ws.js" and "#ws" give "ws".
func lastSegment(spec string) string {
	spec = stripModuleExt(strings.TrimSuffix(spec, "/"))
	spec = strings.TrimSuffix(spec, "/index")
	if i := strings.LastIndexAny(spec, "/:"); i >= 0 {
		spec = spec[i+1:]
	}
	return strings.TrimPrefix(spec, "#")
}

// mayImport reports whether a file named name is read for imports: a tool
// module extension, or JSX (.tsx, .jsx).
func mayImport(name string) bool {
	ext := filepath.Ext(name)
	return analysis.HasModuleExtension(name) || ext == ".tsx" || ext == ".jsx"
}

// stripModuleExt drops a module extension (JSX included) from p.
func stripModuleExt(p string) string {
	if mayImport(p) {
		return strings.TrimSuffix(p, filepath.Ext(p))
	}
	return p
}
