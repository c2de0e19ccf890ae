package edit

import (
	"bytes"
	"fmt"
	"io"
	"maps"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

// manifests is the project's YAML files prepared for editing, root first.
type manifests struct {
	p     *analysis.Project
	files []*yfile // nil where a file does not parse
}

func prepare(p *analysis.Project) *manifests {
	m := &manifests{p: p, files: make([]*yfile, len(p.Files))}
	for i, f := range p.Files {
		if f.SyntaxError != nil {
			continue // the engine's verdict: yaml.v3 alone accepts "{}00" (one document, the rest ignored)
		}
		if f.Doc != nil {
			// The loader's parse: the same yaml.v3 parse of the same
			// bytes (a 870 KB manifest is 30 ms to parse again, and a
			// code action request prepares the project three times).
			m.files[i] = newYFile(f.Path, f.Content(), f.Doc)
			m.files[i].src = f
		} else if yf, err := parseYFile(f.Path, f.Content()); err == nil {
			m.files[i] = yf
		}
		if m.files[i] != nil {
			m.files[i].tree = f.Tree()
		}
	}
	return m
}

// file returns the prepared file of an absolute path, or nil.
func (m *manifests) file(abs string) *yfile {
	for i, f := range m.p.Files {
		if f.Path == abs {
			return m.files[i]
		}
	}
	return nil
}

// unparsed returns the repo path of the first file that does not parse.
func (m *manifests) unparsed() string {
	for i, f := range m.files {
		if f == nil {
			return m.p.Files[i].Rel
		}
	}
	return ""
}

// unclearMeaning returns, as `file:line:column: what [code]; fix it
// first`, the first finding of the project's YAML files that makes what an
// edit means unclear: a key written twice in a mapping the edit reads
// (T10 on a top-level key or a key under a top-level `tools:`: which one a
// reader keeps is the reader's choice, and a second `tools:` key is a
// second block the edit would not see) or a YAML syntax error (Y1: a
// second document, or text past the first that does not parse), each
// said as the finding says it. "" when there is none. A key written twice
// elsewhere (two agents of one name) is the agents' problem, not the
// edit's.
func unclearMeaning(p *analysis.Project) string {
	for _, f := range p.Findings {
		if f.Code != analysis.CodeDuplicateKey && f.Code != analysis.CodeSyntax {
			continue
		}
		file := p.File(f.File)
		if file == nil {
			continue
		}
		if f.Code == analysis.CodeDuplicateKey && !inToolsPath(file, f.Range.Start.Offset) {
			continue
		}
		col := f.Range.Start.Col + 1
		if file.Lines != nil {
			col = analysis.CharColumn(file.Lines, f.Range.Start) + 1
		}
		what := f.Message
		if f.Code == analysis.CodeDuplicateKey {
			what = "a key written twice in one mapping"
			if s, e := f.Range.Start.Offset, f.Range.End.Offset; s < e && e <= len(file.Content()) && e-s <= 80 {
				what = fmt.Sprintf("key `%s` written a second time in its mapping", file.Content()[s:e])
			}
		}
		return fmt.Sprintf("%s:%d:%d: %s [%s]; fix it first", file.Rel, f.Range.Start.Line+1, col, what, f.Code)
	}
	return ""
}

// inToolsPath reports whether the key starting at off is one of file's
// top-level keys or a key of its `tools:` mapping (the one the tree reads,
// aliases followed); true when that cannot be told (no parse, no marks).
func inToolsPath(file *analysis.File, off int) bool {
	marks, t := file.Marks(), file.Tree()
	if t.Root == nil || marks == nil {
		return true
	}
	hasKeyAt := func(m *yaml.Node) bool {
		for i := 0; m != nil && i+1 < len(m.Content); i += 2 {
			if marks.NodeStart(m.Content[i]) == off {
				return true
			}
		}
		return false
	}
	return hasKeyAt(t.Root) || hasKeyAt(t.Tools.Mapping)
}

// decl is one entry under a top-level tools: mapping, as the file's tree
// reads it (merge keys expanded).
type decl struct {
	file       *yfile
	rel        string
	key, value *yaml.Node // value as written
	tools      *yaml.Node // the tools mapping
	// merged is set for an entry a `<<` merge key (or a `tools:` alias)
	// brings: its bytes are in the mapping it comes from.
	merged bool
}

// unmerged refuses an edit of d's bytes when d comes through a merge key
// or an alias. The planner never edits the mapping an entry is merged
// from: other mappings may merge it too, and an edit there would change
// them all. The user makes the entry their own (writes it under tools:,
// where a written key wins over a merged one), then edits it.
func (d decl) unmerged(verb string) error {
	if !d.merged {
		return nil
	}
	name := d.key.Value
	return refuse("cannot %s %s: tools.%s in %s comes from a YAML merge key (`<<`) or an alias, and the mapping it comes from may be shared; write `%s:` under tools: itself first", verb, name, name, d.rel, name)
}

// toolsOf returns a file's top-level `tools` key and value as written,
// nil when the file has none or its tools: key is brought by a merge key
// (new entries are never written into a mapping merged from).
func toolsOf(f *yfile) (key, value *yaml.Node) {
	if f == nil || f.tree.Tools.Merged {
		return nil, nil
	}
	return f.tree.Tools.Key, f.tree.Tools.Value
}

// hasToolsKey reports whether any file has a top-level tools: key.
func (m *manifests) hasToolsKey() bool {
	for _, f := range m.files {
		if k, _ := toolsOf(f); k != nil {
			return true
		}
	}
	return false
}

// decls returns every declaration of name, root file first.
func (m *manifests) decls(name string) []decl {
	var out []decl
	for i, f := range m.files {
		if key, _ := toolsOf(f); key == nil {
			continue
		}
		s := &f.tree.Tools
		for j := range s.Entries {
			if d := &s.Entries[j]; d.Key.Kind == yaml.ScalarNode && d.Name == name {
				out = append(out, decl{file: f, rel: m.p.Files[i].Rel, key: d.Key, value: d.Value, tools: s.Mapping, merged: d.Merged})
			}
		}
	}
	return out
}

// toolsTarget returns the file and tools mapping new entries go to: the
// root file's when it has one, else the first import's.
func (m *manifests) toolsTarget() (f *yfile, key, tools *yaml.Node) {
	for _, f := range m.files {
		if k, v := toolsOf(f); k != nil {
			return f, k, v
		}
	}
	return nil, nil, nil
}

// repoPath turns a module path as written into an absolute path inside the
// project, or "" when analysis.ResolveRepoPath finds a problem with it.
func repoPath(root, value string) string {
	abs, problem := analysis.ResolveRepoPath(root, value)
	if problem != analysis.RepoPathOK {
		return ""
	}
	return abs
}

// checked applies edits to one file and checks the result: it parses, it
// holds as many documents as before, and, where the original decodes, it
// decodes to exactly what intend makes of the original (so that the edit
// changed what it meant to and nothing else).
func checked(f *yfile, edits []TextEdit, intend func(doc map[string]any) bool) ([]byte, error) {
	out, err := ApplyText(f.content, edits)
	if err != nil {
		return nil, err
	}
	// One parse of the result serves the three checks: it parses, its
	// documents, its meaning (meaningOf reads the parsed nodes). The
	// loader's chunks make it a parse of the chunks the edit touched; a
	// result they cannot take is parsed whole.
	afterDoc, ok := f.src.ParseEdited(out)
	afterDocs := 1
	if !ok {
		afterDoc, afterDocs, err = parseChecked(out)
		if err != nil {
			return nil, fmt.Errorf("the edit would break the YAML of %s: %w", f.path, fmt.Errorf("%s does not parse: %w", f.path, err))
		}
	}
	if afterDocs != 1 || !f.src.OneDocument() {
		if before := countDocs(f.content); before != afterDocs && !(before == 0 && f.doc == nil) {
			return nil, fmt.Errorf("the edit would change the documents of %s", f.path)
		}
	}
	if intend == nil {
		return out, nil
	}
	before := f.meaning()
	if !before.ok {
		return out, nil // duplicate keys or another shape: the parse check stands
	}
	intended := maps.Clone(before.doc) // intend changes it, and copies what it changes beneath (child)
	if !intend(intended) {
		return nil, errUnsupported
	}
	after, ok := meaningOf(afterDoc, out, before.nodes, false)
	if !ok || !sameMeaning(intended, after) {
		return nil, fmt.Errorf("the edit of %s would not mean what it should: %w", f.path, errUnsupported)
	}
	return out, nil
}

// fileMeaning is what a file means (meaningOf), for every edit checked on
// it, and what its collection nodes mean: an edited version's parse shares
// the nodes of the chunks the edit left, and so its meaning shares theirs.
type fileMeaning struct {
	doc   map[string]any // never changed: intents change a copy
	ok    bool
	nodes nodeMeanings
}

// meaning returns what the file means, made on the first call.
func (f *yfile) meaning() *fileMeaning {
	if f.means == nil {
		m := &fileMeaning{nodes: nodeMeanings{}}
		m.doc, m.ok = meaningOf(f.doc, f.content, m.nodes, true)
		f.means = m
	}
	return f.means
}

func countDocs(content []byte) int {
	dec := yaml.NewDecoder(bytes.NewReader(analysis.ForYAMLv3(content)))
	n := 0
	for ; n < 1000; n++ {
		var node yaml.Node
		if err := dec.Decode(&node); err != nil {
			if err == io.EOF {
				return n
			}
			return -1
		}
	}
	return n
}

// decodeMap decodes a file's first document; an empty file is an empty map.
func decodeMap(content []byte) (map[string]any, bool) {
	var v any
	if err := yaml.Unmarshal(analysis.ForYAMLv3(content), &v); err != nil {
		return nil, false
	}
	if v == nil {
		return map[string]any{}, true
	}
	m, ok := v.(map[string]any)
	return m, ok
}

// child returns doc[key] as a map the caller may change, creating it when
// create is set: a copy put in doc in its place, as the map found there is
// shared with the file's meaning (fileMeaning), which stays as it is.
func child(doc map[string]any, key string, create bool) (map[string]any, bool) {
	v, ok := doc[key]
	if !ok || v == nil {
		if !create {
			return nil, false
		}
		m := map[string]any{}
		doc[key] = m
		return m, true
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	m = maps.Clone(m)
	doc[key] = m
	return m, true
}
