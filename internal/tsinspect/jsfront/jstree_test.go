package jsfront

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tdewolff/parse/v2/js"
	"golang.org/x/tools/txtar"
)

// parseTree transforms and parses a file as parseFile does.
func parseTree(t *testing.T, name string, src []byte) *Tree {
	t.Helper()
	loader, tsconfig := BuildOptions(name, JSXOptions{})
	r := Transform(name, src, loader, tsconfig)
	if len(r.Errors) > 0 {
		return nil // a syntax error: no tree
	}
	tree, err := NewTree(name, src, r)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return tree
}

// TestReadsHavePositions checks, on every script of the test data, that
// every read of a name in the tree has its own position in the file's own
// text, and that the name is written there.
func TestReadsHavePositions(t *testing.T) {
	files, err := filepath.Glob("../testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	corpus, _ := filepath.Glob("../testdata/corpus/*.txtar")
	reads := 0
	for _, file := range append(files, corpus...) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range txtar.Parse(data).Files {
			if !ScriptFile(f.Name) || strings.Contains(f.Name, "node_modules/") {
				continue
			}
			tree := parseTree(t, f.Name, f.Data)
			if tree == nil {
				continue
			}
			helpers := strings.Contains(string(tree.Out), "__using(")
			if tree.misaligned != 0 {
				t.Errorf("%s:%s: %d reads not found in the JavaScript", file, f.Name, tree.misaligned)
			}
			js.Walk(NodeVisitor(func(n js.INode) {
				v, ok := n.(*js.Var)
				if !ok || v.Link == nil {
					return
				}
				if !containsWord(f.Data, v.Data) {
					return // a name esbuild makes (an enum's parameter, the JSX runtime's calls)
				}
				if _, mapped := tree.Mapped(v.Data); !mapped && helpers {
					return // in the helpers esbuild adds to lower `using`: in no segment
				}
				reads++
				start, end, ok := tree.Span(v.Data)
				if !ok {
					t.Errorf("%s:%s: the read of %s has no position", file, f.Name, v.Data)
					return
				}
				if got := string(f.Data[start:end]); got != string(v.Data) {
					t.Errorf("%s:%s: the read of %s is at %q", file, f.Name, v.Data, got)
				}
			}), tree.AST)
		}
	}
	if reads < 500 {
		t.Fatalf("only %d reads in the test data: the walk did not run", reads)
	}
}

// TestTreePositions checks positions where esbuild's JavaScript differs
// from the text: characters past ASCII before a name (the source map
// counts UTF-16 units), a string esbuild quotes otherwise, a name after a
// TypeScript type esbuild drops.
func TestTreePositions(t *testing.T) {
	src := "const s: string = '☃ é' + /* ☃☃ */ first\n" +
		"const t = <Record<string, unknown>>{ 'key': second, [`k${third}`]: 1 }\n" +
		"export default { description: \"d\\u00e9\", execute(args: { a: string }) { return args.a + fourth } }\n"
	tree := parseTree(t, "m.ts", []byte(src))
	want := map[string]bool{"first": true, "second": true, "third": true, "fourth": true}
	found := map[string]bool{}
	js.Walk(NodeVisitor(func(n js.INode) {
		switch n := n.(type) {
		case *js.Var:
			if n.Link == nil || !want[string(n.Data)] {
				return
			}
			start, end, ok := tree.Span(n.Data)
			if !ok || src[start:end] != string(n.Data) {
				t.Errorf("%s: at %d-%d (%v)", n.Data, start, end, ok)
			}
			found[string(n.Data)] = true
		case *js.LiteralExpr:
			if n.TokenType != js.StringToken {
				return
			}
			start, end, ok := tree.Span(n.Data)
			if !ok {
				t.Errorf("string %s has no position", n.Data)
				return
			}
			if got := src[start:end]; got != "'☃ é'" && got != "'key'" && got != `"d\u00e9"` {
				t.Errorf("string %s is at %q", n.Data, got)
			}
		}
	}), tree.AST)
	if len(found) != len(want) {
		t.Errorf("found %v, want %v", found, want)
	}
}

func containsWord(src, name []byte) bool {
	for i := 0; i+len(name) <= len(src); i++ {
		if string(src[i:i+len(name)]) == string(name) && wordAt(src, i, len(name)) {
			return true
		}
	}
	return false
}

// TestStringsPastASCII: esbuild writes characters past ASCII in a string
// as `\xE9` or `\u{1F600}`; an import path is read with JavaScript's
// escapes (Go's would make \xE9 a lone byte and refuse \u{...}).
func TestStringsPastASCII(t *testing.T) {
	src := "import { a } from './café'\nimport { b } from './🙂'\nthrow new Error('déjà 🙂')\nexport default { a, b }\n"
	tree := parseTree(t, "m.ts", []byte(src))
	var paths []string
	for _, imp := range ImportsOf(tree) {
		paths = append(paths, imp.Path)
	}
	if got := strings.Join(paths, " "); got != "./café ./🙂" {
		t.Errorf("import paths %q", got)
	}
}

// TestStringEnd: a literal's end in the file's text, escapes and a
// template's substitutions (which may hold a backtick) read as the lexer
// reads them.
func TestStringEnd(t *testing.T) {
	tests := []struct{ src, want string }{
		{`'it\'s' + x`, `'it\'s'`},
		{`"a\\" + "b"`, `"a\\"`},
		{"`a${'`'}b` + c", "`a${'`'}b`"},
		{"'open\nnext", "'open"},
	}
	for _, tc := range tests {
		if got := tc.src[:stringEnd([]byte(tc.src), 0)]; got != tc.want {
			t.Errorf("stringEnd(%q) covers %q, want %q", tc.src, got, tc.want)
		}
	}
}
