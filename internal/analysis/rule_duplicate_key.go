package analysis

import (
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/diag"
)

// T10: the same key twice in one mapping, anywhere in a file. It reads one
// file and runs when the file is parsed; a chunked parse reuses the findings
// of the subtrees it shares with the previous parse (see below).

const CodeDuplicateKey = "T10"

var ruleDuplicateKey = &Rule{Code: CodeDuplicateKey, Severity: diag.Error, Reads: ReadsFile}

func msgDuplicateKey(key string, firstLine int) string {
	return fmt.Sprintf("key `%s` appears twice in this mapping (first on line %d): keep one, YAML readers disagree on a duplicate key and many refuse the file", key, firstLine)
}

func msgFirstKey(key string) string { return fmt.Sprintf("the first `%s`", key) }

// checkDuplicateKeys reports every key that appears twice in one mapping
// (T10), anywhere in the document. It walks with an explicit stack and never
// follows aliases, so neither deep nesting nor alias bombs can hurt it.
//
// prev holds the findings of the previous parse of the file (dupMemo): a
// chunked parse shares the nodes of unchanged chunks, and a subtree found
// again gives the same findings at the same lines, so they are taken from
// prev, their offsets recomputed, without walking it. The findings of this
// parse are kept the same way in p.dups. A key compared, a node walked and
// a child of a large collection are units of work of p.stop (stop.go).
func (p *parsed) checkDuplicateKeys(prev *dupMemo) {
	if prev == nil {
		prev = &dupMemo{}
	}
	p.dups = &dupMemo{bySubtree: make(map[*yaml.Node][]diag.Finding, len(prev.bySubtree))}
	p.duplicatesUnder(p.root, 0, prev)
}

// dupMemo is the duplicate-key findings of one parse, for the next parse of
// the file: by subtree for the collections one and two levels under the
// root (a top-level value; an entry of a small top-level mapping or
// sequence), and by position for the entries of a large one (the tools:
// mapping's 10,000), found again by comparing its entries from both ends
// instead of looking each up.
type dupMemo struct {
	bySubtree map[*yaml.Node][]diag.Finding
	large     []dupRun
}

// largeCollection is the number of children above which a top-level
// collection's entries are kept by position (dupRun).
const largeCollection = 64

// dupRun is a large top-level collection's children (its Content) with
// the findings under each child that has some, in their order.
type dupRun struct {
	content []*yaml.Node
	found   []dupAt
}

// dupAt is the findings under the child at index at of a dupRun's content.
type dupAt struct {
	at       int
	findings []diag.Finding
}

// duplicatesUnder checks the subtree of n, at depth under the root.
func (p *parsed) duplicatesUnder(n *yaml.Node, depth int, prev *dupMemo) {
	if n.Kind != yaml.MappingNode && n.Kind != yaml.SequenceNode {
		return
	}
	if depth == 0 || depth > 2 {
		p.walkDuplicates(n, depth, prev)
		return
	}
	if fs, ok := prev.bySubtree[n]; ok {
		kept := slices.Clone(fs)
		rebaseFindings(kept, p.lines)
		p.findings = append(p.findings, kept...)
		p.dups.bySubtree[n] = kept
		return
	}
	before := len(p.findings)
	p.walkDuplicates(n, depth, prev)
	p.dups.bySubtree[n] = slices.Clone(p.findings[before:])
}

// walkDuplicates checks n's own keys, then its children: those at depths
// 1 and 2 through duplicatesUnder (and its memo), or duplicatesByRun for a
// large collection at depth 1, deeper ones with an explicit stack.
func (p *parsed) walkDuplicates(n *yaml.Node, depth int, prev *dupMemo) {
	if depth == 1 && len(n.Content) > largeCollection {
		if n.Kind == yaml.MappingNode {
			p.duplicateKeysIn(n)
		}
		p.duplicatesByRun(n.Content, prev)
		return
	}
	if depth < 2 {
		if n.Kind == yaml.MappingNode {
			p.duplicateKeysIn(n)
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k := n.Content[i]; k.Kind != yaml.ScalarNode {
					p.duplicatesUnder(k, depth+1, prev)
				}
				p.duplicatesUnder(n.Content[i+1], depth+1, prev)
			}
			return
		}
		for _, c := range n.Content {
			p.duplicatesUnder(c, depth+1, prev)
		}
		return
	}
	stack := []*yaml.Node{n}
	for len(stack) > 0 && !p.stop.stopped() {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n.Kind {
		case yaml.MappingNode:
			p.duplicateKeysIn(n)
			for i := 0; i+1 < len(n.Content); i += 2 {
				if v := n.Content[i+1]; v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode {
					stack = append(stack, v)
				}
				if k := n.Content[i]; k.Kind == yaml.MappingNode || k.Kind == yaml.SequenceNode {
					stack = append(stack, k)
				}
			}
		case yaml.SequenceNode:
			for i := len(n.Content) - 1; i >= 0; i-- {
				if c := n.Content[i]; c.Kind == yaml.MappingNode || c.Kind == yaml.SequenceNode {
					stack = append(stack, c)
				}
			}
		}
	}
}

// duplicatesByRun checks the children of a large top-level collection
// (content: a mapping's keys and values, or a sequence's items), in order.
// The children it shares, from both ends, with a large collection of the
// previous parse (the same nodes: chunks the edit did not touch) take that
// collection's findings; the others, where the edit is, are walked.
func (p *parsed) duplicatesByRun(content []*yaml.Node, prev *dupMemo) {
	var old *dupRun
	front, back := 0, 0
	for i := range prev.large {
		r := &prev.large[i]
		f := 0
		for f < min(len(content), len(r.content)) && content[f] == r.content[f] {
			f++
		}
		b := 0
		for b < min(len(content), len(r.content))-f && content[len(content)-1-b] == r.content[len(r.content)-1-b] {
			b++
		}
		if f+b > front+back {
			old, front, back = r, f, b
		}
	}
	run := dupRun{content: content}
	keep := func(at int, fs []diag.Finding) {
		kept := slices.Clone(fs)
		rebaseFindings(kept, p.lines)
		p.findings = append(p.findings, kept...)
		run.found = append(run.found, dupAt{at, kept})
	}
	j := 0 // the old run's next findings
	if old != nil {
		for ; j < len(old.found) && old.found[j].at < front; j++ {
			keep(old.found[j].at, old.found[j].findings)
		}
	}
	for i := front; i < len(content)-back && !p.stop.stopped(); i++ {
		if c := content[i]; c.Kind == yaml.MappingNode || c.Kind == yaml.SequenceNode {
			before := len(p.findings)
			p.walkDuplicates(c, 2, prev)
			if len(p.findings) > before {
				run.found = append(run.found, dupAt{i, slices.Clone(p.findings[before:])})
			}
		}
	}
	if old != nil {
		shift := len(content) - len(old.content)
		for ; j < len(old.found); j++ {
			if at := old.found[j].at; at >= len(old.content)-back {
				keep(at+shift, old.found[j].findings)
			}
		}
	}
	p.dups.large = append(p.dups.large, run)
}

// duplicateKeysIn reports the keys of one mapping that repeat an earlier key.
// Small mappings (most of a manifest) are compared pairwise, large ones
// through a map of their keys.
func (p *parsed) duplicateKeysIn(n *yaml.Node) {
	const small = 16
	if len(n.Content) <= 2*small {
		for i := 2; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if !isDupKey(k) {
				continue
			}
			for j := 0; j < i; j += 2 {
				if f := n.Content[j]; isDupKey(f) && f.Value == k.Value {
					p.reportDuplicate(f, k)
					break
				}
			}
		}
		return
	}
	seen := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if p.stop.stopped() {
			return // the parse is dropped
		}
		k := n.Content[i]
		if !isDupKey(k) {
			continue
		}
		if first, ok := seen[k.Value]; ok {
			p.reportDuplicate(first, k)
		} else {
			seen[k.Value] = k
		}
	}
}

// isDupKey reports whether k counts as a key for T10: a scalar, not a merge
// key (a merge key's entries repeat no key).
func isDupKey(k *yaml.Node) bool { return k.Kind == yaml.ScalarNode && k.Tag != "!!merge" }

// reportDuplicate reports T10 on k, which repeats first.
func (p *parsed) reportDuplicate(first, k *yaml.Node) {
	firstRange := p.pos.nodeRange(first)
	p.findings = append(p.findings, ruleDuplicateKey.finding(p.path, p.pos.nodeRange(k),
		msgDuplicateKey(k.Value, firstRange.Start.Line+1), map[string]string{DataName: k.Value},
		[]diag.Related{{File: p.path, Range: firstRange, Message: msgFirstKey(k.Value)}}))
}
