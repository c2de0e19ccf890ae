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

// maxImportedFiles bounds how many files one project may import.
const maxImportedFiles = 1000

type chainStep struct {
	unit  *unit
	entry *yaml.Node // the import entry in the previous step's file that led here
}

// visitImports loads the imports of u, depth first, in the order written.
func (l *loader) visitImports(u *unit, chain []chainStep) {
	if l.ctx.Err() != nil {
		return
	}
	key, v := topValue(u.parsed, "imports", l.budget)
	if key == nil {
		return
	}
	v = resolveAlias(v)
	if v == nil || v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return
	}
	if v.Kind != yaml.SequenceNode {
		l.add(u, v, diag.Error, CodeImportShape, msgImportsShape(), nil)
		return
	}
	seen := map[string]*yaml.Node{}
	for _, item := range v.Content {
		item := resolveAlias(item)
		if item == nil || item.Kind != yaml.ScalarNode || item.Tag != "!!str" {
			if item != nil {
				l.add(u, item, diag.Error, CodeImportShape, msgImportItem(), nil)
			}
			continue
		}
		raw := item.Value
		data := map[string]string{DataPath: raw}
		abs, problem := l.resolveRepoPath(raw)
		switch problem {
		case pathNotRelative:
			l.add(u, item, diag.Error, CodeImportPath, msgImportNotRelative(raw), data)
			continue
		case pathLeaves:
			l.add(u, item, diag.Error, CodeImportPath, msgImportLeaves(raw), data)
			continue
		}
		if !hasImportExtension(raw) {
			l.add(u, item, diag.Error, CodeImportExt, msgImportExt(raw), data)
			continue
		}
		switch problem {
		case pathLeavesLink:
			l.add(u, item, diag.Error, CodeImportPath, msgImportLeavesLink(raw), data)
			continue
		case pathBrokenLink:
			l.add(u, item, diag.Error, CodeImportPath, msgImportBrokenLink(raw), data)
			continue
		}
		canon := relTo(l.root, abs)
		if first, ok := seen[canon]; ok {
			firstLine := u.parsed.pos.nodeRange(first).Start.Line + 1
			l.add(u, item, diag.Error, CodeImportDup, msgImportDup(raw, firstLine), data,
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
			l.add(u, item, diag.Error, CodeImportCycle, msgImportCycle(names), data, related...)
			continue
		}
		if _, ok := l.byReal[real]; ok {
			continue // already loaded through another import: load once
		}
		if len(l.units) > maxImportedFiles {
			l.add(u, item, diag.Error, CodeImportMissing, fmt.Sprintf("too many imported files (more than %d): `%s` is not loaded", maxImportedFiles, raw), data)
			continue
		}
		content, err := l.fsys.ReadFile(abs)
		if err != nil {
			switch {
			case isNotExist(err):
				l.add(u, item, diag.Error, CodeImportMissing, msgImportMissing(raw), data)
			case errors.Is(err, vfs.ErrNotRegular):
				l.add(u, item, diag.Error, CodeImportMissing, msgImportNotFile(raw), data)
			case errors.Is(err, vfs.ErrTooLarge):
				l.add(u, item, diag.Error, CodeImportMissing, msgImportTooLarge(raw), data)
			default:
				var pe *fs.PathError
				if errors.As(err, &pe) {
					err = pe.Err // the message names the file already
				}
				l.add(u, item, diag.Error, CodeImportMissing, msgImportUnreadable(raw, err), data)
			}
			continue
		}
		child := l.addUnit(abs, real, l.cache.parse(abs, content), true)
		l.visitImports(child, append(chain[:len(chain):len(chain)], chainStep{unit: child, entry: item}))
	}
}

func isNotExist(err error) bool {
	return err != nil && (errors.Is(err, fs.ErrNotExist) || strings.Contains(err.Error(), "not a directory"))
}
