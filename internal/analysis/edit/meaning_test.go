package edit

import (
	"errors"
	"maps"
	"reflect"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
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
			{"parseYFile", func() (map[string]any, bool) { return meaningOf(yf.doc, content, nil, false) }},
			{"parseChecked", func() (map[string]any, bool) { return meaningOf(first, content, nil, false) }},
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
		got, ok := meaningOf(yf.doc, content, nil, false)
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

// checkedByDecode is the reference check of an edit's meaning: the file
// and the edited text decoded whole by yaml.v3 (decodeMap), intend applied
// to the first, compared with the second by reflect.DeepEqual. It says
// nothing of the parse and document checks (ok false: no verdict).
func checkedByDecode(f *yfile, edits []TextEdit, intend func(map[string]any) bool) (refused, ok bool) {
	out, err := ApplyText(f.content, edits)
	if err != nil {
		return false, false
	}
	before, bok := decodeMap(f.content)
	if !bok {
		return false, false
	}
	if !intend(before) {
		return true, true
	}
	after, aok := decodeMap(out)
	return !aok || !reflect.DeepEqual(before, after), true
}

// checked's meaning check, on the file's meaning made once and shared
// with the edited version's where their parses share nodes, refuses
// exactly the edits the reference refuses: the edits of every quick fix
// planned on generated manifests and on manifests of many agents (parsed
// in many chunks, which the edited versions share), with two intents
// each, also on the files several checks share (one prepared project for
// all).
func TestCheckedMeaningMatchesADecode(t *testing.T) {
	var projects []vfs.FS
	for seed := uint64(0); seed < generatedSeeds; seed++ {
		projects = append(projects, generate(seed))
	}
	for _, tool := range []string{"show", "shoe", "lookup_ordr"} {
		projects = append(projects, agentsNaming(40, tool))
	}
	compared, shared := 0, 0
	for i, fsys := range projects {
		p := loadServerStyle(t, fsys)
		m := prepare(p)
		var cases []struct {
			y      *yfile
			edits  []TextEdit
			intend func(map[string]any) bool
		}
		// Every fix's edits, with the intent its planner gives, through
		// the same prepared files.
		for _, f := range p.Findings {
			rule, _ := analysis.RuleOf(f.Code)
			for _, kind := range rule.Fixes {
				c, _ := fixer(kind)(m, fsys, f)
				if c == nil || len(c.Edits) == 0 {
					continue
				}
				y := m.file(c.Edits[0].File)
				for _, intend := range []func(map[string]any) bool{
					func(map[string]any) bool { return true }, // means the same: refused unless the edit changes nothing
					func(doc map[string]any) bool { // the tools entry set to what the edit may set
						tools, ok := child(doc, "tools", true)
						if ok {
							tools["show"] = "beeuni:show"
						}
						return ok
					},
				} {
					cases = append(cases, struct {
						y      *yfile
						edits  []TextEdit
						intend func(map[string]any) bool
					}{y, c.EditsOf(y.path), intend})
				}
			}
		}
		for _, c := range cases {
			want, ok := checkedByDecode(c.y, c.edits, c.intend)
			if !ok {
				continue
			}
			_, err := checked(c.y, c.edits, c.intend)
			if err != nil && !errors.Is(err, errUnsupported) {
				continue // refused by the parse or the documents, before the meaning
			}
			if got := err != nil; got != want {
				t.Fatalf("project %d: checked refuses %v (%v), the reference %v, edits %v", i, got, err, want, c.edits)
			}
			compared++
		}
		for _, c := range cases {
			if sharesMeaning(c.y, c.edits) {
				shared++
			}
		}
	}
	if compared == 0 || shared == 0 {
		t.Fatalf("%d edits compared, %d accepted sharing the file's meaning: want some of each", compared, shared)
	}
}

// sharesMeaning reports whether the meaning of y edited holds a map of
// y's meaning itself, found by a node their parses share.
func sharesMeaning(y *yfile, edits []TextEdit) bool {
	out, err := ApplyText(y.content, edits)
	if err != nil || y.src == nil {
		return false
	}
	doc, ok := y.src.ParseEdited(out)
	if !ok {
		return false
	}
	before := y.meaning()
	after, ok := meaningOf(doc, out, before.nodes, false)
	if !ok || !before.ok {
		return false
	}
	for k, v := range after {
		am, aok := v.(map[string]any)
		bm, bok := before.doc[k].(map[string]any)
		if aok && bok && reflect.ValueOf(am).UnsafePointer() == reflect.ValueOf(bm).UnsafePointer() {
			return true
		}
	}
	return false
}

// sameMeaning agrees with reflect.DeepEqual on every pair of meanings of
// the inputs, and on a meaning and its copy with one value changed.
func TestSameMeaningIsDeepEqual(t *testing.T) {
	var values []any
	for _, in := range meaningInputs {
		if v, ok := decodeMap([]byte(in)); ok {
			values = append(values, v, maps.Clone(v))
			if len(v) > 0 {
				changed := maps.Clone(v)
				for k := range changed {
					changed[k] = []any{}
					break
				}
				values = append(values, changed)
			}
		}
	}
	values = append(values, map[string]any(nil), []any(nil), []any{}, "", nil)
	for _, a := range values {
		for _, b := range values {
			if got, want := sameMeaning(a, b), reflect.DeepEqual(a, b); got != want {
				t.Errorf("sameMeaning(%#v, %#v) = %v, reflect.DeepEqual %v", a, b, got, want)
			}
		}
	}
}
