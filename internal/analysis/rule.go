package analysis

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// Every rule lives in its own file, rule_<name>.go (one rule, or a small
// family that shares a check): its code, its severity, what it reads, the
// quick fixes it offers, its exact messages and its check. This file holds
// what they share: the Rule type, the list of every rule, and the typed
// checks through which the loader runs them and the memo keeps their
// outcomes (docs/engine.md, "How to add a rule").

// Reads is what a rule's check reads. A rule the loader checks on every
// load may read whatever it declares. The memo (memo.go) keeps a check's
// outcome between loads only by what the check's rule declares, and the
// type of a memoized check is what it receives: a tool check gets one
// declaration (toolEntry) and, if its rule reads the files, a view of
// them (entryFiles); an agent check one agent's entry (agentEntry); never
// the model or the other entries. newRuleSet refuses a check whose
// rule declares other than what the check receives, and
// TestMemoCrossEntryRule shows what a memoized load looks like when a rule
// reads more.
type Reads uint8

const (
	// ReadsFile is the text of one YAML file. Y1, Y2 and T10 run when the
	// file is parsed and are kept with the parse (by path and content).
	ReadsFile Reads = 1 << iota
	// ReadsEntry is one entry alone, a tool declaration or an agent: kept
	// by the entry's nodes between loads.
	ReadsEntry
	// ReadsFiles is the files around the manifests (modules, folders,
	// symbolic links): an outcome that read them is dropped after
	// Cache.FilesChanged.
	ReadsFiles
	// ReadsManifest is several entries, or several files, of the project
	// (the tool set, the imports): checked on every load, or kept keyed on
	// all it read (A1 and A2, by the tool set).
	ReadsManifest
)

// String names what r reads, as the docs and the errors say it.
func (r Reads) String() string {
	var parts []string
	for _, x := range []struct {
		bit  Reads
		name string
	}{{ReadsFile, "one file"}, {ReadsEntry, "one entry"}, {ReadsFiles, "the files around the manifests"}, {ReadsManifest, "the whole manifest"}} {
		if r&x.bit != 0 {
			parts = append(parts, x.name)
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, " + ")
}

// FixKind names a quick fix. A rule lists the kinds its findings offer;
// internal/analysis/edit makes the text edits of each kind (and checks them
// before offering them).
type FixKind string

const (
	FixSetBeeuniValue  FixKind = "set-beeuni-value"  // T3: `<key>: beeuni:<key>`
	FixAddBeeuniTools  FixKind = "add-beeuni-tools"  // T8: the Beeuni tools under tools:
	FixAddToTools      FixKind = "add-to-tools"      // A2: `<name>: beeuni:<name>` under the top-level tools:
	FixRemoveFromAgent FixKind = "remove-from-agent" // A2: the name out of the agent's list
	FixReplaceName     FixKind = "replace-name"      // A1: the name replaced by Data[suggest]
	FixRenameTool      FixKind = "rename-tool"       // T1: the tool renamed to Data[suggest], agent lists too
	FixCreateModule    FixKind = "create-module"     // T6: the module created from a template
	FixDeleteCopy      FixKind = "delete-copy"       // H1: the copy in the harness folder deleted
)

// Rule is one code of the engine.
type Rule struct {
	Code string
	// Severity is the default severity (ruledoc's level); a rule may report
	// some findings at another one (T2's possible clash is a warning).
	Severity diag.Severity
	Reads    Reads
	// Fixes are the quick fixes its findings offer, the preferred first.
	Fixes []FixKind
}

// Finding.Data keys (quick fixes read them).
const (
	DataName    = "name"    // the tool name the finding is about
	DataSuggest = "suggest" // A1: the closest real tool; T1: the snake_case name
	DataKey     = "key"     // T3: the Beeuni tool key
	DataPath    = "path"    // T5/T6, imports, H1/H2: the path as written (or the file's repo path)
)

// rules lists every rule of the engine in the order of docs/rules.md.
var rules = [...]*Rule{
	ruleSyntax, ruleShape,
	ruleImportShape, ruleImportPath, ruleImportExt, ruleImportMissing, ruleImportDup, ruleImportCycle,
	ruleName, ruleHarnessName, ruleBeeuniValue, ruleProjectBeeuni, rulePath, ruleMissing, ruleNotString,
	ruleNoBeeuni, ruleTwoFiles, ruleDuplicateKey, ruleModuleLoad,
	ruleUnknownTool, ruleNotLoaded, ruleAgentShape, ruleSecretNotGranted,
	ruleShadow, ruleHarnessOnly,
}

// Rules returns every rule of the engine in the order of docs/rules.md.
func Rules() []Rule {
	out := make([]Rule, len(rules))
	for i, r := range rules {
		out[i] = *r
		out[i].Fixes = append([]FixKind(nil), r.Fixes...)
	}
	return out
}

// RuleOf returns the rule of a code.
func RuleOf(code string) (Rule, bool) {
	for _, r := range rules {
		if r.Code == code {
			rule := *r
			rule.Fixes = append([]FixKind(nil), r.Fixes...)
			return rule, true
		}
	}
	return Rule{}, false
}

// finding is a finding of rule r at its default severity.
func (r *Rule) finding(file string, rng diag.Range, msg string, data map[string]string, related []diag.Related) diag.Finding {
	return diag.Finding{File: file, Range: rng, Severity: r.Severity, Code: r.Code, Message: msg, Data: data, Related: related}
}

// verdict is what a tool check decides about a declaration.
type verdict uint8

const (
	carryOn  verdict = iota // the next check runs
	drop                    // the session gets no tool from it; no further check runs
	complete                // the tool is complete; no further check runs
)

// toolEntry is one tool declaration as the tool checks see it: its name,
// the nodes of its key and value and where they are, and nothing of the
// other entries. The checks fill in the tool the session gets.
type toolEntry struct {
	name       string
	key, value *yaml.Node // as written: an alias is not followed
	file       string     // the declaring file's absolute path
	pos        *positions // the declaring file's positions, for ranges
	tool       Tool
	// badName is set by T1: the session gets no tool of a name that is
	// not valid, but its value is checked still.
	badName  bool
	findings []diag.Finding
}

func (e *toolEntry) rangeOf(n *yaml.Node) diag.Range { return e.pos.nodeRange(n) }

// report adds a finding of rule r on node n of the entry.
func (e *toolEntry) report(r *Rule, n *yaml.Node, msg string, data map[string]string) {
	e.findings = append(e.findings, r.finding(e.file, e.rangeOf(n), msg, data, nil))
}

// reportAs is report at another severity than r's default.
func (e *toolEntry) reportAs(r *Rule, sev diag.Severity, n *yaml.Node, msg string, data map[string]string) {
	f := r.finding(e.file, e.rangeOf(n), msg, data, nil)
	f.Severity = sev
	e.findings = append(e.findings, f)
}

// nameData is the Data of most tool findings.
func (e *toolEntry) nameData() map[string]string { return map[string]string{DataName: e.name} }

// entryFiles is what a check of an entry that reads the files around the
// manifests may look at: repository paths and the files they name (the
// loader's, behind functions, so that a check cannot reach the loader).
type entryFiles struct {
	repoPath  func(raw string) (abs string, problem pathProblem)
	fileState func(abs string) (exists, regular bool)
}

// toolCheck is one rule's check of a tool declaration; exactly one of its
// functions is set, and the one set says what the check reads (it must be
// what the rule declares). The memo keeps a declaration's outcome by its
// nodes, and drops it on Cache.FilesChanged when a files check ran on it.
type toolCheck struct {
	rule  *Rule
	entry func(e *toolEntry) verdict                // reads the entry alone
	files func(e *toolEntry, fs entryFiles) verdict // reads the entry and the files around it
}

// reads is what the check's function receives.
func (c toolCheck) reads() Reads {
	if c.files != nil {
		return ReadsEntry | ReadsFiles
	}
	return ReadsEntry
}

// agentEntry is one entry of agents: as the agent checks see it: the
// agent as its file's tree read it (AgentDecl: its nodes, aliases and
// merge keys resolved), where it is, and nothing of the other entries.
type agentEntry struct {
	file     string
	pos      *positions
	decl     *AgentDecl
	findings []diag.Finding
}

// report adds a finding of rule r on node n of the entry.
func (e *agentEntry) report(r *Rule, n *yaml.Node, msg string, data map[string]string) {
	e.findings = append(e.findings, r.finding(e.file, e.pos.nodeRange(n), msg, data, nil))
}

// agentCheck is one rule's check of an agent's entry: it gets the entry
// alone and fills in the Agent (its name, file and key are set). The memo
// keeps an agent's outcome by its nodes.
type agentCheck struct {
	rule  *Rule
	check func(e *agentEntry, a *Agent)
}

// setCheck is one rule's check of the whole tool set: it runs on every load.
type setCheck struct {
	rule  *Rule
	check func(s *toolSet)
}

// ruleSet is the checks a load runs.
type ruleSet struct {
	tools  []toolCheck  // on each name's first declaration, in this order
	set    []setCheck   // once per load, after the tool checks
	agents []agentCheck // on each agent (its first entry of that name), in this order
}

// newRuleSet checks that every check reads what its rule declares: a
// tool check gets the entry (and the files, for a rule that reads them),
// an agent check the entry, a set check the whole tool set, which only a
// rule declaring ReadsManifest may read.
func newRuleSet(tools []toolCheck, set []setCheck, agents []agentCheck) (*ruleSet, error) {
	for _, c := range tools {
		if (c.entry == nil) == (c.files == nil) {
			return nil, fmt.Errorf("rule %s: a tool check has exactly one function", c.rule.Code)
		}
		if c.rule.Reads != c.reads() {
			return nil, fmt.Errorf("rule %s declares it reads %s, but its check reads %s", c.rule.Code, c.rule.Reads, c.reads())
		}
	}
	for _, c := range set {
		if c.check == nil {
			return nil, fmt.Errorf("rule %s: a set check without a function", c.rule.Code)
		}
		if c.rule.Reads&ReadsManifest == 0 {
			return nil, fmt.Errorf("rule %s declares it reads %s, but its check reads the whole manifest", c.rule.Code, c.rule.Reads)
		}
	}
	for _, c := range agents {
		if c.check == nil {
			return nil, fmt.Errorf("rule %s: an agent check without a function", c.rule.Code)
		}
		if c.rule.Reads != ReadsEntry {
			return nil, fmt.Errorf("rule %s declares it reads %s, but its check reads one entry", c.rule.Code, c.rule.Reads)
		}
	}
	return &ruleSet{tools: tools, set: set, agents: agents}, nil
}

// defaultToolChecks are the checks of a tool declaration, in the order
// they run: a check that drops the declaration or completes the tool ends
// the sequence.
func defaultToolChecks() []toolCheck {
	return []toolCheck{
		{rule: ruleName, entry: checkToolName},
		{rule: ruleHarnessName, entry: checkHarnessName},
		{rule: ruleNotString, entry: checkToolValue},
		{rule: ruleBeeuniValue, entry: checkBeeuniValue},
		{rule: rulePath, files: checkModulePath},
		{rule: ruleMissing, files: checkModuleFile},
	}
}

// defaultSetChecks are the checks of the whole tool set.
func defaultSetChecks() []setCheck {
	return []setCheck{
		{rule: ruleTwoFiles, check: checkTwoFiles},
		{rule: ruleNoBeeuni, check: checkNoBeeuni},
	}
}

// defaultAgentChecks are the checks of an agent's entry, in order.
func defaultAgentChecks() []agentCheck {
	return []agentCheck{
		{rule: ruleAgentShape, check: checkAgentTools},
	}
}

// defaultRules is the engine's rule set (read only).
var defaultRules = func() *ruleSet {
	rs, err := newRuleSet(defaultToolChecks(), defaultSetChecks(), defaultAgentChecks())
	if err != nil {
		panic(err)
	}
	return rs
}()
