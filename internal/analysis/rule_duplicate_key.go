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
// prev holds the findings of the previous parse of the file by subtree, for
// the collections one and two levels under the root (a top-level value; an
// entry of a top-level mapping or sequence, an agent's body say): a chunked
// parse shares the nodes of unchanged chunks, and a subtree found again
// gives the same findings at the same lines, so they are taken from prev,
// their offsets recomputed, without walking it. The findings of this parse
// are kept the same way in p.dups.
func (p *parsed) checkDuplicateKeys(prev map[*yaml.Node][]diag.Finding) {
	p.dups = make(map[*yaml.Node][]diag.Finding, len(prev)) // about as many subtrees as the last parse
	p.duplicatesUnder(p.root, 0, prev)
}

// duplicatesUnder checks the subtree of n, at depth under the root.
func (p *parsed) duplicatesUnder(n *yaml.Node, depth int, prev map[*yaml.Node][]diag.Finding) {
	if n.Kind != yaml.MappingNode && n.Kind != yaml.SequenceNode {
		return
	}
	if depth == 0 || depth > 2 {
		p.walkDuplicates(n, depth, prev)
		return
	}
	if fs, ok := prev[n]; ok {
		kept := slices.Clone(fs)
		rebaseFindings(kept, p.lines)
		p.findings = append(p.findings, kept...)
		p.dups[n] = kept
		return
	}
	before := len(p.findings)
	p.walkDuplicates(n, depth, prev)
	p.dups[n] = slices.Clone(p.findings[before:])
}

// walkDuplicates checks n's own keys, then its children: those at depths
// 1 and 2 through duplicatesUnder (and its memo), deeper ones with an
// explicit stack.
func (p *parsed) walkDuplicates(n *yaml.Node, depth int, prev map[*yaml.Node][]diag.Finding) {
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
	for len(stack) > 0 {
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

// duplicateKeysIn reports the keys of one mapping that repeat an earlier key.
// Small mappings (most of a manifest) are compared pairwise, large ones
// through a map.
func (p *parsed) duplicateKeysIn(n *yaml.Node) {
	isKey := func(k *yaml.Node) bool { return k.Kind == yaml.ScalarNode && k.Tag != "!!merge" }
	report := func(first, k *yaml.Node) {
		firstRange := p.pos.nodeRange(first)
		p.findings = append(p.findings, ruleDuplicateKey.finding(p.path, p.pos.nodeRange(k),
			msgDuplicateKey(k.Value, firstRange.Start.Line+1), map[string]string{DataName: k.Value},
			[]diag.Related{{File: p.path, Range: firstRange, Message: msgFirstKey(k.Value)}}))
	}
	const small = 16
	if len(n.Content) <= 2*small {
		for i := 2; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if !isKey(k) {
				continue
			}
			for j := 0; j < i; j += 2 {
				if f := n.Content[j]; isKey(f) && f.Value == k.Value {
					report(f, k)
					break
				}
			}
		}
		return
	}
	seen := p.scratch.keyMap(len(n.Content) / 2)
	defer clear(seen)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !isKey(k) {
			continue
		}
		if first, ok := seen[k.Value]; ok {
			report(first, k)
		} else {
			seen[k.Value] = k
		}
	}
}
