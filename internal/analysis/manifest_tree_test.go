package analysis

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// describeTree prints what a tree holds, one line per entry: the entry's
// text as its ranges cut it from content, its kind and whether it is
// merged.
func describeTree(t *ManifestTree, content []byte) string {
	var b strings.Builder
	cut := func(start, end int) string { return string(content[start:end]) }
	if t.Tools.Key != nil {
		fmt.Fprintf(&b, "tools merged=%v mapping=%v\n", t.Tools.Merged, t.Tools.Mapping != nil)
	}
	for i := range t.Tools.Entries {
		d := &t.Tools.Entries[i]
		k, v := d.KeyRange(), d.ValueRange()
		fmt.Fprintf(&b, "  tool %s key=%q value=%q kind=%d merged=%v\n", d.Name, cut(k.Start.Offset, k.End.Offset), cut(v.Start.Offset, v.End.Offset), d.Kind(), d.Merged)
	}
	for _, a := range t.Agents.Entries {
		fmt.Fprintf(&b, "  agent %s merged=%v tools=%v secrets=%v", a.Name, a.Merged, a.Tools != nil, a.Secrets != nil)
		for _, r := range a.Refs {
			rr := t.TokenRange(r.Node)
			fmt.Fprintf(&b, " %d:%s:%v", r.Where, cut(rr.Start.Offset, rr.End.Offset), r.Enabled)
		}
		b.WriteString("\n")
	}
	for _, it := range t.Imports.Items {
		r := t.TokenRange(it)
		fmt.Fprintf(&b, "  import %s\n", cut(r.Start.Offset, r.End.Offset))
	}
	return b.String()
}

func TestManifestTree(t *testing.T) {
	cases := []struct{ name, yaml, want string }{
		{"kinds and shapes", `x: &x c.yaml
imports: [a.yaml, "b.yaml", *x]
tools:
  web_search: beeuni:web_search
  lookup: "tools/lookup.ts"
  bad: 3
  empty:
agents:
  a: {tools: [web_search, *x, 3], secrets: [K]}
  b: {tools: {exclude: [lookup]}}
  c: {tools: {bash: false, lookup: true}}
  d: 7
`, `tools merged=false mapping=true
  tool web_search key="web_search" value="beeuni:web_search" kind=1 merged=false
  tool lookup key="lookup" value="\"tools/lookup.ts\"" kind=2 merged=false
  tool bad key="bad" value="3" kind=0 merged=false
  tool empty key="empty" value="" kind=0 merged=false
  agent a merged=false tools=true secrets=true 0:web_search:true 0:&x c.yaml:true
  agent b merged=false tools=true secrets=false 1:lookup:true
  agent c merged=false tools=true secrets=false 2:bash:false 2:lookup:true
  agent d merged=false tools=false secrets=false
  import a.yaml
  import "b.yaml"
  import &x c.yaml
`},
		{"merge keys: written keys win, merged ones take the place of <<", `base: &base
  memory: beeuni:memory
  show: tools/show.ts
ag: &ag
  tools: [memory]
tools:
  first: beeuni:first
  <<: *base
  show: beeuni:show
agents:
  <<: {m: *ag}
  w:
    <<: *ag
    secrets: {}
`, `tools merged=false mapping=true
  tool first key="first" value="beeuni:first" kind=1 merged=false
  tool memory key="memory" value="beeuni:memory" kind=1 merged=true
  tool show key="show" value="beeuni:show" kind=1 merged=false
  agent m merged=true tools=true secrets=false 0:memory:true
  agent w merged=false tools=true secrets=true 0:memory:true
`},
		{"a tools alias, an aliased value", `base: &base
  memory: &v tools/m.ts
  other: *v
tools: *base
`, `tools merged=false mapping=true
  tool memory key="memory" value="&v tools/m.ts" kind=2 merged=true
  tool other key="other" value="*v" kind=2 merged=true
`},
		{"a tools key a top-level merge brings", `top: &top
  tools: {memory: beeuni:memory}
<<: *top
`, `tools merged=true mapping=true
  tool memory key="memory" value="beeuni:memory" kind=1 merged=true
`},
		{"tools not a mapping", "tools: [a]\nagents: [b]\nimports: {c: d}\n", "tools merged=false mapping=false\n"},
		{"not a mapping", "- tools\n", ""},
		{"empty", "# nothing\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Load(t.Context(), memWorkspace(map[string]string{"beeuni.yaml": c.yaml}), testRoot)
			if err != nil {
				t.Fatal(err)
			}
			f := p.Files[0]
			if got := describeTree(f.Tree(), f.Content()); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestManifestTreeOncePerParse: loads that reuse a parse (a keystroke in
// another file, a reload) reuse its tree; an edit makes a new one.
func TestManifestTreeOncePerParse(t *testing.T) {
	fsys := memWorkspace(map[string]string{"beeuni.yaml": "tools:\n  memory: beeuni:memory\n"})
	cache := NewCache()
	load := func() *File {
		p, err := LoadCached(t.Context(), fsys, testRoot, cache)
		if err != nil {
			t.Fatal(err)
		}
		return p.Files[0]
	}
	first := load()
	tree := first.Tree()
	if first.Tree() != tree {
		t.Error("a second call built a second tree")
	}
	if again := load(); again.Tree() != tree {
		t.Error("a load that reuses the parse built a new tree")
	}
	fsys.WriteFile(filepath.Join(testRoot, "beeuni.yaml"), []byte("tools:\n  show: beeuni:show\n"))
	edited := load().Tree()
	if edited == tree || len(edited.Tools.Entries) != 1 || edited.Tools.Entries[0].Name != "show" {
		t.Errorf("after an edit: %+v", edited.Tools.Entries)
	}
}

// treeText prints everything a tree read, rules' fields included, by the
// marks and values of its nodes: equal for two parses of one content
// (whose nodes differ) exactly when their trees read the same.
func treeText(t *ManifestTree) string {
	var b strings.Builder
	n := func(x *yaml.Node) string {
		if x == nil {
			return "-"
		}
		return fmt.Sprintf("%d:%d:%d:%q", x.Line, x.Column, x.Kind, x.Value)
	}
	list := func(xs []*yaml.Node) string {
		var parts []string
		for _, x := range xs {
			parts = append(parts, n(x))
		}
		return "[" + strings.Join(parts, " ") + "]"
	}
	fmt.Fprintf(&b, "top %s root %s\n", n(t.top), n(t.Root))
	s := &t.Tools
	fmt.Fprintf(&b, "tools %s %s merged=%v mapping=%s pairs=%s\n", n(s.Key), n(s.Value), s.Merged, n(s.Mapping), list(t.toolPairs))
	fmt.Fprintf(&b, "agents %s %s\n", n(t.Agents.Key), n(t.Agents.Value))
	for _, a := range t.agents {
		fmt.Fprintf(&b, "  agent %s %s %s merged=%v spent=%v tools=%s %s exclude=%s %s secrets=%s %s pairs=%s refs:",
			a.Name, n(a.Key), n(a.Value), a.Merged, a.spent, n(a.ToolsKey), n(a.Tools), n(a.ExcludeKey), n(a.exclude),
			n(a.SecretsKey), n(a.Secrets), list(a.toolsPairs))
		for _, r := range a.Refs {
			fmt.Fprintf(&b, " %s/%d/%v/%s", r.Name, r.Where, r.Enabled, n(r.Node))
		}
		b.WriteString("\n")
	}
	im := &t.Imports
	fmt.Fprintf(&b, "imports %s %s items=%s list=%s\n", n(im.Key), n(im.Value), list(im.Items), list(im.list))
	return b.String()
}

// checkTree fails unless p's tree (which may share agents with the previous
// parse's) reads what a tree built anew from p's nodes reads, and what the
// tree of the full parse of the same content reads.
func checkTree(t *testing.T, p, full *parsed) {
	t.Helper()
	got := treeText(p.tree)
	if fresh := treeText(buildTree(nil, p.root, p.pos, nil)); got != fresh {
		t.Fatalf("the tree differs from one built anew for %q:\ngot\n%s\nanew\n%s", p.text, got, fresh)
	}
	if want := treeText(full.tree); got != want {
		t.Fatalf("the tree differs from the full parse's for %q:\ngot\n%s\nfull\n%s", p.text, got, want)
	}
}

// TestManifestTreeSharesUnchangedAgents: after an edit in one agent, the
// next parse's tree shares every agent of the chunks that did not change
// and reads the edited chunk's anew; an agent a merge key brings into its
// body spent budget and is read anew; the tool entries are the mapping's
// own nodes, not a copy. Each tree reads what a tree built anew reads.
func TestManifestTreeSharesUnchangedAgents(t *testing.T) {
	var b strings.Builder
	b.WriteString("tools:\n  memory: beeuni:memory\n  lookup: tools/lookup.ts\nagents:\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "  agent_%02d:\n    tools: [memory, lookup]\n", i)
	}
	b.WriteString("  merged:\n    <<: {tools: {exclude: [lookup]}}\n")
	v1 := b.String()
	v2 := strings.Replace(v1, "agent_20:", "agent_2x:", 1)
	const target = 4
	p1 := parseFileAfter(nil, "/repo/beeuni.yaml", []byte(v1), &parsed{}, target)
	p2 := parseFileAfter(nil, "/repo/beeuni.yaml", []byte(v2), p1, target)
	if !p1.byChunks || !p2.byChunks {
		t.Fatal("not parsed by chunks")
	}
	checkTree(t, p1, parseFile(nil, "/repo/beeuni.yaml", []byte(v1)))
	checkTree(t, p2, parseFile(nil, "/repo/beeuni.yaml", []byte(v2)))
	shared := 0
	for i, a := range p2.tree.agents {
		was := p1.tree.agents[i]
		switch {
		case a.Name == "agent_2x" || a.Name == "merged":
			if a == was {
				t.Errorf("agent %s shared with the previous tree", a.Name)
			}
		case a == was:
			shared++
		}
	}
	// A chunk holds two agents (four lines): the edited one's other agent
	// is read anew too.
	if want := len(p2.tree.agents) - 3; shared != want {
		t.Errorf("%d agents shared, want %d", shared, want)
	}
	last := p2.tree.agents[len(p2.tree.agents)-1]
	if !last.spent || last.ExcludeKey == nil {
		t.Errorf("the merged agent: spent=%v exclude=%v", last.spent, last.ExcludeKey)
	}
	if m := p2.tree.Tools.Mapping; &p2.tree.toolPairs[0] != &m.Content[0] {
		t.Error("the tool entries are a copy of the mapping's")
	}
}

// TestManifestTreeBudgetPerFile: a file whose merge keys spend most of the
// merge budget does not take it from the files loaded after it: each file's
// tree (which the cache shares between loads) reads what it reads alone.
func TestManifestTreeBudgetPerFile(t *testing.T) {
	spender := func(prefix string) string {
		var b strings.Builder
		b.WriteString("base: &base {")
		for i := 0; i < 60; i++ {
			fmt.Fprintf(&b, "%s_%02d: tools/x.ts, ", prefix, i)
		}
		b.WriteString("}\ntools:\n  <<: [")
		for i := 0; i < 1000; i++ {
			b.WriteString("*base, ")
		}
		b.WriteString("]\n")
		return b.String()
	}
	files := map[string]string{
		"beeuni.yaml": "imports: [a.yaml, b.yaml]\n",
		"a.yaml":      spender("a"),
		"b.yaml":      spender("b"),
		"tools/x.ts":  "export default {}\n",
	}
	p, err := Load(t.Context(), memWorkspace(files), testRoot)
	if err != nil {
		t.Fatal(err)
	}
	alone, err := Load(t.Context(), memWorkspace(map[string]string{"beeuni.yaml": files["b.yaml"], "tools/x.ts": files["tools/x.ts"]}), testRoot)
	if err != nil {
		t.Fatal(err)
	}
	got, want := p.File(filepath.Join(testRoot, "b.yaml")).Tree(), alone.Files[0].Tree()
	if treeText(got) != treeText(want) || len(got.Tools.Entries) != 60 {
		t.Errorf("b.yaml after a.yaml reads %d entries, alone %d", len(got.Tools.Entries), len(want.Tools.Entries))
	}
	if len(p.Model.Tools) != 120 {
		t.Errorf("%d tools, want 120", len(p.Model.Tools))
	}
}
