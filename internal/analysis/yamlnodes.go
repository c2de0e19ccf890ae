package analysis

import "go.yaml.in/yaml/v3"

// Helpers over yaml.v3 nodes. None of them expands aliases recursively: an
// alias is followed one step at a time with a small budget, and merge keys
// (`<<: *base`) are expanded with a bound on depth and on entries, so an
// alias bomb costs nothing.

const (
	maxAliasHops     = 16
	maxMergeDepth    = 4
	maxMergedEntries = 100000
)

// resolveAlias follows an alias to the node it names.
func resolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < maxAliasHops; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

type pair struct{ k, v *yaml.Node }

// expandBudget bounds the entries that aliases and merge keys bring in over
// one whole load. Entries written where they are read cost nothing (they are
// linear in the file); entries reached through an alias or a merge cost one
// unit each, so that no nesting of aliases can make the rules quadratic or
// worse. Once spent, aliased mappings read as empty.
type expandBudget struct{ left int }

func newExpandBudget() *expandBudget { return &expandBudget{left: maxMergedEntries} }

// mapPairs returns the entries of a mapping (raw may be an alias to one) in
// order: the ones written, then the ones a merge key brings that are not
// written (YAML merge semantics). A key written twice appears twice (T10
// reports it; consumers keep the first).
func mapPairs(raw *yaml.Node, b *expandBudget) []pair {
	return mapPairsDepth(raw, 0, b)
}

func mapPairsDepth(raw *yaml.Node, depth int, b *expandBudget) []pair {
	n := resolveAlias(raw)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	if raw.Kind == yaml.AliasNode || depth > 0 {
		if b.left <= 0 {
			return nil
		}
		b.left -= 1 + len(n.Content)/2
	}
	hasMerge := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			hasMerge = true
			break
		}
	}
	out := make([]pair, 0, len(n.Content)/2)
	if !hasMerge || depth >= maxMergeDepth {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; !(k.Kind == yaml.ScalarNode && k.Tag == "!!merge") {
				out = append(out, pair{k, n.Content[i+1]})
			}
		}
		return out
	}
	// Keys written in this mapping win over merged ones; merged entries take
	// the place of their `<<` key, so declaration order reads as written.
	written := make(map[string]bool, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Tag != "!!merge" {
			written[k.Value] = true
		}
	}
	merged := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !(k.Kind == yaml.ScalarNode && k.Tag == "!!merge") {
			out = append(out, pair{k, v})
			continue
		}
		var sources []*yaml.Node
		if rv := resolveAlias(v); rv != nil && rv.Kind == yaml.SequenceNode {
			sources = rv.Content
		} else {
			sources = []*yaml.Node{v}
		}
		for _, src := range sources {
			if b.left <= 0 {
				return out
			}
			for _, p := range mapPairsDepth(src, depth+1, b) {
				if p.k.Kind == yaml.ScalarNode {
					if written[p.k.Value] || merged[p.k.Value] {
						continue
					}
					merged[p.k.Value] = true
				}
				out = append(out, p)
			}
		}
	}
	return out
}

// isNull reports whether n is a null scalar (`~`, `null`, or nothing).
func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// isString reports whether n is a string scalar.
func isString(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!str"
}
