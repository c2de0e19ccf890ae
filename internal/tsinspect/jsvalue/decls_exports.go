package jsvalue

import (
	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
)

// decls_exports.go finds where the export statements and the CommonJS
// writes of a module are in its text, and the `export default` forms that
// esbuild erases.

// exportAt is the token index of the `export` of the statement n in the
// module's text (the n-th `export` keyword of esbuild's JavaScript, for the
// n-th export statement, mapped back); -1 when not found.
func (m *File) exportAt(n *js.ExportStmt) int {
	k := 0
	for _, s := range m.Tree.AST.List {
		if s == n {
			break
		}
		if _, ok := s.(*js.ExportStmt); ok {
			k++
		}
	}
	if m.exportOffs == nil {
		m.exportOffs = exportKeywords(m.Tree.Out)
	}
	if k >= len(m.exportOffs) {
		return -1
	}
	off := m.exportOffs[k]
	at, ok := m.Tree.Mapped(m.Tree.Out[off : off+1])
	if i := m.tokenAt(at); ok && m.isIdent(i, "export") {
		return i
	}
	return -1
}

// exportKeywords are the offsets in esbuild's JavaScript out of the
// `export` keywords of its statements: at bracket depth 0, not a member
// name (a line of a template or a comment that starts with `export` is
// none). Empty, not nil, when out does not lex.
func exportKeywords(out []byte) []int {
	offs := []int{}
	toks, err := jsfront.Lex(out)
	if err != nil {
		return offs
	}
	depth := 0
	for i, t := range toks {
		switch {
		case t.Kind == jsfront.TokPunct && (t.Text == "{" || t.Text == "(" || t.Text == "["):
			depth++
		case t.Kind == jsfront.TokPunct && (t.Text == "}" || t.Text == ")" || t.Text == "]"):
			depth--
		case t.Kind == jsfront.TokIdent && t.Text == "export" && depth == 0 &&
			(i == 0 || toks[i-1].Kind != jsfront.TokPunct || toks[i-1].Text != "." && toks[i-1].Text != "?."):
			offs = append(offs, t.Start)
		}
	}
	return offs
}

// exportsMemberAt is the offset in the text of `exports` or `module` when x
// is `exports` or `module.exports` whose member is taken (`exports.x`,
// `module.exports[k]`); -1 otherwise.
func exportsMemberAt(t *jsfront.Tree, x js.IExpr) int {
	if !isExportsRef(x) {
		return -1
	}
	if d, ok := x.(*js.DotExpr); ok {
		x = d.X
	}
	if at, ok := t.Pos(x.(*js.Var).Data); ok {
		return at
	}
	return -1
}

// TypeOnlyDefault reports whether the text has `export default interface`
// or `export default type X =`, which esbuild erases (the tree has no trace
// of them).
func (m *File) TypeOnlyDefault() bool {
	for i := range m.toks {
		if !m.isIdent(i, "export") || !m.isIdent(i+1, "default") {
			continue
		}
		at := i + 2
		for m.isIdent(at, "abstract") || m.isIdent(at, "declare") {
			at++
		}
		if m.isIdent(at, "interface") || m.isIdent(at, "type") && m.Tok(at+1).Kind == jsfront.TokIdent && m.isPunct(at+2, "=") {
			return true
		}
	}
	return false
}
