package features

import (
	"fmt"
	"path/filepath"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// RenameError is a refusal, in one sentence the editor shows as is.
type RenameError struct{ Reason string }

func (e *RenameError) Error() string { return e.Reason }

func refuse(format string, args ...any) error {
	return &RenameError{Reason: fmt.Sprintf(format, args...)}
}

// PrepareRename checks that the name under offset is a project tool that
// may be renamed, and returns its range and the name. Beeuni and harness
// names are refused: their names are fixed.
func PrepareRename(p *analysis.Project, path string, offset int) (diag.Range, string, error) {
	path = filepath.Clean(path)
	if p == nil {
		return diag.Range{}, "", refuse("the project is not loaded")
	}
	f := p.File(path)
	if f == nil {
		return diag.Range{}, "", refuse("this file is not part of a loaded project")
	}
	name, rng, ok := indexAt(p, f, offset).nameAt(offset)
	if !ok {
		return diag.Range{}, "", refuse("put the cursor on a tool name: a key under `tools:` or a name in an agent's `tools`")
	}
	if err := renamable(p, name); err != nil {
		return diag.Range{}, "", err
	}
	return rng, name, nil
}

// renamable refuses names that are not the project's to change.
func renamable(p *analysis.Project, name string) error {
	if analysis.IsBeeuniTool(name) {
		return refuse("`%s` is a Beeuni tool: its name is fixed (the web UI and skills find it by name); it cannot be renamed", name)
	}
	if known, _ := analysis.HarnessTool(name); known {
		return refuse("`%s` is a harness tool: its name belongs to the harness; it cannot be renamed", name)
	}
	if name == "*" {
		return refuse("`*` means every tool; it is not a tool name")
	}
	if _, ok := declaration(p, name); !ok {
		return refuse("`%s` is not declared under `tools:` in this project: only project tools can be renamed", name)
	}
	return nil
}

// Rename renames the project tool under offset to newName in every file of
// the project: its key under tools: and every agent list, exclude list and
// legacy map that names it. It refuses what PrepareRename refuses, and a new
// name that is not snake_case (T1), is a Beeuni or harness name, or is
// declared already.
func Rename(p *analysis.Project, path string, offset int, newName string) ([]TextEdit, error) {
	path = filepath.Clean(path)
	_, name, err := PrepareRename(p, path, offset)
	if err != nil {
		return nil, err
	}
	switch {
	case newName == name:
		return nil, refuse("the tool is already called `%s`", name)
	case !analysis.ValidToolName(newName):
		msg := "`%s` is not a valid tool name: use snake_case, at most 64 characters (`^[a-z][a-z0-9_]{0,63}$`)"
		if s := analysis.SnakeCase(newName); s != "" {
			return nil, refuse(msg+", e.g. `%s`", newName, s)
		}
		return nil, refuse(msg, newName)
	case analysis.IsBeeuniTool(newName):
		return nil, refuse("`%s` is a Beeuni tool: a project tool of that name would replace it (declare it as an override instead)", newName)
	case isHarnessName(newName):
		return nil, refuse("`%s` is a harness tool name: a project tool may not use it", newName)
	}
	if loc, ok := declaration(p, newName); ok {
		return nil, refuse("a tool named `%s` is already declared in %s", newName, p.Rel(loc.File))
	}
	var edits []TextEdit
	for _, m := range mentions(p, name, "") {
		edits = append(edits, TextEdit{File: m.file, Start: m.rng.Start.Offset, End: m.rng.End.Offset, NewText: newName})
	}
	return edits, nil
}
