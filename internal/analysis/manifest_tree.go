package analysis

import (
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// ManifestTree is the typed view of one parsed YAML file: its top-level
// `tools:`, `agents:` and `imports:` sections, with aliases followed and
// `<<` merge keys expanded the way the rules read them (mapPairs,
// resolveAlias: one resolution). It is built once per parse, on first use,
// and shared by every File of that parse (File.Tree): the editor features
// and the edit planner read it instead of walking the yaml.Node tree.
// Read-only once built.
type ManifestTree struct {
	// Root is the top-level mapping, nil when the file is empty, does not
	// parse, or its document is not a mapping.
	Root    *yaml.Node
	Tools   ToolsSection
	Agents  AgentsSection
	Imports ImportsSection
	pos     *positions
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
	// written twice appears twice (T10), the first one counts.
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
	// a mapping.
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
}

// lazyTree builds a parse's tree on first use, once, for every reader.
type lazyTree struct {
	once sync.Once
	tree *ManifestTree
}

func (lt *lazyTree) get(doc *yaml.Node, pos *positions) *ManifestTree {
	lt.once.Do(func() {
		var root *yaml.Node
		if doc != nil && len(doc.Content) > 0 {
			root = doc.Content[0]
		}
		lt.tree = buildTree(root, pos)
	})
	return lt.tree
}

// Tree returns the typed tree of f's parse, built on the first call for
// that parse (a File that shares a parse shares its tree).
func (f *File) Tree() *ManifestTree {
	if f.tree == nil || f.marks == nil {
		return &ManifestTree{}
	}
	return f.tree.get(f.Doc, f.marks.p)
}

// buildTree reads the sections of a parse whose top node is root. Merges
// have a budget of their own (one per file), as the loader's has per load.
func buildTree(root *yaml.Node, pos *positions) *ManifestTree {
	t := &ManifestTree{pos: pos}
	if root == nil || root.Kind != yaml.MappingNode {
		return t
	}
	t.Root = root
	b := newExpandBudget()
	w := writtenPairs{m: root}
	for _, kv := range mapPairs(root, b) {
		written := w.next(kv.k)
		if kv.k.Kind != yaml.ScalarNode {
			continue
		}
		switch kv.k.Value {
		case "tools":
			if t.Tools.Key == nil {
				t.readTools(kv.k, kv.v, !written, b)
			}
		case "agents":
			if t.Agents.Key == nil {
				t.readAgents(kv.k, kv.v, b)
			}
		case "imports":
			if t.Imports.Key == nil {
				t.readImports(kv.k, kv.v)
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
	pairs := mapPairs(raw, b)
	s.Entries = make([]ToolDecl, 0, len(pairs))
	w := writtenPairs{m: m, aliased: raw.Kind == yaml.AliasNode}
	for _, p := range pairs {
		d := ToolDecl{Key: p.k, Value: p.v, Merged: merged || !w.next(p.k), t: t}
		if p.k.Kind == yaml.ScalarNode {
			d.Name = p.k.Value
		}
		s.Entries = append(s.Entries, d)
	}
}

func (t *ManifestTree) readAgents(k, raw *yaml.Node, b *expandBudget) {
	s := &t.Agents
	s.Key, s.Value = k, raw
	m := resolveAlias(raw)
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	pairs := mapPairs(raw, b)
	s.Entries = make([]AgentDecl, 0, len(pairs))
	w := writtenPairs{m: m, aliased: raw.Kind == yaml.AliasNode}
	seen := make(map[string]bool, len(pairs))
	for _, p := range pairs {
		written := w.next(p.k)
		if p.k.Kind != yaml.ScalarNode || seen[p.k.Value] {
			continue
		}
		seen[p.k.Value] = true
		a := AgentDecl{Name: p.k.Value, Key: p.k, Value: p.v, Merged: !written}
		for _, f := range mapPairs(p.v, b) {
			if f.k.Kind != yaml.ScalarNode {
				continue
			}
			switch f.k.Value {
			case "tools":
				if a.ToolsKey == nil {
					a.ToolsKey, a.Tools = f.k, f.v
					a.readRefs(f.v, b)
				}
			case "secrets":
				if a.SecretsKey == nil {
					a.SecretsKey, a.Secrets = f.k, f.v
				}
			}
		}
		s.Entries = append(s.Entries, a)
	}
}

// readRefs reads the names an agent's tools value writes, in the shapes
// agentTools (rule_agent_shape.go) accepts; what it reports, this skips.
func (a *AgentDecl) readRefs(raw *yaml.Node, b *expandBudget) {
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
		a.Refs = make([]AgentRef, 0, len(v.Content))
		items(v.Content, RefItem)
	case v.Kind == yaml.MappingNode:
		pairs := mapPairs(raw, b)
		for _, p := range pairs {
			if p.k.Kind == yaml.ScalarNode && p.k.Value == agentExclude {
				a.ExcludeKey = p.k
				if list := resolveAlias(p.v); list != nil && list.Kind == yaml.SequenceNode {
					a.Refs = make([]AgentRef, 0, len(list.Content))
					items(list.Content, RefExclude)
				}
				return
			}
		}
		a.Refs = make([]AgentRef, 0, len(pairs))
		for _, p := range pairs {
			if p.k.Kind != yaml.ScalarNode {
				continue
			}
			val := resolveAlias(p.v)
			on := val != nil && val.Kind == yaml.ScalarNode && val.Tag == "!!bool" && isTrue(val.Value)
			a.Refs = append(a.Refs, AgentRef{Name: p.k.Value, Node: p.k, Where: RefLegacy, Enabled: on})
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
	s.Items = make([]*yaml.Node, 0, len(v.Content))
	for _, it := range v.Content {
		if it := resolveAlias(it); it != nil && it.Kind == yaml.ScalarNode {
			s.Items = append(s.Items, it)
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

func isMergeKey(k *yaml.Node) bool { return k.Kind == yaml.ScalarNode && k.Tag == "!!merge" }
