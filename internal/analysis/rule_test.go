package analysis

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// The registry: every code once, in the order of docs/rules.md, each rule
// declaring what it reads; the checks the memo keeps by entry belong to
// rules that read one entry (and the files, for T5 and T6).
func TestRulesRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules() {
		if seen[r.Code] {
			t.Errorf("%s registered twice", r.Code)
		}
		seen[r.Code] = true
		if r.Reads == 0 {
			t.Errorf("%s declares it reads nothing", r.Code)
		}
		if got, ok := RuleOf(r.Code); !ok || !reflect.DeepEqual(got, r) {
			t.Errorf("RuleOf(%s) = %+v, %v", r.Code, got, ok)
		}
	}
	for _, c := range defaultRules.tools {
		if !seen[c.rule.Code] {
			t.Errorf("tool check of %s, which is not registered", c.rule.Code)
		}
	}
	for _, c := range defaultRules.set {
		if !seen[c.rule.Code] {
			t.Errorf("set check of %s, which is not registered", c.rule.Code)
		}
	}
	for _, c := range defaultRules.agents {
		if !seen[c.rule.Code] {
			t.Errorf("agent check of %s, which is not registered", c.rule.Code)
		}
	}
	if _, ok := RuleOf("X9"); ok {
		t.Error("RuleOf of an unknown code")
	}
}

// newRuleSet refuses a check that reads more (or other) than its rule
// declares: what a check receives is what it reads.
func TestRuleSetRefusesWrongDeclarations(t *testing.T) {
	entry := func(e *toolEntry) verdict { return carryOn }
	files := func(e *toolEntry, fs entryFiles) verdict { return carryOn }
	set := func(s *toolSet) {}
	agent := func(e *agentEntry, a *Agent) {}
	cases := []struct {
		name   string
		tools  []toolCheck
		set    []setCheck
		want   string // "" when the set is valid
		agents []agentCheck
	}{
		{"entry check, entry rule", []toolCheck{{rule: &Rule{Code: "X1", Reads: ReadsEntry}, entry: entry}}, nil, "", nil},
		{"files check, files rule", []toolCheck{{rule: &Rule{Code: "X1", Reads: ReadsEntry | ReadsFiles}, files: files}}, nil, "", nil},
		{"set check, manifest rule", nil, []setCheck{{rule: &Rule{Code: "X1", Reads: ReadsManifest}, check: set}}, "", nil},
		{"set check of a rule declared per entry", nil, []setCheck{{rule: &Rule{Code: "X1", Reads: ReadsEntry}, check: set}},
			"rule X1 declares it reads one entry, but its check reads the whole manifest", nil},
		{"files check of a rule declared per entry", []toolCheck{{rule: &Rule{Code: "X1", Reads: ReadsEntry}, files: files}}, nil,
			"rule X1 declares it reads one entry, but its check reads one entry + the files around the manifests", nil},
		{"entry check of a rule declared cross-entry", []toolCheck{{rule: &Rule{Code: "X1", Reads: ReadsManifest}, entry: entry}}, nil,
			"rule X1 declares it reads the whole manifest, but its check reads one entry", nil},
		{"two functions", []toolCheck{{rule: &Rule{Code: "X1", Reads: ReadsEntry}, entry: entry, files: files}}, nil,
			"rule X1: a tool check has exactly one function", nil},
		{"no function", nil, []setCheck{{rule: &Rule{Code: "X1", Reads: ReadsManifest}}}, "rule X1: a set check without a function", nil},
		{"agent check, entry rule", nil, nil, "", []agentCheck{{rule: &Rule{Code: "X1", Reads: ReadsEntry}, check: agent}}},
		{"agent check of a rule declared cross-entry", nil, nil, "rule X1 declares it reads the whole manifest, but its check reads one entry",
			[]agentCheck{{rule: &Rule{Code: "X1", Reads: ReadsManifest}, check: agent}}},
		{"agent check without a function", nil, nil, "rule X1: an agent check without a function",
			[]agentCheck{{rule: &Rule{Code: "X1", Reads: ReadsEntry}}}},
	}
	for _, c := range cases {
		_, err := newRuleSet(c.tools, c.set, c.agents)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s: error %q, want %q", c.name, got, c.want)
		}
	}
}

// ruleSharedModule is a test rule that reads across entries: a module file
// that two tools load.
var ruleSharedModule = &Rule{Code: "X1", Severity: diag.Warning, Reads: ReadsManifest}

func msgSharedModule(path string, n int) string {
	return fmt.Sprintf("module `%s` is the module of %d tools", path, n)
}

// checkSharedModule reports X1 on each tool whose module another tool has.
func checkSharedModule(s *toolSet) {
	count := map[string]int{}
	for _, tool := range s.model.Tools {
		if tool.Module != "" {
			count[tool.Module]++
		}
	}
	for i, tool := range s.model.Tools {
		if n := count[tool.Module]; n > 1 && i < len(s.toolDecls) {
			d := s.toolDecls[i]
			s.report(ruleSharedModule, d.unit, d.value, msgSharedModule(tool.Source, n), nil)
		}
	}
}

// sharedModuleEdits is a sequence of manifest edits that make tools share
// a module and stop sharing it, each touching one entry (the others are
// reused from the memo): the step's name, the text replaced, its new text,
// and how many X1 findings the step's version has.
var sharedModuleEdits = []struct {
	name, old, new string
	want           int
}{
	{"first load", "", "", 0},
	{"tool_00010 takes tool_00020's module", "  tool_00010: tools/tool_00010.ts", "  tool_00010: tools/tool_00020.ts", 2},
	{"a comment typed at the top", "# a large project", "# a large project, typed", 2},
	{"tool_00020 renamed, same module", "  tool_00020:", "  tool_0002x:", 2},
	{"tool_0002x moves to tool_00021's module", "  tool_0002x: tools/tool_00020.ts", "  tool_0002x: tools/tool_00021.ts", 2},
	{"a line typed between", "  tool_00030:", "  tool_00029b: tools/tool_00040.ts\n  tool_00030:", 4},
	{"tool_00021 invalid", "  tool_00021: tools/tool_00021.ts", "  tool_00021: [a]", 2},
	{"tool_00040 renamed away", "  tool_00040:", "  Tool_00040:", 0},
	{"tool_00010 back to its module", "  tool_00010: tools/tool_00020.ts", "  tool_00010: tools/tool_00010.ts", 0},
	{"tool_00021 valid again", "  tool_00021: [a]", "  tool_00021: tools/tool_00021.ts", 2},
}

// runSharedModuleEdits types sharedModuleEdits into a manifest of n tools,
// loading each version through one cache (memo on) with rules and with no
// cache, and returns the first difference between them (or ""). It fails t
// when the edits do not give the X1 counts they should, or when the memo
// reused few outcomes: the sequence must exercise it.
func runSharedModuleEdits(t *testing.T, rules *ruleSet, before func(content string)) (diff string) {
	t.Helper()
	fsys, data := memoWorkspace(200)
	content := string(data)
	manifest := filepath.Join(testRoot, ManifestName)
	cache := NewCache()
	cache.chunkLines = 4
	ctx := context.Background()
	hits := 0
	for _, e := range sharedModuleEdits {
		if e.old != "" {
			if !strings.Contains(content, e.old) {
				t.Fatalf("%s: %q not in the manifest", e.name, e.old)
			}
			content = strings.Replace(content, e.old, e.new, 1)
		}
		fsys.WriteFile(manifest, []byte(content))
		if before != nil {
			before(content)
		}
		fresh, err := loadWith(ctx, fsys, testRoot, nil, rules)
		if err != nil {
			t.Fatal(err)
		}
		cached, err := loadWith(ctx, fsys, testRoot, cache, rules)
		if err != nil {
			t.Fatal(err)
		}
		hits += memoHits(cache)
		if n := countCode(fresh.Findings, "X1"); n != e.want {
			t.Fatalf("%s: %d X1 findings, want %d", e.name, n, e.want)
		}
		if diff == "" && !reflect.DeepEqual(fresh.Findings, cached.Findings) {
			diff = fmt.Sprintf("%s: the memoized load's findings differ:\nfresh  %v\ncached %v", e.name, only(fresh.Findings, "X1"), only(cached.Findings, "X1"))
		}
	}
	t.Logf("%d outcomes reused", hits)
	if hits < len(sharedModuleEdits)*150 {
		t.Fatalf("only %d outcomes reused over %d versions of 220 entries", hits, len(sharedModuleEdits))
	}
	return diff
}

func countCode(fs []diag.Finding, code string) int { return len(only(fs, code)) }

func only(fs []diag.Finding, code string) []string {
	var out []string
	for _, f := range fs {
		if f.Code == code {
			out = append(out, fmt.Sprintf("%d:%d %s", f.Range.Start.Line+1, f.Range.Start.Col+1, f.Message))
		}
	}
	return out
}

// TestMemoCrossEntryRule adds a rule that reads across entries, declared so
// (a set check), and types into a large manifest: after every edit the
// memoized load gives what a load without a cache gives, while the memo
// reuses the outcomes of the entries the edit did not touch.
//
// The same rule written as a per-entry check cannot get the tool set: it
// can only read it from outside its entry (here a count the test refreshes
// before each load, as a package variable would be). Declared so, the memo
// serves its outcome of an unchanged entry after another entry changed, and
// the comparison with the uncached load catches it; and newRuleSet refuses
// its set check under a rule declared per entry.
func TestMemoCrossEntryRule(t *testing.T) {
	rules, err := newRuleSet(defaultToolChecks(), append(defaultSetChecks(), setCheck{rule: ruleSharedModule, check: checkSharedModule}), defaultAgentChecks())
	if err != nil {
		t.Fatal(err)
	}
	if diff := runSharedModuleEdits(t, rules, nil); diff != "" {
		t.Fatal(diff)
	}

	// Wrongly declared: the same findings, from a per-entry check that
	// reads the module counts of the version being loaded.
	var count map[string]int
	perEntry := func(e *toolEntry, fs entryFiles) verdict {
		if n := count[e.tool.Source]; n > 1 {
			e.report(ruleSharedModuleEntry, e.value, msgSharedModule(e.tool.Source, n), nil)
		}
		return carryOn
	}
	wrong, err := newRuleSet(append(defaultToolChecks(), toolCheck{rule: ruleSharedModuleEntry, files: perEntry}), defaultSetChecks(), defaultAgentChecks())
	if err != nil {
		t.Fatal(err)
	}
	diff := runSharedModuleEdits(t, wrong, func(content string) { count = moduleCounts(content) })
	if diff == "" {
		t.Fatal("a cross-entry rule declared per entry was not caught: the memoized loads equal the uncached ones")
	}
	t.Logf("caught as expected: %s", diff)

	if _, err := newRuleSet(defaultToolChecks(), []setCheck{{rule: ruleSharedModuleEntry, check: checkSharedModule}}, nil); err == nil {
		t.Fatal("newRuleSet took a set check under a rule declared per entry")
	}
}

// ruleSharedModuleEntry is ruleSharedModule wrongly declared per entry (with
// the files, as the check sits after T6 to see the module path).
var ruleSharedModuleEntry = &Rule{Code: "X1", Severity: diag.Warning, Reads: ReadsEntry | ReadsFiles}

// moduleCounts counts the tools of a manifest (a memoWorkspace's: every
// path it names exists) by module path, from a load without a cache.
func moduleCounts(content string) map[string]int {
	fsys, _ := memoWorkspace(0)
	fsys.WriteFile(filepath.Join(testRoot, ManifestName), []byte(content))
	p, err := Load(context.Background(), fsys, testRoot)
	if err != nil {
		return nil
	}
	count := map[string]int{}
	for _, tool := range p.Model.Tools {
		if tool.Module != "" {
			count[tool.Source]++
		}
	}
	return count
}

// TestFilesChangedKeepsEntryOutcomes: FilesChanged drops the outcomes of
// the declarations a files check (T5, T6) ran on, and keeps those that read
// their entry alone (a `beeuni:` value, a value that is not a string, a
// harness name, every agent's shape), with Load's results.
func TestFilesChangedKeepsEntryOutcomes(t *testing.T) {
	fsys, _ := memoWorkspace(200)
	cache := NewCache()
	compareLoads(t, fsys, cache)
	// The outcomes that read their entry alone, and the agents' A1 and A2
	// kept against the tool set (the same after a module is deleted: T6
	// does not take a tool out of the set).
	entryOnly, all, againstSet := 0, 0, 0
	for _, m := range cache.memos {
		for _, o := range m.tools {
			if !o.readFiles {
				entryOnly++
			}
		}
		for _, o := range m.agents {
			if o.dep != nil {
				againstSet++
			}
		}
		entryOnly += len(m.agents)
		all += len(m.tools) + len(m.agents)
	}
	if entryOnly < 40 || entryOnly >= all {
		t.Fatalf("%d of %d outcomes read their entry alone: the workspace does not tell them apart", entryOnly, all)
	}
	fsys.Remove(filepath.Join(testRoot, "tools", "tool_00007.ts"))
	cache.FilesChanged()
	compareLoads(t, fsys, cache)
	if h := memoHits(cache); h != entryOnly+againstSet {
		t.Fatalf("after FilesChanged the load reused %d outcomes, want the %d that read their entry alone and the %d agents' names against the same tool set",
			h, entryOnly, againstSet)
	}
}

// A memo is made for one rule set: a load with other checks through the
// same cache starts an empty one, and the default checks' memo is not used
// for them.
func TestMemoIsPerRuleSet(t *testing.T) {
	withX1, err := newRuleSet(defaultToolChecks(), append(defaultSetChecks(), setCheck{rule: ruleSharedModule, check: checkSharedModule}), defaultAgentChecks())
	if err != nil {
		t.Fatal(err)
	}
	fsys, _ := memoWorkspace(100)
	cache := NewCache()
	ctx := context.Background()
	for i, rules := range []*ruleSet{defaultRules, defaultRules, withX1, withX1, defaultRules} {
		if _, err := loadWith(ctx, fsys, testRoot, cache, rules); err != nil {
			t.Fatal(err)
		}
		reused := i == 1 || i == 3
		if h := memoHits(cache); (h > 0) != reused {
			t.Errorf("load %d reused %d outcomes; want reuse: %v", i, h, reused)
		}
	}
}
