package jsfront

import (
	"bytes"
	"fmt"
	"path/filepath"
	"unsafe"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// jstree.go is the syntax tree with scopes of one file: esbuild transforms
// the file to JavaScript (the loader, tsconfig and JSX rules of its build,
// TypeScript's types stripped, with a source map), tdewolff/parse's
// JavaScript parser builds the tree and resolves every name to its
// declaration (or to none), and the source map takes a position of the
// JavaScript back to the text the user wrote.
//
// tdewolff's tree has one *js.Var per declared (or undeclared) name, shared
// by every read of it, and no positions on its nodes; the names and literals
// in it are slices of the JavaScript. NewTree gives every read its own
// *js.Var, linked to the shared one and slicing the read itself (see
// jsuses.go), so that every name in the tree has a position.

// Tree is one file's tree.
type Tree struct {
	File     string
	AST      *js.AST
	Out      []byte // the JavaScript the tree slices
	Src      []byte // the file's own text
	srcLines *diag.Lines
	outLines *diag.Lines
	smap     *sourceMap
	// DeclAt is where each declared name is bound first, a slice of out
	// (tdewolff's *js.Var slices its first occurrence, maybe a read)
	DeclAt map[*js.Var][]byte
	// misaligned counts the reads jsuses.go could not find in the
	// JavaScript (they keep the shared *js.Var's position): none is expected.
	misaligned int
}

// Transform is esbuild's JavaScript of a file, with its source map.
func Transform(file string, src []byte, loader api.Loader, tsconfigRaw string) api.TransformResult {
	return api.Transform(string(src), api.TransformOptions{
		Loader:     loader,
		Sourcefile: filepath.Base(file),
		Sourcemap:  api.SourceMapExternal,
		Target:     api.ESNext,
		// lowered, as the JavaScript parser does not read them yet; what
		// they run at load stays in the lowered code
		Supported:   map[string]bool{"decorators": false, "using": false},
		TsconfigRaw: tsconfigRaw,
		LogLevel:    api.LogLevelSilent,
	})
}

// NewTree parses esbuild's JavaScript of a file (transform's output
// without errors). An error means the parser refused it.
func NewTree(file string, src []byte, r api.TransformResult) (*Tree, error) {
	smap, err := parseSourceMap(r.Map)
	if err != nil {
		return nil, fmt.Errorf("source map of %s: %w", file, err)
	}
	// room for the parser's terminating NUL, so that it slices this very
	// buffer (pos relies on it)
	code := append(r.Code[:len(r.Code):len(r.Code)], 0)[:len(r.Code)]
	in := parse.NewInputBytes(code)
	ast, err := js.Parse(in, js.Options{})
	if err != nil {
		return nil, fmt.Errorf("parse the JavaScript of %s: %w", file, err)
	}
	t := &Tree{
		File: file, AST: ast, Out: in.Bytes(), Src: src, smap: smap,
		srcLines: diag.NewLinesFor(src, diag.JSBreaks), DeclAt: map[*js.Var][]byte{},
	}
	t.outLines = diag.NewLinesFor(t.Out, diag.JSBreaks)
	t.misaligned = giveReadsPositions(t)
	return t, nil
}

// outOffset is the offset in the JavaScript of b, a slice of it; false when
// b is empty or not a slice of it (the parser copies a few names).
func (t *Tree) outOffset(b []byte) (int, bool) {
	if len(b) == 0 || len(t.Out) == 0 {
		return 0, false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(t.Out)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	if p < base || p+uintptr(len(b)) > base+uintptr(len(t.Out)) {
		return 0, false
	}
	return int(p - base), true
}

// searchWindow bounds how far after its source map segment's position a
// name or a literal is looked for in the file's text.
const searchWindow = 4096

// Pos is where b, a slice of the JavaScript, starts in the file's own
// text: the source map's position of the segment it is in, then the text
// searched from there for b (a name as a whole word; a string by its
// content, esbuild may quote it otherwise).
func (t *Tree) Pos(b []byte) (int, bool) {
	at, _, ok := t.find(b)
	return at, ok
}

// find is pos with the length of what was found: a name esbuild renamed
// (`label2` for a `label` a namespace binds again, beside the module's) is
// found by its own name, right at its segment's position (esbuild's own
// names, such as an enum's parameter, would otherwise match a later name).
func (t *Tree) find(b []byte) (at, n int, ok bool) {
	start, ok := t.Mapped(b)
	if !ok {
		return 0, 0, false
	}
	end := min(start+searchWindow, len(t.Src))
	if q := b[0]; q == '"' || q == '\'' || q == '`' {
		body := b[1 : len(b)-1]
		for i := start; i < end; i++ {
			switch t.Src[i] {
			case '"', '\'', '`':
				if bytes.IndexByte(body, '\\') >= 0 || bytes.HasPrefix(t.Src[i+1:], body) && i+1+len(body) < len(t.Src) && t.Src[i+1+len(body)] == t.Src[i] {
					return i, 0, true // an escape esbuild may have rewritten: the first string
				}
			}
		}
		return 0, 0, false
	}
	if at := wordFrom(t.Src, start, end, b); at >= 0 {
		return at, len(b), true
	}
	own := bytes.TrimRight(b, "0123456789")
	if len(own) == len(b) || len(own) == 0 {
		return 0, 0, false
	}
	if start+len(own) <= end && bytes.HasPrefix(t.Src[start:], own) && wordAt(t.Src, start, len(own)) {
		return start, len(own), true
	}
	return 0, 0, false
}

// wordFrom is the first offset of src[start:end] where word is a whole
// name; -1 when none.
func wordFrom(src []byte, start, end int, word []byte) int {
	for i := start; i+len(word) <= end; i++ {
		if bytes.HasPrefix(src[i:], word) && wordAt(src, i, len(word)) {
			return i
		}
	}
	return -1
}

// Mapped is the position in the file's text of the source map segment b,
// a slice of the JavaScript, is in.
func (t *Tree) Mapped(b []byte) (int, bool) {
	off, ok := t.outOffset(b)
	if !ok || t.smap == nil {
		return 0, false
	}
	p := t.outLines.Pos(off)
	seg, ok := t.smap.lookup(p.Line, t.outLines.Column(p, diag.UTF16))
	if !ok {
		return 0, false
	}
	return t.srcLines.OffsetAt(int(seg.srcLine), int(seg.srcCol), diag.UTF16), true
}

// Span is pos with the end of b: a name's own length; a string's end in
// the file's text.
func (t *Tree) Span(b []byte) (start, end int, ok bool) {
	start, n, ok := t.find(b)
	if !ok {
		return 0, 0, false
	}
	if q := t.Src[start]; q == '"' || q == '\'' || q == '`' {
		return start, stringEnd(t.Src, start), true
	}
	return start, start + n, true
}

// wordAt reports whether src[i:i+n] is a whole name (no name character
// right before or after it).
func wordAt(src []byte, i, n int) bool {
	return (i == 0 || !IsNameByte(src[i-1])) && (i+n >= len(src) || !IsNameByte(src[i+n]))
}

// IsNameByte reports whether c may be part of a name (any byte of a
// character past ASCII counts).
func IsNameByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// stringEnd is the end of the string or template literal opening at
// src[start] (its closing quote included), read by the lexer's rules; the
// end of its line when it does not close.
func stringEnd(src []byte, start int) int {
	lx := &lexer{src: src, pos: start, levels: []int{0}, plus: []int{0}, declared: []map[string]bool{nil}}
	var err error
	if src[start] == '`' {
		_, _, err = lx.template()
	} else {
		_, err = lx.string(src[start])
	}
	if err != nil {
		if nl := bytes.IndexByte(src[start:], '\n'); nl >= 0 {
			return start + nl
		}
		return len(src)
	}
	return lx.pos
}

// Root is the declaration (or the undeclared name) a read links to.
func Root(v *js.Var) *js.Var {
	for v.Link != nil {
		v = v.Link
	}
	return v
}

// KeywordBefore finds the keyword kw shortly before offset at of the
// file's text (the tree has no position for a keyword).
func (t *Tree) KeywordBefore(at int, kw string) (int, bool) {
	from := max(at-256, 0)
	i := bytes.LastIndex(t.Src[from:at], []byte(kw))
	if i < 0 || !wordAt(t.Src, from+i, len(kw)) {
		return 0, false
	}
	return from + i, true
}
