package schema

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// expressible are the codes whose findings the schema makes too, each on
// the same entry (docs/schema.md, "What the schema checks"): Y2, I1, I2,
// I3, I5, T1, T2 (the error), T3, T4, T5, T7, A3. A finding of these codes
// that only the files around the manifest, or more than one string, can
// show is not expressible: partly says which.
var expressible = map[string]bool{
	"Y2": true, "I1": true, "I2": true, "I3": true, "I5": true,
	"T1": true, "T2": true, "T3": true, "T4": true, "T5": true, "T7": true, "A3": true,
}

// leavesPattern is the schema's own pattern for a path that leaves the
// repository: a `..` further on is the engine's alone.
var leavesPattern = regexp.MustCompile(leaves)

// partly reports whether f, of an expressible code, is one of the forms a
// schema cannot express: a path that leaves the repository through a `..`
// after its first element or through a symbolic link, a duplicate import
// spelled another way, the opencode names of T2 (a warning).
func partly(f diag.Finding, imports []any) bool {
	path := f.Data[analysis.DataPath]
	switch {
	case f.Code == "T2" && f.Severity != diag.Error:
		return true
	case strings.Contains(f.Message, "symbolic link"):
		return true
	case strings.HasSuffix(f.Message, "leaves the repository") || strings.Contains(f.Message, "leaves the repository;"):
		return !leavesPattern.MatchString(path)
	case f.Code == "I5":
		n := 0
		for _, it := range imports {
			if it == path {
				n++
			}
		}
		return n < 2
	}
	return false
}

// TestSchemaAgreesWithTheEngine holds the schema to the engine on every
// manifest of the engine's test corpus (internal/analysis/testdata/cases),
// of the shapes only a schema's patterns find hard (testdata/agree) and of
// every project of the repository (examples/, the editors' fixtures): for every file that parses, the entries (a tool, an
// agent, an import, a top-level key) the schema flags are exactly those
// where the engine reports a rule the schema can express. So a manifest
// the engine flags for such a rule fails the schema there, and one it
// accepts passes.
func TestSchemaAgreesWithTheEngine(t *testing.T) {
	s := compiled(t)
	cases, err := filepath.Glob(filepath.Join("..", "analysis", "testdata", "cases", "*.txtar"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no engine cases: %v", err)
	}
	own, err := filepath.Glob(filepath.Join("testdata", "agree", "*.txtar"))
	if err != nil || len(own) == 0 {
		t.Fatalf("no cases in testdata/agree: %v", err)
	}
	cases = append(cases, own...)
	for _, c := range cases {
		name := strings.TrimSuffix(filepath.Base(c), ".txtar")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(c)
			if err != nil {
				t.Fatal(err)
			}
			root := filepath.FromSlash("/repo")
			agree(t, s, vfs.MemFromTxtar(root, data), root)
		})
	}
	projects := projectsIn(t, filepath.Join("..", ".."))
	if len(projects) < 4 {
		t.Fatalf("found %d projects in the repository, want examples/shop, examples/mistakes and the editor fixtures", len(projects))
	}
	for _, rel := range projects {
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			root, err := filepath.Abs(filepath.Join("..", "..", rel))
			if err != nil {
				t.Fatal(err)
			}
			agree(t, s, vfs.NewDisk(), root)
		})
	}
}

// projectsIn returns every folder of the repository that holds a
// beeuni.yaml (examples/, the editors' fixtures), relative to repo,
// outside node_modules and hidden folders.
func projectsIn(t *testing.T, repo string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(repo, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != repo && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "beeuni.yaml" {
			rel, err := filepath.Rel(repo, filepath.Dir(p))
			if err != nil {
				return err
			}
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// agree compares, file by file, the entries the engine flags with an
// expressible rule and the entries the schema flags.
func agree(t *testing.T, s *jsonschema.Schema, fsys vfs.FS, root string) {
	t.Helper()
	p, err := analysis.Load(context.Background(), fsys, root)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range p.Files {
		if f.Doc == nil || f.SyntaxError != nil {
			continue // empty (yaml-language-server validates nothing) or a syntax error (Y1)
		}
		inst, err := instance(f.Doc)
		if err != nil {
			t.Fatalf("%s: %v", f.Rel, err)
		}
		imports := importsOf(inst)
		engine := map[string][]string{}
		for _, fd := range p.Findings {
			if fd.File != f.Path || !expressible[fd.Code] || partly(fd, imports) {
				continue
			}
			at := findingEntry(fd, f)
			engine[at] = append(engine[at], fd.Code+" "+fd.Message)
		}
		flagged := map[string][]string{}
		var verr *jsonschema.ValidationError
		if err := s.Validate(inst); errors.As(err, &verr) {
			flagged = failures(verr, nil)
		} else if err != nil {
			t.Fatalf("%s: %v", f.Rel, err)
		}
		for _, at := range keys(engine) {
			if flagged[at] == nil {
				t.Errorf("%s: the engine flags %s (%s) and the schema accepts it", f.Rel, at, strings.Join(engine[at], "; "))
			}
		}
		for _, at := range keys(flagged) {
			if engine[at] == nil {
				t.Errorf("%s: the schema flags %s (%s) and the engine reports no rule the schema expresses there", f.Rel, at, strings.Join(flagged[at], "; "))
			}
		}
	}
}

func importsOf(inst any) []any {
	m, _ := inst.(map[string]any)
	list, _ := m["imports"].([]any)
	return list
}

func keys(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// failures returns the entries of the errors that say what is wrong, as
// an editor shows them: in an anyOf, the branches of another type than the
// value are set aside; when one branch is left, its errors count, else the
// anyOf counts as one error where it applies. A property name the names'
// schema refuses is one error, in the entry of that name; a list item equal
// to an earlier one, in the entry of the later item. The library
// reuses the location of a property name's error, so it is taken from the
// error around it (at, a copy).
func failures(e *jsonschema.ValidationError, at []string) map[string][]string {
	out := map[string][]string{}
	var walk func(e *jsonschema.ValidationError, at []string)
	walk = func(e *jsonschema.ValidationError, at []string) {
		switch k := e.ErrorKind.(type) {
		case *kind.AnyOf, *kind.OneOf:
			var same []*jsonschema.ValidationError
			for _, c := range e.Causes {
				if !wrongType(c, e.InstanceLocation) {
					same = append(same, c)
				}
			}
			if len(same) == 1 {
				walk(same[0], e.InstanceLocation)
				return
			}
		case *kind.PropertyNames:
			entry := entryOf(append(append([]string(nil), at...), k.Property))
			out[entry] = append(out[entry], e.Error())
			return
		case *kind.UniqueItems:
			entry := entryOf(append(append([]string(nil), e.InstanceLocation...), strconv.Itoa(k.Duplicates[1])))
			out[entry] = append(out[entry], e.Error())
			return
		}
		if len(e.Causes) == 0 || isAnyOf(e) {
			entry := entryOf(e.InstanceLocation)
			out[entry] = append(out[entry], e.Error())
			return
		}
		for _, c := range e.Causes {
			walk(c, e.InstanceLocation)
		}
	}
	walk(e, at)
	return out
}

func isAnyOf(e *jsonschema.ValidationError) bool {
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		return true
	}
	return false
}

// wrongType reports whether a branch failed only for the value's type: a
// `type` it is not, or the `not: {type: object}` of a branch for values
// that are not mappings, at the value itself.
func wrongType(e *jsonschema.ValidationError, at []string) bool {
	if !slices.Equal(e.InstanceLocation, at) {
		return false
	}
	switch e.ErrorKind.(type) {
	case *kind.Type, *kind.Not:
		return true
	}
	return len(e.Causes) == 1 && wrongType(e.Causes[0], at)
}

// entryOf is the entry of an instance location: cut after two steps
// (`tools/NAME`, `agents/NAME`, `imports/N`).
func entryOf(loc []string) string {
	if len(loc) > 2 {
		loc = loc[:2]
	}
	return "/" + strings.Join(loc, "/")
}

// findingEntry is the entry of an engine finding: that of its tool or
// agent when it names one (a finding on an entry a merge key brings is at
// the anchor, elsewhere in the file), else where it is.
func findingEntry(f diag.Finding, file *analysis.File) string {
	switch {
	case f.Code[0] == 'T' && f.Data[analysis.DataName] != "":
		return "/tools/" + f.Data[analysis.DataName]
	case f.Code == "A3" && f.Data["agent"] != "":
		return "/agents/" + f.Data["agent"]
	}
	return entryAt(file.Doc, file.Lines, f.Range.Start)
}

// keyName is a key as an instance names it: its text, or for a key that is
// not a scalar, where it is.
func keyName(k *yaml.Node) string {
	if k.Kind != yaml.ScalarNode {
		return fmt.Sprintf("<%s key on line %d>", k.Tag, k.Line)
	}
	return k.Value
}

// entryAt is the entry of the manifest a position is in, the same way: the
// top-level key, then the key or item under it, each the last one that
// starts at or before the position (a position on a key is in that key's
// entry).
func entryAt(doc *yaml.Node, lines *diag.Lines, pos diag.Pos) string {
	line, col := pos.Line+1, analysis.CharColumn(lines, pos)+1
	before := func(n *yaml.Node) bool { return n.Line < line || n.Line == line && n.Column <= col }
	var loc []string
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for len(loc) < 2 && n != nil {
		if n.Kind == yaml.AliasNode {
			n = n.Alias
		}
		step, next := "", (*yaml.Node)(nil)
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k := n.Content[i]; before(k) {
					step, next = keyName(k), n.Content[i+1]
				}
			}
		case yaml.SequenceNode:
			for i, it := range n.Content {
				if before(it) {
					step, next = strconv.Itoa(i), it
				}
			}
		}
		if next == nil {
			break
		}
		loc = append(loc, step)
		if !before(next) {
			break // on the key
		}
		n = next
	}
	return "/" + strings.Join(loc, "/")
}
