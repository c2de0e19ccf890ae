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

// expandBudget bounds the entries that aliases and merge keys bring in over
// one file's tree (buildTree). Entries written where they are read cost
// nothing (they are linear in the file); entries reached through an alias
// or a merge cost one unit each, so that no nesting of aliases can make the
// reading quadratic or worse. Once spent, aliased mappings read as empty.
type expandBudget struct{ left int }

func newExpandBudget() *expandBudget { return &expandBudget{left: maxMergedEntries} }

// mapPairs returns the entries of a mapping (raw may be an alias to one) in
// order, flat: key, value, key, value. The ones written come first, the
// ones a merge key brings that are not written take the place of the merge
// key (YAML merge semantics). A key written twice appears twice (T10
// reports it; consumers keep the first). A mapping without a merge key
// gives its own Content, not a copy: read-only.
func mapPairs(raw *yaml.Node, b *expandBudget) []*yaml.Node {
	return mapPairsDepth(raw, 0, b)
}

func mapPairsDepth(raw *yaml.Node, depth int, b *expandBudget) []*yaml.Node {
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
	content := n.Content[:len(n.Content)&^1]
	hasMerge := false
	for i := 0; i < len(content); i += 2 {
		if isMergeKey(content[i]) {
			hasMerge = true
			break
		}
	}
	if !hasMerge {
		return content
	}
	out := make([]*yaml.Node, 0, len(content))
	if depth >= maxMergeDepth {
		for i := 0; i < len(content); i += 2 {
			if !isMergeKey(content[i]) {
				out = append(out, content[i], content[i+1])
			}
		}
		return out
	}
	// Keys written in this mapping win over merged ones; merged entries take
	// the place of their `<<` key, so declaration order reads as written.
	written := make(map[string]bool, len(content)/2)
	for i := 0; i < len(content); i += 2 {
		if k := content[i]; k.Kind == yaml.ScalarNode && !isMergeKey(k) {
			written[k.Value] = true
		}
	}
	merged := map[string]bool{}
	for i := 0; i < len(content); i += 2 {
		k, v := content[i], content[i+1]
		if !isMergeKey(k) {
			out = append(out, k, v)
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
			ps := mapPairsDepth(src, depth+1, b)
			for j := 0; j+1 < len(ps); j += 2 {
				if pk := ps[j]; pk.Kind == yaml.ScalarNode {
					if written[pk.Value] || merged[pk.Value] {
						continue
					}
					merged[pk.Value] = true
				}
				out = append(out, ps[j], ps[j+1])
			}
		}
	}
	return out
}

func isMergeKey(k *yaml.Node) bool { return k.Kind == yaml.ScalarNode && k.Tag == "!!merge" }

// isNull reports whether n is a null scalar (`~`, `null`, or nothing).
func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// isString reports whether n is a string scalar.
func isString(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!str"
}
