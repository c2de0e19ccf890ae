package analysis

import (
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// Memoized resolution: a language server reloads the project on every
// keystroke, and a keystroke changes a few entries of a manifest that may
// hold ten thousand. The chunked parse (chunkparse.go) shares the nodes of
// every chunk whose bytes did not change between versions, so the checks
// whose rules read one entry (rule.go: the tool checks, T1-T7, which get a
// declaration and nothing else; the agent checks, A3, which get an agent's
// entry) give the same outcome for the same nodes, as long as the files
// around them did not change for the checks that also read those (T5's
// links, T6's module files). A resolveMemo keeps those outcomes by node
// between loads of one project through one Cache; a load reuses them for
// the nodes it finds again and computes the others. What reads across
// entries is not kept by entry: the set checks (T8, T9) run on every load,
// and an agent's A1 and A2 are kept only against the same tool set.
//
// A node is only ever at one line and column (a chunk that moves is copied
// with new nodes), and its chunk's lines are byte for byte the same, so an
// outcome's ranges keep their lines and columns: only their byte offsets
// move when text before them changes, and rebase recomputes those from the
// new file's line index. After Cache.FilesChanged (the caller says when the
// files around the manifests may have changed) the next load drops the
// outcomes a files check ran on and the folder listings (filesChanged).
type resolveMemo struct {
	filesGen uint64                       // the Cache's files generation the outcomes hold for
	rules    *ruleSet                     // the checks the outcomes were made by
	load     uint64                       // the number of the load using the memo
	used     int                          // outcomes the current load used or added
	hits     int                          // outcomes the current load reused (tests check it)
	tools    map[*yaml.Node]*toolOutcome  // by the declaration's key node
	agents   map[*yaml.Node]*agentOutcome // by the agent's key node
	// dirs and realDirs are the loader's folder listings and resolved
	// folders, kept too: an entry typed anew looks its module up in a
	// listing read once, not in a new read of a folder of 10,000 modules.
	dirs     map[string]*dirInfo
	realDirs map[string]realDir
	// toolSet is what the last load's agents were checked against;
	// setEpochs numbers the tool sets met.
	toolSet   *agentToolSet
	setEpochs uint64
	// declared is the names that tool set declares (first declarations) in
	// order; universeBuf and declaredBuf are the storage the next load
	// lists its universe and names in, to compare them with the last.
	declared                 []string
	universeBuf, declaredBuf []string
	// suggest is the index of the names A1 suggests from, of the last tool
	// set that needed one, and suggestNames the storage the next lists
	// its names in (suggestIndex).
	suggest      *nameIndex
	suggestNames []string
	// modelTools is the last load's Model.Tools, shared with its Project
	// (read-only), for the next load to share what did not change
	// (sharedSlice).
	modelTools []*Tool
	// modelAgents is the last load's Model.Agents, shared the same way.
	modelAgents []*Agent
	// kept is the last load's tool set, for the next load to take whole
	// when its declarations are the same nodes (keptToolSet), else to
	// build its own in its storage (takeToolSetBuffers).
	kept *keptToolSet
}

// agentDeps is what an agent gave against one tool set.
type agentDeps struct {
	setEpoch uint64
	findings []diag.Finding // A1, A2: owned by the memo
	sees     View           // shared, never written
	unknown  bool           // an A1 among findings: its suggestion read every name
	// agent is the model's agent last made with these findings and view:
	// shared with the models it went into, never written.
	agent *Agent
}

// model returns the model's agent a, with d's view: the one made last,
// when made, or a copy of a.
func (d *agentDeps) model(a *Agent) *Agent {
	if d.agent == nil {
		c := *a
		d.agent = &c
	}
	return d.agent
}

func newResolveMemo(filesGen uint64, rules *ruleSet) *resolveMemo {
	return &resolveMemo{
		filesGen: filesGen, rules: rules, tools: map[*yaml.Node]*toolOutcome{}, agents: map[*yaml.Node]*agentOutcome{},
		dirs: map[string]*dirInfo{}, realDirs: map[string]realDir{},
	}
}

// filesChanged drops what read the files around the manifests, now at the
// Cache's files generation gen: the outcomes of the declarations a files
// check ran on, and the folder listings. Every other outcome read its
// entry alone (rule.go) and stays; A1 and A2 stay keyed on the tool set,
// which the next load compares with theirs.
func (m *resolveMemo) filesChanged(gen uint64) {
	m.filesGen = gen
	m.kept = nil // its T5 and T6 read the files
	for k, o := range m.tools {
		if o.readFiles {
			delete(m.tools, k)
		}
	}
	m.dirs, m.realDirs = map[string]*dirInfo{}, map[string]realDir{}
}

// outcome is what a tool's and an agent's kept outcome share: the entry
// it was made for, where it is, its findings.
type outcome struct {
	value    *yaml.Node
	file     string
	parse    uint64         // the parse (parsed.id) the findings' offsets are in
	findings []diag.Finding // owned by the memo: callers get copies
	load     uint64         // the last load that used it
}

func newOutcome(value *yaml.Node, u *unit, found []diag.Finding, load uint64) outcome {
	return outcome{value: value, file: u.file.Path, parse: u.parsed.id, findings: slices.Clone(found), load: load}
}

// made reports whether o was made for the entry whose value is value in u
// (its key node is the memo's key).
func (o *outcome) made(value *yaml.Node, u *unit) bool {
	return o.value == value && o.file == u.file.Path
}

// reuse marks o used by the memo's current load, in u's parse, and moves its
// findings to that parse's offsets. rebased is true when the parse is not
// the one they were in: the caller moves its own findings then. The Tool
// or Agent kept holds Spans, which hold in any parse that found its nodes
// again, so only findings (a few entries' of 10,000) are recomputed.
func (o *outcome) reuse(m *resolveMemo, u *unit) (rebased bool) {
	if o.parse != u.parsed.id {
		o.parse = u.parsed.id
		rebaseFindings(o.findings, u.parsed.lines)
		rebased = true
	}
	o.load = m.load
	m.used++
	m.hits++
	return rebased
}

// toolOutcome is what checkTool gave for one declaration.
type toolOutcome struct {
	outcome
	tool Tool // empty when !ok; the models' Tools point at it, never written
	ok   bool
	// readFiles is set when a check that reads the files around the
	// manifests ran (T5, T6): Cache.FilesChanged drops the outcome.
	readFiles bool
}

// agentOutcome is one agent as the agent checks read it, before its names are
// checked against the tool set (A1, A2) and what it sees is computed.
type agentOutcome struct {
	outcome
	agent Agent      // Sees unset; Refs shared with the models it went into, never written
	dep   *agentDeps // nil until checked against a tool set
}

// startLoad numbers a new load.
func (m *resolveMemo) startLoad() {
	m.load++
	m.used, m.hits = 0, 0
}

// prune drops the outcomes neither this load nor the one before used
// (nodes of chunks that were parsed again), once they outnumber the live
// ones, so that a long session keeps about as many outcomes as the manifest
// has entries. The previous load's are kept: one version with `tools:`
// mistyped or a syntax error (a full parse, every node new) does not lose
// what the next version, fixed, finds again.
func (m *resolveMemo) prune() {
	if len(m.tools)+len(m.agents) <= 2*m.used+64 {
		return
	}
	for k, o := range m.tools {
		if o.load+1 < m.load {
			delete(m.tools, k)
		}
	}
	for k, o := range m.agents {
		if o.load+1 < m.load {
			delete(m.agents, k)
		}
	}
}

// keepable reports whether an outcome can be kept: every range in its
// findings is in the entry's own file (related information may point into
// other files, whose offsets rebase cannot follow). The checks spend no
// merge budget: the tree did, and an agent whose reading spent it is not
// kept (AgentDecl.spent).
func keepable(fs []diag.Finding) bool {
	for _, f := range fs {
		if len(f.Related) > 0 {
			return false
		}
	}
	return true
}

// rebase recomputes a range's offsets from its lines and columns in lines.
func rebase(r diag.Range, lines *diag.Lines) diag.Range {
	r.Start.Offset = lines.LineStart(r.Start.Line) + r.Start.Col
	r.End.Offset = lines.LineStart(r.End.Line) + r.End.Col
	return r
}

// rebaseFindings recomputes the offsets of fs's ranges in lines, related
// ones included (their slices are copied: the old ones may be shared).
func rebaseFindings(fs []diag.Finding, lines *diag.Lines) {
	for i := range fs {
		fs[i].Range = rebase(fs[i].Range, lines)
		if len(fs[i].Related) > 0 {
			related := slices.Clone(fs[i].Related)
			for j := range related {
				related[j].Range = rebase(related[j].Range, lines)
			}
			fs[i].Related = related
		}
	}
}

// checkToolMemo is checkTool through the memo: the tool the session gets
// (nil: none) and the declaration's outcome in the memo (nil when not
// kept).
func (l *loader) checkToolMemo(d *declaration) (t *Tool, o *toolOutcome) {
	m := l.memo
	if m == nil {
		tool, ok, found, _ := l.checkTool(d)
		l.findings = append(l.findings, found...)
		return fresh(tool, ok), nil
	}
	u := d.unit
	if o := m.tools[d.key]; o != nil && o.made(d.value, u) {
		o.reuse(m, u)
		l.findings = append(l.findings, o.findings...)
		return o.result(), o
	}
	tool, ok, found, readFiles := l.checkTool(d)
	l.findings = append(l.findings, found...)
	if !keepable(found) {
		return fresh(tool, ok), nil
	}
	o = &toolOutcome{outcome: newOutcome(d.value, u, found, m.load), tool: tool, ok: ok, readFiles: readFiles}
	m.tools[d.key] = o
	m.used++
	return o.result(), o
}

// result is the tool the outcome gives, nil when the session gets none:
// the outcome's own, which every model built from it shares.
func (o *toolOutcome) result() *Tool {
	if !o.ok {
		return nil
	}
	return &o.tool
}

// fresh is a tool checkTool gave that no outcome keeps, nil when !ok.
func fresh(t Tool, ok bool) *Tool {
	if !ok {
		return nil
	}
	return &t
}

// readAgentMemo is readAgent through the memo; o is the agent's outcome
// in the memo (nil when not kept), for the caller to keep what it checks
// against the tool set.
func (l *loader) readAgentMemo(u *unit, d *AgentDecl) (a Agent, o *agentOutcome) {
	m := l.memo
	if m == nil {
		a, found := l.readAgent(u, d)
		l.findings = append(l.findings, found...)
		return a, nil
	}
	if o := m.agents[d.Key]; o != nil && o.made(d.Value, u) {
		if o.reuse(m, u) && o.dep != nil {
			rebaseFindings(o.dep.findings, u.parsed.lines)
		}
		l.findings = append(l.findings, o.findings...)
		return o.agent, o
	}
	a, found := l.readAgent(u, d)
	l.findings = append(l.findings, found...)
	if !d.spent && keepable(found) {
		o = &agentOutcome{outcome: newOutcome(d.Value, u, found, m.load), agent: a}
		m.agents[d.Key] = o
		m.used++
	}
	return a, o
}
