package tsinspect

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/beeuni/beeuni-lsp/internal/bunload"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// The corpus (testdata/corpus/*.txtar) holds realistic tool modules, one per
// archive, named in its `-- modules --` section. Each archive's `-- bun --`
// section is what Bun said when it loaded the module the way the daemon does
// (internal/bunload; bun_test.go checks the record against Bun itself).
// An archive whose comment has a line `runtime-only: why` is a module whose
// verdict depends on running its code: the inspector must leave it undecided
// (M11), never an error, never a guess.

// bunVerdict is what loading a module in Bun told.
type bunVerdict = bunload.Verdict

// formatVerdict renders the verdict as a `-- bun --` section.
func formatVerdict(v bunVerdict) string {
	var b strings.Builder
	if !v.Loads {
		fmt.Fprintf(&b, "fails %s: %s\n", v.Class, v.Message)
		return b.String()
	}
	b.WriteString("loads\n")
	if v.Description != nil {
		q, _ := json.Marshal(*v.Description)
		fmt.Fprintf(&b, "description %s\n", q)
	}
	if v.Parameters != nil {
		fmt.Fprintf(&b, "parameters %s\n", *v.Parameters)
	}
	return b.String()
}

// parseBunSection reads a `-- bun --` section back.
func parseBunSection(s string) (bunVerdict, error) {
	var v bunVerdict
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) == 0 {
		return v, fmt.Errorf("empty bun section")
	}
	switch first := lines[0]; {
	case first == "loads":
		v.Loads = true
	case strings.HasPrefix(first, "fails "):
		class, msg, ok := strings.Cut(strings.TrimPrefix(first, "fails "), ": ")
		if !ok {
			return v, fmt.Errorf("bun section: %q is not `fails CLASS: MESSAGE`", first)
		}
		v.Class, v.Message = class, msg
		return v, nil
	default:
		return v, fmt.Errorf("bun section: first line %q is neither `loads` nor `fails ...`", first)
	}
	for _, l := range lines[1:] {
		key, val, _ := strings.Cut(l, " ")
		switch key {
		case "description":
			var d string
			if err := json.Unmarshal([]byte(val), &d); err != nil {
				return v, fmt.Errorf("bun section: description: %w", err)
			}
			v.Description = &d
		case "parameters":
			p := val
			v.Parameters = &p
		default:
			return v, fmt.Errorf("bun section: unknown line %q", l)
		}
	}
	return v, nil
}

// inspectorVerdict is the inspector's answer in the same terms: "loads",
// "undecided" (the verdict depends on running code, said with M11), or
// "fails CLASS".
func inspectorVerdict(r *Result) string {
	switch {
	case !r.Loads:
		return "fails " + reasonClass(r.Reason)
	case r.Undecided:
		return "undecided"
	}
	return "loads"
}

// reasonClass sorts the inspector's reason into Bun's failure classes.
func reasonClass(reason string) string {
	switch {
	case strings.HasPrefix(reason, "syntax error"), strings.Contains(reason, "not JavaScript or TypeScript text"),
		strings.HasPrefix(reason, "JSON Parse error"):
		return "syntax"
	case strings.Contains(reason, "Cannot find package"), strings.Contains(reason, "Cannot find module"),
		strings.Contains(reason, "harness package"):
		return "resolve"
	case strings.Contains(reason, "Export named"):
		return "export"
	case strings.Contains(reason, "default export"), strings.Contains(reason, "tool({"):
		return "default"
	case strings.Contains(reason, "`parameters`"):
		return "parameters"
	}
	return "runtime"
}

func bunVerdictString(v bunVerdict) string {
	if v.Loads {
		return "loads"
	}
	return "fails " + v.Class
}

// corpusCase is one module of the corpus.
type corpusCase struct {
	name        string // archive name without .txtar
	ar          *txtar.Archive
	module      string // repository-relative
	runtimeOnly string // why the verdict depends on running code; "" when it does not
	bun         *bunVerdict
}

func loadCorpus(t *testing.T, dir string) []corpusCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusCase
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		ar := txtar.Parse(data)
		c := corpusCase{name: strings.TrimSuffix(filepath.Base(file), ".txtar"), ar: ar}
		for _, l := range strings.Split(string(ar.Comment), "\n") {
			if why, ok := strings.CutPrefix(l, "runtime-only: "); ok {
				c.runtimeOnly = why
			}
		}
		for _, f := range ar.Files {
			switch f.Name {
			case "modules":
				mods := strings.Fields(string(f.Data))
				if len(mods) != 1 {
					t.Fatalf("%s: a corpus archive names exactly one module, not %d", file, len(mods))
				}
				c.module = mods[0]
			case "bun":
				v, err := parseBunSection(string(f.Data))
				if err != nil {
					t.Fatalf("%s: %v", file, err)
				}
				c.bun = &v
			}
		}
		if c.module == "" {
			t.Fatalf("%s: no `-- modules --` section", file)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		t.Fatalf("no corpus in %s", dir)
	}
	return out
}

// workspace returns the archive's files (all but the test's own sections).
func workspace(ar *txtar.Archive) []txtar.File {
	var out []txtar.File
	for _, f := range ar.Files {
		switch f.Name {
		case "want", "modules", "bun":
			continue
		}
		out = append(out, f)
	}
	return out
}

func inspectFiles(files []txtar.File, module string) *Result {
	mem := vfs.NewMem()
	for _, f := range files {
		mem.WriteFile(filepath.Join(repoRoot, filepath.FromSlash(f.Name)), f.Data)
	}
	in := New(mem, Options{CacheEntries: -1})
	return in.Inspect(context.Background(), repoRoot, filepath.Join(repoRoot, filepath.FromSlash(module)))
}

// score compares the inspector with Bun on a set of cases and renders one
// line per disagreement, after a summary.
type score struct {
	right, missed, falseErrors, wrongClass, undecided, guesses int
	descKnown, descUnknown, descWrong                          int
	paramsKnown, paramsPartial, paramsUnknown, paramsWrong     int
	lines                                                      []string
}

func (s *score) add(name, runtimeOnly string, r *Result, bun bunVerdict) {
	got, want := inspectorVerdict(r), bunVerdictString(bun)
	switch {
	case runtimeOnly != "" && got == "undecided":
		s.right++
	case runtimeOnly != "":
		s.guesses++
		s.lines = append(s.lines, fmt.Sprintf("%s: guess: inspector %s, bun %s, but it depends on running code (%s)", name, got, want, runtimeOnly))
	case got == want:
		s.right++
	case got == "undecided":
		s.undecided++
		s.lines = append(s.lines, fmt.Sprintf("%s: undecided: bun %s (%s)", name, want, bun.Message))
	case got == "loads":
		s.missed++
		s.lines = append(s.lines, fmt.Sprintf("%s: missed: inspector loads, bun %s: %s", name, want, bun.Message))
	case want == "loads":
		s.falseErrors++
		s.lines = append(s.lines, fmt.Sprintf("%s: false error: inspector %s (%s), bun loads", name, got, r.Reason))
	default:
		s.wrongClass++
		s.lines = append(s.lines, fmt.Sprintf("%s: wrong class: inspector %s (%s), bun %s: %s", name, got, r.Reason, want, bun.Message))
	}
	if !bun.Loads || !r.Loads {
		return
	}
	if bun.Description != nil {
		switch {
		case !r.DescriptionKnown:
			s.descUnknown++
			s.lines = append(s.lines, fmt.Sprintf("%s: description unknown", name))
		case r.Description != *bun.Description:
			s.descWrong++
			s.lines = append(s.lines, fmt.Sprintf("%s: description wrong: inspector %q, bun %q", name, r.Description, *bun.Description))
		default:
			s.descKnown++
		}
	}
	if bun.Parameters != nil {
		switch {
		case r.Parameters == nil:
			s.paramsUnknown++
			s.lines = append(s.lines, fmt.Sprintf("%s: parameters unknown", name))
		case !subsetJSON(r.Parameters, []byte(*bun.Parameters)):
			s.paramsWrong++
			s.lines = append(s.lines, fmt.Sprintf("%s: parameters wrong: inspector %s, bun %s", name, r.Parameters, *bun.Parameters))
		case len(r.ParametersUnknown) > 0:
			s.paramsPartial++
			s.lines = append(s.lines, fmt.Sprintf("%s: parameters partly known (%d parts unknown)", name, len(r.ParametersUnknown)))
		case !sameJSON(r.Parameters, []byte(*bun.Parameters)):
			s.paramsWrong++
			s.lines = append(s.lines, fmt.Sprintf("%s: parameters wrong: inspector %s, bun %s", name, r.Parameters, *bun.Parameters))
		default:
			s.paramsKnown++
		}
	}
}

func (s *score) String() string {
	var b strings.Builder
	total := s.right + s.missed + s.falseErrors + s.wrongClass + s.undecided + s.guesses
	fmt.Fprintf(&b, "verdicts: %d of %d right; %d missed (Bun fails, inspector says it loads), %d false errors, %d wrong failure class, %d undecided where Bun decides, %d guesses on runtime-only modules\n",
		s.right, total, s.missed, s.falseErrors, s.wrongClass, s.undecided, s.guesses)
	fmt.Fprintf(&b, "values (modules that load): description %d known, %d unknown, %d wrong; parameters %d known, %d partly known (the known part right), %d unknown, %d wrong\n",
		s.descKnown, s.descUnknown, s.descWrong, s.paramsKnown, s.paramsPartial, s.paramsUnknown, s.paramsWrong)
	sort.Strings(s.lines)
	for _, l := range s.lines {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// subsetJSON reports whether JSON a holds only what b holds: every key of
// an object in a is in b with a value that is a subset of b's; anything
// else equal.
func subsetJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return subsetValue(x, y)
}

func subsetValue(x, y any) bool {
	xm, ok := x.(map[string]any)
	if !ok {
		return reflect.DeepEqual(x, y)
	}
	ym, ok := y.(map[string]any)
	if !ok {
		return false
	}
	for k, v := range xm {
		w, ok := ym[k]
		if !ok || !subsetValue(v, w) {
			return false
		}
	}
	return true
}

// sameJSON compares two JSON texts as values (key order aside).
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return reflect.DeepEqual(x, y)
}

// TestCorpusVerdicts holds the inspector to Bun's recorded verdicts on the
// corpus. testdata/corpus/score.golden lists every disagreement; a change
// either way (a new disagreement, or one fixed) fails until -update records
// it, so the score is never lost silently.
func TestCorpusVerdicts(t *testing.T) {
	cases := loadCorpus(t, "testdata/corpus")
	if len(cases) < 50 {
		t.Fatalf("the corpus has %d modules, want at least 50", len(cases))
	}
	var s score
	for _, c := range cases {
		if c.bun == nil {
			t.Fatalf("%s: no `-- bun --` section: run scripts/install-bun.sh, then go test -run TestBun -update ./internal/tsinspect/", c.name)
		}
		r := inspectFiles(workspace(c.ar), c.module)
		s.add(c.name, c.runtimeOnly, r, *c.bun)
	}
	checkGolden(t, "testdata/corpus/score.golden", s.String())
}

func checkGolden(t *testing.T, file, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run go test -update to accept)\n--- got\n%s--- want\n%s", file, got, want)
	}
}
