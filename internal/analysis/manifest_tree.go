package analysis

import (
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// ManifestTree is the typed view of one parsed YAML file: its top-level
// `tools:`, `agents:` and `imports:` sections, with aliases followed and
// `<<` merge keys expanded (mapPairs, resolveAlias: one resolution, with a
// budget per file). The parse builds it (buildTree) and keeps it: the rules
// read it (toolset.go, agents.go, rule_agent_shape.go, rule_imports.go,
// rule_syntax.go), and so do the editor features and the edit planner,
// through File.Tree, instead of walking the yaml.Node tree. Read-only once
// built; a tree shares the agents of the file's previous parse that did not
// change.
type ManifestTree struct {
	// Root is the top-level mapping, nil when the file is empty, does not
	// parse, or its document is not a mapping.
	Root    *yaml.Node
	Tools   ToolsSection
	Agents  AgentsSection
	Imports ImportsSection
	pos     *positions
	// top is the document's top node, of any kind (nil without one): Y2
	// reads it.
	top *yaml.Node
	// toolPairs are the entries of the tools mapping, flat (key, value, …),
	// in the order the rules read them: the mapping's own Content when no
	// merge key is involved (mapPairs), so reading them allocates nothing.
	toolPairs []*yaml.Node
	// agents are the agents, each name once (the first counts); those the
	// previous parse's tree read from the same nodes are its own, shared.
	agents []*AgentDecl
	// entries makes Tools.Entries and Agents.Entries from toolPairs and
	// agents on the first File.Tree: the load reads the former.
	entries sync.Once
}

// ToolsSection is the top-level `tools:` of one file.
type ToolsSection struct {
	// Key and Value are the `tools` key and its value as written (Value
	// may be an alias); both nil without a `tools:` key.
	Key, Value *yaml.Node
	// Merged is set when the `tools` key itself is brought by a `<<`
	// merge key of the top-level mapping; every entry is then Merged.
	Merged bool
	// Mapping is the mapping Value resolves to, nil when it resolves to
	// something else (null, a list, a scalar, a dangling alias).
	Mapping *yaml.Node
	// Entries are the entries of Mapping in the order the rules read them
	// (written ones, merged ones in place of their `<<` key); a key
	// written twice appears twice (T10), the first one counts. Made on the
	// first File.Tree of the parse.
	Entries []ToolDecl
}

// ValueKind says what a tool entry's value is.
type ValueKind int

const (
	ValueOther  ValueKind = iota // not a string: null, a number, a list, …
	ValueBeeuni                  // a string `beeuni:NAME`
	ValuePath                    // any other string: a module path
)

// ToolDecl is one entry of a `tools:` mapping.
type ToolDecl struct {
	Name       string     // the key's value; "" when the key is not a scalar
	Key, Value *yaml.Node // Value as written (may be an alias: see Resolved)
	// Merged is set when the entry is not written in the section's own
	// mapping: a `<<` merge key brings it, or `tools:` is an alias. Its
	// nodes are then in the mapping it comes from, which other mappings
	// may share.
	Merged bool
	t      *ManifestTree
}

// Resolved is the entry's value with aliases followed, as the rules read
// it; nil for an alias that resolves to nothing.
func (d *ToolDecl) Resolved() *yaml.Node { return resolveAlias(d.Value) }

// Kind classifies the entry's value, aliases followed.
func (d *ToolDecl) Kind() ValueKind {
	v := d.Resolved()
	switch {
	case !isString(v):
		return ValueOther
	case strings.HasPrefix(v.Value, BeeuniPrefix):
		return ValueBeeuni
	}
	return ValuePath
}

// AgentsSection is the top-level `agents:` of one file.
type AgentsSection struct {
	Key, Value *yaml.Node // as written; nil without an `agents:` key
	// Entries are the agents of the mapping Value resolves to, each name
	// once (the first one counts, as for the rules); nil when Value is not
	// a mapping. Made on the first File.Tree of the parse.
	Entries []AgentDecl
}

// RefWhere says where an agent names a tool.
type RefWhere int

const (
	RefItem    RefWhere = iota // an item of agents.X.tools: [..]
	RefExclude                 // an item of agents.X.tools.exclude
	RefLegacy                  // a key of the legacy map agents.X.tools: {bash: false}
)

// AgentDecl is one agent under `agents:`.
type AgentDecl struct {
	Name       string
	Key, Value *yaml.Node // Value as written
	Merged     bool       // brought by a `<<` merge key (see ToolDecl.Merged)
	// ToolsKey and Tools are the agent's `tools` key and value as written,
	// nil without one; ExcludeKey is `exclude` in `tools: {exclude: [..]}`.
	ToolsKey, Tools, ExcludeKey *yaml.Node
	// Refs are the tool names the agent's tools value writes (string items
	// of a list or of exclude, aliases followed; keys of the legacy map).
	Refs []AgentRef
	// SecretsKey and Secrets are the agent's `secrets` key and value as
	// written, nil without one.
	SecretsKey, Secrets *yaml.Node
	// toolsPairs are the entries of the mapping Tools resolves to (flat,
	// as mapPairs gives them), nil when it is not a mapping; exclude is
	// the value of ExcludeKey. A3 reads the shape from them.
	toolsPairs []*yaml.Node
	exclude    *yaml.Node
	// spent is set when reading the agent spent or met a spent merge
	// budget: what it holds then depends on the entries before it, so
	// neither the next parse's tree nor the memo keeps it.
	spent bool
}

// AgentRef is one tool name written in an agent's tools value.
type AgentRef struct {
	Name    string
	Node    *yaml.Node
	Where   RefWhere
	Enabled bool // the legacy map's boolean; true otherwise
}

// ImportsSection is the top-level `imports:` of one file.
type ImportsSection struct {
	Key, Value *yaml.Node // as written; nil without an `imports:` key
	// Items are the scalar items of the list Value resolves to, aliases
	// followed; nil when it is not a list.
	Items []*yaml.Node
	// list is every item of that list, aliases followed (nil for one that
	// resolves to nothing): I1 reads the ones that are not strings.
	list []*yaml.Node
}

// Tree returns the typed tree of f's parse (a File that shares a parse
// shares its tree). The first call for a parse makes the Entries of its
// sections (the rules read what they are made from, see buildTree).
func (f *File) Tree() *ManifestTree {
	if f.tree == nil {
		return &ManifestTree{}
	}
	f.tree.entries.Do(f.tree.makeEntries)
	return f.tree
}

// buildTree reads the sections of a parse whose document's top node is
// top; the parse builds it, once, and the rules read it (parse.go). Merges
// have a budget of their own, one per file. prev, if not nil, is the tree
// of the file's previous parse: an agent whose key and value are the same
// nodes (a chunk whose bytes did not change, chunkparse.go) and whose
// reading spent no budget is the same agent, shared instead of read again.
// An agent read is a unit of work of stop (stop.go): once it stops, the tree
// is incomplete.
func buildTree(stop *stopper, top *yaml.Node, pos *positions, prev *ManifestTree) *ManifestTree {
	t := &ManifestTree{pos: pos, top: top}
	if top == nil || top.Kind != yaml.MappingNode {
		return t
	}
	t.Root = top
	b := newExpandBudget()
	ps := mapPairs(top, b)
	w := writtenPairs{m: top}
	for i := 0; i+1 < len(ps); i += 2 {
		k, v := ps[i], ps[i+1]
		written := w.next(k)
		if k.Kind != yaml.ScalarNode {
			continue
		}
		switch k.Value {
		case "tools":
			if t.Tools.Key == nil {
				t.readTools(k, v, !written, b)
			}
		case "agents":
			if t.Agents.Key == nil {
				var before []*AgentDecl
				if prev != nil {
					before = prev.agents
				}
				t.readAgents(stop, k, v, b, before)
			}
		case "imports":
			if t.Imports.Key == nil {
				t.readImports(k, v)
			}
		}
	}
	return t
}

func (t *ManifestTree) readTools(k, raw *yaml.Node, merged bool, b *expandBudget) {
	s := &t.Tools
	s.Key, s.Value, s.Merged = k, raw, merged
	m := resolveAlias(raw)
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	s.Mapping = m
	t.toolPairs = mapPairs(raw, b)
}

// readAgents reads the agents of the mapping raw resolves to, each name
// once, sharing those of prev (the previous parse's, in order) it finds
// again.
func (t *ManifestTree) readAgents(stop *stopper, k, raw *yaml.Node, b *expandBudget, prev []*AgentDecl) {
	t.Agents.Key, t.Agents.Value = k, raw
	m := resolveAlias(raw)
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	ps := mapPairs(raw, b)
	n := len(ps) / 2
	t.agents = make([]*AgentDecl, 0, n)
	seen := make(map[string]bool, n)
	var slab []AgentDecl // the new agents, allocated a block at a time
	var refs refSlab     // and the names they write
	w := writtenPairs{m: m, aliased: raw.Kind == yaml.AliasNode}
	j := 0 // prev's next agent
	for i := 0; i+1 < len(ps) && !stop.stopped(); i += 2 {
		key, val := ps[i], ps[i+1]
		written := w.next(key)
		if key.Kind != yaml.ScalarNode {
			continue
		}
		if seen[key.Value] {
			continue
		}
		seen[key.Value] = true
		if written && b.left > 0 {
			// Written agents are in the order of their keys' marks in both
			// parses: skip prev's that come before this one. One that spent
			// no budget then reads the same now, the budget left aside (read
			// with none left, it would be spent).
			for j < len(prev) && (prev[j].Merged || markBefore(prev[j].Key, key)) {
				j++
			}
			if j < len(prev) && prev[j].Key == key && prev[j].Value == val && !prev[j].spent {
				t.agents = append(t.agents, prev[j])
				j++
				continue
			}
		}
		if len(slab) == cap(slab) {
			slab = make([]AgentDecl, 0, min(max(2*cap(slab), 16), n-i/2))
		}
		slab = append(slab, AgentDecl{Name: key.Value, Key: key, Value: val, Merged: !written})
		a := &slab[len(slab)-1]
		left := b.left
		a.read(b, &refs)
		a.spent = left <= 0 || b.left != left
		t.agents = append(t.agents, a)
	}
}

// markBefore reports whether node a starts before node b.
func markBefore(a, b *yaml.Node) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
}

// refSlab hands out the agents' Refs from blocks shared by the agents of
// one tree, each with room for its names and no more (an append past it
// copies): a tree of 1,000 agents makes a few blocks, not 1,000 slices.
type refSlab struct{ block []AgentRef }

// take returns an empty slice with room for n names.
func (s *refSlab) take(n int) []AgentRef {
	if cap(s.block)-len(s.block) < n {
		s.block = make([]AgentRef, 0, max(n, min(2*cap(s.block), 1024), 16))
	}
	at := len(s.block)
	s.block = s.block[:at+n]
	return s.block[at : at : at+n]
}

// read reads an agent's body: its first `tools` and `secrets`.
func (a *AgentDecl) read(b *expandBudget, refs *refSlab) {
	ps := mapPairs(a.Value, b)
	for i := 0; i+1 < len(ps); i += 2 {
		k, v := ps[i], ps[i+1]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		switch k.Value {
		case "tools":
			if a.ToolsKey == nil {
				a.ToolsKey, a.Tools = k, v
				a.readRefs(v, b, refs)
			}
		case "secrets":
			if a.SecretsKey == nil {
				a.SecretsKey, a.Secrets = k, v
			}
		}
	}
}

// readRefs reads the names an agent's tools value writes, in the shapes A3
// accepts (rule_agent_shape.go, which reads the shapes from the same
// entries); what A3 reports, this skips.
func (a *AgentDecl) readRefs(raw *yaml.Node, b *expandBudget, refs *refSlab) {
	v := resolveAlias(raw)
	items := func(list []*yaml.Node, where RefWhere) {
		for _, it := range list {
			if it := resolveAlias(it); isString(it) {
				a.Refs = append(a.Refs, AgentRef{Name: it.Value, Node: it, Where: where, Enabled: true})
			}
		}
	}
	switch {
	case v == nil:
	case v.Kind == yaml.SequenceNode:
		a.Refs = refs.take(len(v.Content))
		items(v.Content, RefItem)
	case v.Kind == yaml.MappingNode:
		ps := mapPairs(raw, b)
		a.toolsPairs = ps
		for i := 0; i+1 < len(ps); i += 2 {
			if k := ps[i]; k.Kind == yaml.ScalarNode && k.Value == agentExclude {
				a.ExcludeKey, a.exclude = k, ps[i+1]
				if list := resolveAlias(ps[i+1]); list != nil && list.Kind == yaml.SequenceNode {
					a.Refs = refs.take(len(list.Content))
					items(list.Content, RefExclude)
				}
				return
			}
		}
		a.Refs = refs.take(len(ps) / 2)
		for i := 0; i+1 < len(ps); i += 2 {
			k := ps[i]
			if k.Kind != yaml.ScalarNode {
				continue
			}
			val := resolveAlias(ps[i+1])
			on := val != nil && val.Kind == yaml.ScalarNode && val.Tag == "!!bool" && isTrue(val.Value)
			a.Refs = append(a.Refs, AgentRef{Name: k.Value, Node: k, Where: RefLegacy, Enabled: on})
		}
	}
}

func (t *ManifestTree) readImports(k, raw *yaml.Node) {
	s := &t.Imports
	s.Key, s.Value = k, raw
	v := resolveAlias(raw)
	if v == nil || v.Kind != yaml.SequenceNode {
		return
	}
	s.list = make([]*yaml.Node, len(v.Content))
	s.Items = make([]*yaml.Node, 0, len(v.Content))
	for i, it := range v.Content {
		it := resolveAlias(it)
		s.list[i] = it
		if it != nil && it.Kind == yaml.ScalarNode {
			s.Items = append(s.Items, it)
		}
	}
}

// makeEntries makes the sections' Entries from what buildTree read: one
// ToolDecl per pair of the tools mapping, a copy of each agent.
func (t *ManifestTree) makeEntries() {
	if s := &t.Tools; s.Mapping != nil {
		s.Entries = make([]ToolDecl, 0, len(t.toolPairs)/2)
		w := writtenPairs{m: s.Mapping, aliased: s.Value.Kind == yaml.AliasNode}
		for i := 0; i+1 < len(t.toolPairs); i += 2 {
			k, v := t.toolPairs[i], t.toolPairs[i+1]
			d := ToolDecl{Key: k, Value: v, Merged: s.Merged || !w.next(k), t: t}
			if k.Kind == yaml.ScalarNode {
				d.Name = k.Value
			}
			s.Entries = append(s.Entries, d)
		}
	}
	if t.agents != nil {
		t.Agents.Entries = make([]AgentDecl, len(t.agents))
		for i, a := range t.agents {
			t.Agents.Entries[i] = *a
		}
	}
}

// writtenPairs tells, walking mapPairs' output of m in order, which pairs
// are written in m itself: those are m's own keys, in order (mapPairs puts
// merged ones between them).
type writtenPairs struct {
	m       *yaml.Node
	i       int
	aliased bool // the section is an alias: nothing is written in it
}

func (w *writtenPairs) next(k *yaml.Node) bool {
	if w.aliased {
		return false
	}
	for w.i+1 < len(w.m.Content) && isMergeKey(w.m.Content[w.i]) {
		w.i += 2
	}
	if w.i+1 < len(w.m.Content) && w.m.Content[w.i] == k {
		w.i += 2
		return true
	}
	return false
}
