package features

import (
	"fmt"
	"path/filepath"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

// Completion proposes what may be typed at offset in path.
//
// text is the file's content as the user has it now; nil means the
// project's copy (p.File(path).Content). The cursor's context is read from
// text line by line, so a half-written line works; what exists (the tools
// the session gets, other files' declarations) comes from p, which may be
// the last project that parsed. repo gives the files to offer, asked only
// when the cursor's place offers files (may be nil: then no file is
// offered).
//
// Items come in the order to show them (SortText ascending), and each Edit
// replaces exactly the word being typed.
func Completion(p *analysis.Project, repo RepoSource, path string, text []byte, offset int) []CompletionItem {
	path = filepath.Clean(path)
	if text == nil && p != nil {
		if f := p.File(path); f != nil {
			text = f.Content()
		}
	}
	if text == nil || offset < 0 || offset > len(text) {
		return nil
	}
	ctx := contextAt(text, offset)
	if ctx.slot == slotNone {
		return nil
	}
	c := &completer{p: p, src: repo, path: path, ctx: ctx}
	c.run()
	return c.items
}

// CompletionMatching is Completion reduced to the items an editor can show
// for the word typed so far: those whose filter text (the label when it has
// none) holds that word, from the start of the item's edit to the cursor, as
// a case-insensitive subsequence (a superset of what editors' fuzzy matchers
// show), at most limit of them (limit < 1: no cap). The others are never
// built, which matters in an agent's list of a 10,000-tool project.
// incomplete is true when an item was left out, so that the editor asks
// again as the word changes instead of filtering a shorter list.
//
// With a limit and a word typed, the items whose filter text starts with the
// word come first (in Completion's order), then the other matches: a cut
// list keeps the likeliest items, not the first declared.
func CompletionMatching(p *analysis.Project, repo RepoSource, path string, text []byte, offset, limit int) (items []CompletionItem, incomplete bool) {
	path = filepath.Clean(path)
	if text == nil && p != nil {
		if f := p.File(path); f != nil {
			text = f.Content()
		}
	}
	if text == nil || offset < 0 || offset > len(text) {
		return nil, false
	}
	ctx := contextAt(text, offset)
	if ctx.slot == slotNone {
		return nil, false
	}
	c := &completer{p: p, src: repo, path: path, ctx: ctx, limit: limit}
	if ctx.wordStart >= 0 && ctx.wordStart < offset {
		c.typed = text[ctx.wordStart:offset]
	}
	if limit < 1 || len(c.typed) == 0 {
		c.run()
		return c.items, c.incomplete
	}
	c.pass = passPrefix
	c.run()
	if len(c.items) >= limit {
		return c.items, true // the other matches, if any, are left out
	}
	c.pass = passRest
	c.run()
	return c.items, c.incomplete
}

// matchPass says which matches a run of the completer makes.
type matchPass int

const (
	passAll    matchPass = iota // every match, in Completion's order
	passPrefix                  // those whose filter text starts with the word
	passRest                    // the others
)

type completer struct {
	p *analysis.Project
	// src gives the repository's files; repo is its answer, asked once, by
	// files(), where the cursor's place offers files.
	src   RepoSource
	repo  *RepoFiles
	asked bool
	path  string
	ctx   cursorCtx
	items []CompletionItem

	// typed is the word typed so far (nil: keep every item) and limit the
	// most items to make (< 1: no cap); incomplete says one was left out.
	typed      []byte
	limit      int
	incomplete bool
	pass       matchPass
}

// wants reports whether an item with this filter text is to be made: it
// holds the typed word and the list is not full. Callers ask before
// building an item's details and documentation.
func (c *completer) wants(filter string) bool {
	if c.limit > 0 && len(c.items) >= c.limit {
		c.incomplete = true
		return false
	}
	if !holdsSubsequence(filter, c.typed) {
		c.incomplete = true
		return false
	}
	switch c.pass {
	case passPrefix:
		return hasPrefixFold(filter, c.typed) // the others come in passRest
	case passRest:
		return !hasPrefixFold(filter, c.typed) // made in passPrefix
	}
	return true
}

// hasPrefixFold reports whether s starts with prefix, ignoring ASCII case.
func hasPrefixFold(s string, prefix []byte) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := range prefix {
		if lowerASCII(s[i]) != lowerASCII(prefix[i]) {
			return false
		}
	}
	return true
}

// holdsSubsequence reports whether sub's bytes appear in s in order,
// ignoring ASCII case.
func holdsSubsequence(s string, sub []byte) bool {
	j := 0
	for i := 0; i < len(s) && j < len(sub); i++ {
		if lowerASCII(s[i]) == lowerASCII(sub[j]) {
			j++
		}
	}
	return j == len(sub)
}

func lowerASCII(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

func (c *completer) model() *analysis.Model {
	if c.p == nil || c.p.Model == nil {
		return &analysis.Model{}
	}
	return c.p.Model
}

// add appends an item whose edit replaces the word being typed, unless
// the typed word or the cap leaves it out.
func (c *completer) add(label string, kind ItemKind, insert, detail, doc string) {
	c.addFiltered(label, "", kind, insert, detail, doc)
}

// addFiltered is add for an item whose filter text is not its label.
func (c *completer) addFiltered(label, filter string, kind ItemKind, insert, detail, doc string) {
	match := filter
	if match == "" {
		match = label
	}
	if !c.wants(match) {
		return
	}
	newText := insert
	if c.ctx.colonBefore {
		newText = " " + insert
	}
	c.items = append(c.items, CompletionItem{
		Label:         label,
		Kind:          kind,
		InsertText:    newText,
		Detail:        detail,
		Documentation: doc,
		Edit:          TextEdit{File: c.path, Start: c.ctx.wordStart, End: c.ctx.wordEnd, NewText: newText},
		FilterText:    filter,
		SortText:      sortText(len(c.items)),
	})
}

func (c *completer) run() {
	path := c.ctx.path
	switch {
	case len(path) == 0 && c.ctx.slot == slotKey:
		c.topLevelKeys()
	case len(path) == 1 && path[0] == "tools" && c.ctx.slot == slotKey:
		c.toolKeys()
	case len(path) == 1 && path[0] == "tools" && c.ctx.slot == slotValue:
		c.toolValues(c.ctx.key)
	case len(path) == 1 && path[0] == "imports" && c.ctx.slot == slotItem:
		c.imports()
	case len(path) == 2 && path[0] == "agents" && c.ctx.slot == slotKey:
		if !contains(c.ctx.siblings, "tools") {
			c.add("tools", ItemKey, "tools:", "the tools this agent's model sees", agentToolsKeyDoc)
		}
	case len(path) == 2 && path[0] == "agents" && c.ctx.slot == slotValue && c.ctx.key == "tools":
		c.agentScalar()
	case len(path) == 3 && path[0] == "agents" && path[2] == "tools":
		switch c.ctx.slot {
		case slotItem:
			c.agentTools(true)
		case slotKey:
			c.agentMapKeys()
		case slotValue:
			if c.ctx.key == "exclude" {
				c.eachAgentCandidate(func(a agentCandidate) {
					c.add(a.name, a.kind, "["+a.name+"]", a.detail+": hide only this tool", a.doc())
				})
				return
			}
			c.add("false", ItemKeyword, "false", "hide the tool from this agent", "")
			c.add("true", ItemKeyword, "true", "keep the tool", "")
		}
	case len(path) == 4 && path[0] == "agents" && path[2] == "tools" && path[3] == "exclude" && c.ctx.slot == slotItem:
		c.agentTools(false)
	}
}

// topLevelKeys offers the manifest keys this spec describes.
func (c *completer) topLevelKeys() {
	for _, k := range []struct{ key, detail, doc string }{
		{"tools", "the tools a session gets", topToolsDoc},
		{"agents", "the agents and the tools each one's model sees", topAgentsDoc},
		{"imports", "more YAML files of this shape, from the repository root", topImportsDoc},
	} {
		if !contains(c.ctx.siblings, k.key) {
			c.add(k.key, ItemKey, k.key+":", k.detail, k.doc)
		}
	}
}

// eachDeclared calls fn with each tool name and value declared under
// tools: in other files (from the project) and in this file (from its text
// now).
func (c *completer) eachDeclared(fn func(name, value string)) {
	for _, t := range c.model().Tools {
		if !t.Implicit() && !samePath(t.File, c.path) {
			fn(t.Name, t.Source)
		}
	}
	if c.p != nil {
		for _, f := range c.p.Files {
			if samePath(f.Path, c.path) || len(c.p.Files) == 1 {
				continue
			}
			ix := indexFile(c.p, f)
			for i := range ix.tools {
				fn(ix.tools[i].Name, ix.tools[i].Text())
			}
		}
	}
	for i, s := range c.ctx.siblings {
		v := ""
		if i < len(c.ctx.siblingValues) {
			v = c.ctx.siblingValues[i]
		}
		fn(s, v)
	}
}

// taken marks, for each module of the repository, whether a tool already
// declares it (module) and whether its proposed name is declared (name);
// beeuni holds the declared Beeuni tools.
type taken struct {
	module, name []bool
	beeuni       map[string]bool
	names        []string // the proposed tool name of each module
}

func (c *completer) taken() taken {
	t := taken{beeuni: map[string]bool{}}
	var lk repoLookups
	repo := c.files()
	if repo != nil {
		lk = repo.lookups()
		t.names = lk.names
		t.module = make([]bool, len(repo.Modules))
		t.name = make([]bool, len(repo.Modules))
	}
	c.eachDeclared(func(name, value string) {
		if analysis.IsBeeuniTool(name) {
			t.beeuni[name] = true
		}
		if repo == nil {
			return
		}
		for _, i := range lk.byName[name] {
			t.name[i] = true
		}
		if i, ok := lk.byPath[value]; ok {
			t.module[i] = true
		}
	})
	return t
}

// toolKeys offers, under tools:, the Beeuni tools not declared yet and the
// module files no tool declares yet.
func (c *completer) toolKeys() {
	tk := c.taken()
	for _, b := range analysis.BeeuniTools() {
		if tk.beeuni[b] {
			continue
		}
		c.add(b, ItemBeeuniTool, b+": "+analysis.BeeuniPrefix+b, "Beeuni tool", beeuniToolDoc(b))
	}
	if c.files() == nil {
		return
	}
	offered := map[string]bool{}
	for i, m := range c.repo.Modules {
		name := tk.names[i]
		if tk.module[i] || tk.name[i] || name == "" || offered[name] || isHarnessName(name) || tk.beeuni[name] {
			continue
		}
		offered[name] = true // two files with one stem: offer the first
		filter := name + " " + m
		if !c.wants(filter) {
			continue
		}
		detail := "project tool: " + m
		if analysis.IsBeeuniTool(name) {
			detail = "overrides the Beeuni tool: " + m
		}
		c.addFiltered(name, filter, ItemModule, name+": "+m, detail, fmt.Sprintf("Declares the module `%s` as the tool `%s`.", m, name))
	}
}

// toolValues offers the value of a tools: entry: beeuni:<key> for a Beeuni
// key, then module files (the one named after the key first).
func (c *completer) toolValues(key string) {
	if analysis.IsBeeuniTool(key) {
		c.add(analysis.BeeuniPrefix+key, ItemBeeuniTool, analysis.BeeuniPrefix+key, "the tool Beeuni maintains", beeuniToolDoc(key))
	}
	if c.files() == nil {
		return
	}
	tk := c.taken()
	var first, rest []string
	for i, m := range c.repo.Modules {
		if tk.module[i] {
			continue
		}
		if tk.names[i] == key {
			first = append(first, m)
		} else {
			rest = append(rest, m)
		}
	}
	for _, m := range append(first, rest...) {
		detail := "module"
		if analysis.IsBeeuniTool(key) {
			detail = "module that replaces the Beeuni tool"
		}
		c.add(m, ItemModule, m, detail, "")
	}
}

// imports offers the YAML files of the repository not imported yet.
func (c *completer) imports() {
	if c.files() == nil {
		return
	}
	self := ""
	root := c.repo.Root
	if rel, err := filepath.Rel(root, c.path); err == nil {
		self = filepath.ToSlash(rel)
	}
	for _, y := range c.repo.YAML {
		if y == analysis.ManifestName || y == self || contains(c.ctx.siblings, y) {
			continue
		}
		c.add(y, ItemYAMLFile, y, "YAML file", "")
	}
}

// agentCandidate is a tool an agent may name.
type agentCandidate struct {
	name   string
	kind   ItemKind
	detail string
	source string // for the tools the session gets
}

// doc is the candidate's documentation, built only for the items shown.
func (a agentCandidate) doc() string {
	switch a.kind {
	case ItemHarnessTool:
		return harnessDoc(a.name)
	case ItemBeeuniTool:
		return beeuniToolDoc(a.name) + "\n\nSource: `" + a.source + "`"
	}
	return "Source: `" + a.source + "`"
}

// eachAgentCandidate calls fn with the harness tools, then the tools the
// session gets (Beeuni and project tools, in declaration order).
func (c *completer) eachAgentCandidate(fn func(agentCandidate)) {
	for _, h := range analysis.HarnessTools() {
		_, certain := analysis.HarnessTool(h)
		detail := "harness tool"
		if !certain {
			detail = "harness tool (standard harness)"
		}
		fn(agentCandidate{name: h, kind: ItemHarnessTool, detail: detail})
	}
	for _, t := range c.model().Tools {
		if !c.wants(t.Name) {
			// Not building the candidate (its kind's text, then its
			// documentation) is what keeps a 10,000-tool list cheap.
			if c.limit > 0 && len(c.items) >= c.limit {
				return
			}
			continue
		}
		kind := ItemProjectTool
		if analysis.IsBeeuniTool(t.Name) {
			kind = ItemBeeuniTool
		}
		fn(agentCandidate{name: t.Name, kind: kind, detail: t.Kind.String(), source: t.Source})
	}
}

// agentTools offers tool names for an agent's list (star: the `*` item too).
func (c *completer) agentTools(star bool) {
	seen := make(map[string]bool, len(c.ctx.siblings))
	for _, s := range c.ctx.siblings {
		seen[s] = true
	}
	c.eachAgentCandidate(func(a agentCandidate) {
		if seen[a.name] {
			return
		}
		seen[a.name] = true
		c.add(a.name, a.kind, a.name, a.detail, a.doc())
	})
	if star && !seen["*"] {
		c.add("*", ItemKeyword, "*", "every tool (the same as all)", "")
	}
}

// agentScalar offers the value of agents.X.tools written on its line.
func (c *completer) agentScalar() {
	c.add("all", ItemKeyword, "all", "every tool (the default)", "")
	c.add("none", ItemKeyword, "none", "no tool", "")
	c.add("exclude", ItemKeyword, "{ exclude: [] }", "every tool but those listed", "")
	c.eachAgentCandidate(func(a agentCandidate) {
		c.add(a.name, a.kind, "["+a.name+"]", a.detail+": only this tool", a.doc())
	})
}

// agentMapKeys offers the keys of agents.X.tools written as a map: exclude,
// or the legacy form's tool names (inserted as `name: false`).
func (c *completer) agentMapKeys() {
	sib := c.ctx.siblings
	if len(sib) == 0 {
		c.add("exclude", ItemKeyword, "exclude: []", "every tool but those listed", "")
	}
	if contains(sib, "exclude") {
		return
	}
	seen := make(map[string]bool, len(sib))
	for _, s := range sib {
		seen[s] = true
	}
	c.eachAgentCandidate(func(a agentCandidate) {
		if seen[a.name] {
			return
		}
		seen[a.name] = true
		c.add(a.name, a.kind, a.name+": false", a.detail+" (legacy map: false hides it)", a.doc())
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// samePath compares two clean absolute paths (the project's are clean; each
// entry point cleans the path it is given).
func samePath(a, b string) bool { return a == b }

// sortText returns n as a fixed-width decimal, so that text order is item
// order.
func sortText(n int) string {
	var b [6]byte
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[:])
}

// files returns the repository's files, asking the source once.
func (c *completer) files() *RepoFiles {
	if !c.asked {
		c.asked = true
		if c.src != nil {
			c.repo = c.src.Files()
		}
	}
	return c.repo
}
