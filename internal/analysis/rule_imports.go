package analysis

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// I1-I6: the imports of a manifest, loaded depth first in the order
// written. visitImports is their check; it reads the imports: section of
// each file's tree and the files it imports, and runs on every load.

const (
	CodeImportShape   = "I1" // imports: not a list, or an item not a string
	CodeImportPath    = "I2" // an import path that is not repo-relative or leaves the repository
	CodeImportExt     = "I3" // an import path that is not .yaml/.yml
	CodeImportMissing = "I4" // an imported file that does not exist or cannot be read
	CodeImportDup     = "I5" // the same import listed twice
	CodeImportCycle   = "I6" // an import cycle
)

var (
	ruleImportShape   = &Rule{Code: CodeImportShape, Severity: diag.Error, Reads: ReadsFile}
	ruleImportPath    = &Rule{Code: CodeImportPath, Severity: diag.Error, Reads: ReadsFiles}
	ruleImportExt     = &Rule{Code: CodeImportExt, Severity: diag.Error, Reads: ReadsFile}
	ruleImportMissing = &Rule{Code: CodeImportMissing, Severity: diag.Error, Reads: ReadsFiles | ReadsManifest}
	ruleImportDup     = &Rule{Code: CodeImportDup, Severity: diag.Error, Reads: ReadsFile}
	ruleImportCycle   = &Rule{Code: CodeImportCycle, Severity: diag.Error, Reads: ReadsFiles | ReadsManifest}
)

func msgImportsShape() string {
	return "`imports` must be a list of repo-relative paths to .yaml or .yml files"
}

func msgImportItem() string {
	return "an import must be a repo-relative path to a .yaml or .yml file, written as a string"
}

func msgImportNotRelative(p string) string {
	return fmt.Sprintf("import `%s` must be a repo-relative path (no leading `/`, drive letter or URL scheme)", p)
}

func msgImportLeaves(p string) string {
	return fmt.Sprintf("import `%s` leaves the repository; imports are resolved from the repository root", p)
}

func msgImportLeavesLink(p string) string {
	return fmt.Sprintf("import `%s` leaves the repository through a symbolic link", p)
}

func msgImportBrokenLink(p string) string {
	return fmt.Sprintf("import `%s` goes through a symbolic link that does not resolve, so it cannot be checked to stay inside the repository", p)
}

func msgImportExt(p string) string {
	return fmt.Sprintf("import `%s` must be a .yaml or .yml file", p)
}

func msgImportMissing(p string) string {
	return fmt.Sprintf("imported file `%s` does not exist (imports are resolved from the repository root)", p)
}

func msgImportNotFile(p string) string {
	return fmt.Sprintf("imported file `%s` cannot be read: it is not a regular file", p)
}

func msgImportTooLarge(p string) string {
	return fmt.Sprintf("imported file `%s` cannot be read: it is too large", p)
}

func msgImportTooMany(p string) string {
	return fmt.Sprintf("too many imported files (more than %d): `%s` is not loaded", maxImportedFiles, p)
}

func msgImportUnreadable(p string, err error) string {
	return fmt.Sprintf("imported file `%s` cannot be read: %v", p, err)
}

func msgImportDup(p string, line int) string {
	return fmt.Sprintf("import `%s` is already listed on line %d", p, line)
}

func msgImportCycle(chain []string) string {
	return "import cycle: " + strings.Join(chain, " → ")
}

func msgImportStep(from, to string) string { return fmt.Sprintf("%s imports %s", from, to) }

// maxImportedFiles bounds how many files one project may import.
const maxImportedFiles = 1000

type chainStep struct {
	unit  *unit
	entry *yaml.Node // the import entry in the previous step's file that led here
}

// visitImports loads the imports of u, depth first, in the order written.
// An import is a unit of work of l.stop: once it stops, the project is
// incomplete.
func (l *loader) visitImports(u *unit, chain []chainStep) {
	if l.stop.stopped() {
		return
	}
	s := &u.parsed.tree.Imports
	if s.Key == nil {
		return
	}
	v := resolveAlias(s.Value)
	if isNull(v) {
		return
	}
	if v.Kind != yaml.SequenceNode {
		l.report(ruleImportShape, u, v, msgImportsShape(), nil)
		return
	}
	seen := map[string]*yaml.Node{}
	for _, item := range s.list {
		if l.stop.stopped() {
			return
		}
		if item == nil || item.Kind != yaml.ScalarNode || item.Tag != "!!str" {
			if item != nil {
				l.report(ruleImportShape, u, item, msgImportItem(), nil)
			}
			continue
		}
		raw := item.Value
		data := map[string]string{DataPath: raw}
		abs, problem := l.resolveRepoPath(raw)
		switch problem {
		case pathNotRelative:
			l.report(ruleImportPath, u, item, msgImportNotRelative(raw), data)
			continue
		case pathLeaves:
			l.report(ruleImportPath, u, item, msgImportLeaves(raw), data)
			continue
		}
		if !hasImportExtension(raw) {
			l.report(ruleImportExt, u, item, msgImportExt(raw), data)
			continue
		}
		switch problem {
		case pathLeavesLink:
			l.report(ruleImportPath, u, item, msgImportLeavesLink(raw), data)
			continue
		case pathBrokenLink:
			l.report(ruleImportPath, u, item, msgImportBrokenLink(raw), data)
			continue
		}
		canon := relTo(l.root, abs)
		if first, ok := seen[canon]; ok {
			firstLine := u.parsed.pos.nodeRange(first).Start.Line + 1
			l.report(ruleImportDup, u, item, msgImportDup(raw, firstLine), data,
				diag.Related{File: u.file.Path, Range: u.parsed.pos.nodeRange(first), Message: "the first entry"})
			continue
		}
		seen[canon] = item
		real, err := l.fsys.EvalSymlinks(abs)
		if err != nil {
			real = abs
		}
		// A cycle: the file is on the current chain.
		cycleAt := -1
		for i, step := range chain {
			if step.unit.file.Path == abs || step.unit.real == real {
				cycleAt = i
				break
			}
		}
		if cycleAt >= 0 {
			names := []string{}
			var related []diag.Related
			for i := cycleAt; i < len(chain); i++ {
				names = append(names, chain[i].unit.file.Rel)
				if i > cycleAt && chain[i].entry != nil {
					prev := chain[i-1].unit
					related = append(related, diag.Related{
						File: prev.file.Path, Range: prev.parsed.pos.nodeRange(chain[i].entry),
						Message: msgImportStep(prev.file.Rel, chain[i].unit.file.Rel),
					})
				}
			}
			names = append(names, chain[cycleAt].unit.file.Rel)
			related = append(related, diag.Related{
				File: u.file.Path, Range: u.parsed.pos.nodeRange(item),
				Message: msgImportStep(u.file.Rel, chain[cycleAt].unit.file.Rel),
			})
			l.report(ruleImportCycle, u, item, msgImportCycle(names), data, related...)
			continue
		}
		if _, ok := l.byReal[real]; ok {
			continue // already loaded through another import: load once
		}
		if len(l.units) > maxImportedFiles {
			l.report(ruleImportMissing, u, item, msgImportTooMany(raw), data)
			continue
		}
		content, err := l.fsys.ReadFile(abs)
		if err != nil {
			l.unread = append(l.unread, abs)
			switch {
			case isNotExist(err):
				l.report(ruleImportMissing, u, item, msgImportMissing(raw), data)
			case errors.Is(err, vfs.ErrNotRegular):
				l.report(ruleImportMissing, u, item, msgImportNotFile(raw), data)
			case errors.Is(err, vfs.ErrTooLarge):
				l.report(ruleImportMissing, u, item, msgImportTooLarge(raw), data)
			default:
				var pe *fs.PathError
				if errors.As(err, &pe) {
					err = pe.Err // the message names the file already
				}
				l.report(ruleImportMissing, u, item, msgImportUnreadable(raw, err), data)
			}
			continue
		}
		pr, err := l.cache.parse(&l.stop, abs, content)
		if err != nil {
			return
		}
		child := l.addUnit(abs, real, pr, true)
		l.visitImports(child, append(chain[:len(chain):len(chain)], chainStep{unit: child, entry: item}))
	}
}

func isNotExist(err error) bool {
	return err != nil && (errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), "not a directory"))
}
