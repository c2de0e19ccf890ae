// Package edit plans and applies the changes the editor and the command line
// make to a Beeuni project: eject a Beeuni tool into the project's own
// module, return it to the maintained `beeuni:` tool, and the quick fix of
// each finding where the fix is clear.
//
// A plan (Change) is a list of minimal byte replacements in the YAML files,
// made on yaml.v3 node positions, plus files to create or delete. The YAML is
// never re-serialised: every comment, the indentation width, block or flow
// style, CRLF line breaks, a byte order mark and the final newline stay as
// they were. Every plan is checked before it is offered: the edited files
// must parse, and the YAML the edit touches must mean what the edit intends.
package edit

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// TextEdit replaces the bytes [Start, End) of File (an absolute path) with
// NewText. Offsets are in the file's content the plan was made on.
type TextEdit struct {
	File       string
	Start, End int
	NewText    string
}

// NewFile is a file a change creates. Overwrite allows replacing an existing
// file (eject --force).
type NewFile struct {
	Path      string
	Content   []byte
	Overwrite bool
}

// Change is one action: a title for the menu, its kind, and what it does.
type Change struct {
	Title  string
	Kind   string // KindQuickFix, KindRefactor or KindSource
	Edits  []TextEdit
	Create []NewFile
	Delete []string
	// Disabled, when non-empty, is why the action cannot run now; the editor
	// shows it greyed out with this reason.
	Disabled string
	// Fixes is the finding a quick fix fixes.
	Fixes *diag.Finding
	// Show is a file the editor should open after applying the change.
	Show string
	// Base maps each file the edits apply to onto the SHA-256 (hex) of the
	// content the plan was made on. Apply refuses a file that changed since.
	Base map[string]string
	// Preferred marks the one obvious fix of a finding.
	Preferred bool
	// Kept is, for an eject --force that repoints an entry from another
	// module, that module's repository-relative path: the change leaves it
	// on disk untouched (other modules may import it, and it is the
	// project's own work), and the command line says so.
	Kept string
	// Unverified marks a change planned by RefactorsUnverified or
	// SourceActionsUnverified: its edits were not checked (parsed and
	// compared with what they should mean), so it may turn out refused.
	// Plan it again with Refactors or SourceActions before applying it.
	Unverified bool
}

// Code action kinds, as LSP names them.
const (
	KindQuickFix = "quickfix"
	KindRefactor = "refactor.rewrite"
	KindSource   = "source"
)

// Files returns every file the change edits, creates or deletes, sorted.
func (c *Change) Files() []string {
	seen := map[string]bool{}
	for _, e := range c.Edits {
		seen[e.File] = true
	}
	for _, f := range c.Create {
		seen[f.Path] = true
	}
	for _, d := range c.Delete {
		seen[d] = true
	}
	out := make([]string, 0, len(seen))
	for f := range seen {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// EditsOf returns the edits of one file, sorted by offset.
func (c *Change) EditsOf(file string) []TextEdit {
	var out []TextEdit
	for _, e := range c.Edits {
		if e.File == file {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// ApplyText returns content with the edits applied. The edits must lie
// within content and must not overlap.
func ApplyText(content []byte, edits []TextEdit) ([]byte, error) {
	sorted := append([]TextEdit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Start < sorted[j].Start })
	out := make([]byte, 0, len(content)+64)
	prev := 0
	for _, e := range sorted {
		if e.Start < prev || e.End < e.Start || e.End > len(content) {
			return nil, fmt.Errorf("edit [%d,%d) of %s does not fit the file (%d bytes) or overlaps another", e.Start, e.End, e.File, len(content))
		}
		out = append(out, content[prev:e.Start]...)
		out = append(out, e.NewText...)
		prev = e.End
	}
	return append(out, content[prev:]...), nil
}

func digest(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}
