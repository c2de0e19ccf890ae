package edit

import (
	"reflect"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

// meaningInputs are documents of every shape checked meets: the fast path
// (plain mappings, sequences, scalars of each type) and what it hands to
// yaml.v3 (aliases, merge keys, tags, non-string keys, duplicates).
var meaningInputs = []string{
	"",
	"# only a comment\n",
	"~\n",
	"just a string\n",
	"- a\n- b\n",
	"tools:\n  web_search: beeuni:web_search\n  x: tools/x.ts # c\n",
	"tools: {a: 1, b: 2.5, c: true, d: null, e: 0x1F, f: '1', g: 2001-12-14}\n",
	"agents:\n  a:\n    tools: [read, bash]\n  b:\n    tools:\n      exclude: [x]\n",
	"a: &x {k: v}\nb: *x\n",
	"base: &b {k: v}\nderived:\n  <<: *b\n  j: w\n",
	"1: one\n\"1\": two\n",
	"a: 1\na: 2\n",
	"tools:\n  a: x\n  a: y\n",
	"? [a, b]\n: c\n",
	"a: !!binary aGVsbG8=\n",
	"a: !custom value\n",
	"a: !!set {x, y}\n",
	"a: !!str 12\nb: !!int '7'\n",
	"a: |\n  block\n  text\nb: >\n  folded\n",
	"a: 1\n---\nb: 2\n",
	"{}00",
	"key: [unclosed\n",
}

// TestMeaningOf: meaningOf says what decodeMap (yaml.Unmarshal into any)
// says of every input, and parseChecked what parseYFile and countDocs say.
func TestMeaningOf(t *testing.T) {
	for _, in := range meaningInputs {
		content := []byte(in)
		yf, perr := parseYFile("/p/beeuni.yaml", content)
		first, docs, err := parseChecked(content)
		if (perr != nil) != (err != nil) {
			t.Errorf("%q: parseChecked error %v, parseYFile error %v", in, err, perr)
			continue
		}
		if perr != nil {
			continue
		}
		if want := countDocs(content); docs != want {
			t.Errorf("%q: parseChecked counts %d documents, countDocs %d", in, docs, want)
		}
		if (first == nil) != (yf.doc == nil) {
			t.Errorf("%q: parseChecked's first document %v, parseYFile's %v", in, first, yf.doc)
		}
		want, wantOK := decodeMap(content)
		for _, tc := range []struct {
			name string
			got  func() (map[string]any, bool)
		}{
			{"parseYFile", func() (map[string]any, bool) { return meaningOf(yf.doc, content) }},
			{"parseChecked", func() (map[string]any, bool) { return meaningOf(first, content) }},
		} {
			got, ok := tc.got()
			if ok != wantOK || !reflect.DeepEqual(got, want) {
				t.Errorf("%q (%s): meaningOf = %#v, %v; decodeMap = %#v, %v", in, tc.name, got, ok, want, wantOK)
			}
		}
	}
}

// FuzzMeaningOf: the same on any input.
func FuzzMeaningOf(f *testing.F) {
	for _, in := range meaningInputs {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		content := []byte(in)
		yf, err := parseYFile("/p/beeuni.yaml", content)
		if err != nil {
			return
		}
		want, wantOK := decodeMap(content)
		got, ok := meaningOf(yf.doc, content)
		if ok != wantOK || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: meaningOf = %#v, %v; decodeMap = %#v, %v", in, got, ok, want, wantOK)
		}
	})
}

// TestPrepareReusesTheLoadersParse: a file prepared from the loader's
// parse is the file parseYFile makes of the same bytes.
func TestPrepareReusesTheLoadersParse(t *testing.T) {
	inputs := append([]string{benchManifest, "\xef\xbb\xbftools:\r\n  a: beeuni:memory\r\n"}, meaningInputs...)
	reused := 0
	for _, in := range inputs {
		m := memFrom(map[string]string{"beeuni.yaml": in})
		p, err := analysis.Load(t.Context(), m, testRoot)
		if err != nil {
			t.Fatal(err)
		}
		prepared := prepare(p)
		for i, f := range p.Files {
			if f.SyntaxError != nil || f.Doc == nil {
				continue
			}
			reused++
			want, err := parseYFile(f.Path, f.Content())
			if err != nil {
				t.Errorf("%q: the loader parsed it, parseYFile: %v", in, err)
				continue
			}
			got := *prepared.files[i]
			if got.src != f {
				t.Errorf("%q: the prepared file does not point at the loader's", in)
			}
			if got.tree != f.Tree() {
				t.Errorf("%q: the prepared file does not read the loader's tree", in)
			}
			got.src, got.tree = nil, nil
			if !reflect.DeepEqual(&got, want) {
				t.Errorf("%q: prepared %+v, parseYFile %+v", in, &got, want)
			}
		}
	}
	if reused < 10 {
		t.Errorf("only %d files came with the loader's parse", reused)
	}
}
