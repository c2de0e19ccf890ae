package features

import (
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// Move is a file or folder the user renames or moves: absolute paths.
type Move struct {
	Old, New string
}

// FollowMoves returns the edits that keep the project's paths pointing at
// the files the user renames or moves: every module path under tools: and
// every imports: entry that names a moved file, or a file inside a moved
// folder, is rewritten to the new place, relative to the project's root as
// before (a leading "./" kept, quotes kept). A path that would leave the
// project, or that an alias writes, is left as it is: the rules then say
// what is wrong with it.
func FollowMoves(p *analysis.Project, moves []Move) []TextEdit {
	if p == nil {
		return nil
	}
	var out []TextEdit
	for _, f := range p.Files {
		ix := indexFile(p, f)
		content := f.Content()
		for i := range ix.tools {
			e := &ix.tools[i]
			if e.node.Kind != yaml.ScalarNode || !e.IsString() || strings.HasPrefix(e.Text(), analysis.BeeuniPrefix) {
				continue
			}
			if te, ok := followPath(p.Root, f, content, e.Text(), e.Value(), moves); ok {
				out = append(out, te)
			}
		}
		for _, im := range ix.imports {
			if im.Target == "" {
				continue
			}
			if te, ok := followPath(p.Root, f, content, im.Path, im.Range, moves); ok {
				out = append(out, te)
			}
		}
	}
	return out
}

// followPath is the edit of one path value written at r (its token, quotes
// included), when a move takes the file it names.
func followPath(root string, f *analysis.File, content []byte, written string, r diag.Range, moves []Move) (TextEdit, bool) {
	abs := resolveRepoPath(root, written)
	if abs == "" {
		return TextEdit{}, false
	}
	for _, m := range moves {
		var moved string
		switch {
		case abs == m.Old:
			moved = m.New
		case strings.HasPrefix(abs, m.Old+string(filepath.Separator)):
			moved = m.New + abs[len(m.Old):]
		default:
			continue
		}
		rel, err := filepath.Rel(root, moved)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return TextEdit{}, false // out of the project: not a path it can name
		}
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(written, "./") {
			rel = "./" + rel
		}
		return scalarEdit(f.Path, content, r, rel)
	}
	return TextEdit{}, false
}

// scalarEdit replaces the scalar token at r (its anchor and tag kept) with
// value, in the token's own style: inside its quotes when it is quoted, plain when the value can be
// written plain, else double-quoted.
func scalarEdit(file string, content []byte, r diag.Range, value string) (TextEdit, bool) {
	start, end := r.Start.Offset, r.End.Offset
	if start < 0 || end > len(content) || start >= end {
		return TextEdit{}, false
	}
	// The token's properties (an anchor, a tag) stay: the path is after them.
	for start < end && (content[start] == '&' || content[start] == '!') {
		for start < end && content[start] != ' ' && content[start] != '\t' {
			start++
		}
		for start < end && (content[start] == ' ' || content[start] == '\t') {
			start++
		}
	}
	if start >= end {
		return TextEdit{}, false
	}
	switch content[start] {
	case '\'':
		return TextEdit{File: file, Start: start + 1, End: end - 1, NewText: strings.ReplaceAll(value, "'", "''")}, true
	case '"':
		q := strconv.Quote(value)
		return TextEdit{File: file, Start: start + 1, End: end - 1, NewText: q[1 : len(q)-1]}, true
	}
	if !plainSafe(value) {
		value = strconv.Quote(value)
	}
	return TextEdit{File: file, Start: start, End: end, NewText: value}, true
}

// plainSafe reports whether a path can be written as a plain YAML scalar
// and read back as the same string: letters, digits and the characters
// paths commonly hold, not starting with one YAML reads as an indicator.
func plainSafe(s string) bool {
	if s == "" || strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`~ ") {
		return false
	}
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.ContainsRune("._/-+()", c):
		case c > 127:
		default:
			return false
		}
	}
	return true
}
