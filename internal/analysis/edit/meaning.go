package edit

import (
	"bytes"
	"io"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

// meaningOf is what yaml.Unmarshal into `any` makes of a document's first
// node, computed from the parsed node itself: ok is false when the first
// document is not a mapping (or has duplicate keys), as for decodeMap.
//
// yaml.Unmarshal parses the file again and checks each mapping for
// duplicate keys against every earlier key, which is quadratic: about
// 0.3 s for a 10,000-tool manifest, on every eject code action. Here a
// mapping's keys go into a Go map, once. Documents this fast path does not
// model exactly (aliases, merge keys, keys that are not plain strings) are
// decoded by yaml.v3 itself, so the result is always decodeMap's.
func meaningOf(doc *yaml.Node, content []byte) (map[string]any, bool) {
	if doc == nil {
		return map[string]any{}, true // empty or comments only
	}
	top := doc
	if top.Kind == yaml.DocumentNode {
		if len(top.Content) == 0 {
			return map[string]any{}, true
		}
		top = top.Content[0]
	}
	if top.Kind == yaml.ScalarNode && top.ShortTag() == "!!null" {
		return map[string]any{}, true
	}
	if top.Kind != yaml.MappingNode {
		return decodeMap(content)
	}
	v, simple, dup := plainValue(top)
	if !simple {
		return decodeMap(content)
	}
	if dup {
		return nil, false
	}
	return v.(map[string]any), true
}

// plainValue decodes n as yaml.Unmarshal into `any` would. simple is
// false when n holds what it does not model (then v is meaningless); dup
// is true when a mapping repeats a key (yaml.Unmarshal fails then).
func plainValue(n *yaml.Node) (v any, simple, dup bool) {
	switch n.Kind {
	case yaml.MappingNode:
		if n.Tag != "" && n.ShortTag() != "!!map" {
			return nil, false, false
		}
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
				return nil, false, false // merge keys, non-string keys
			}
			if _, seen := m[k.Value]; seen {
				dup = true
			}
			x, ok, d := plainValue(val)
			if !ok {
				return nil, false, false
			}
			dup = dup || d
			m[k.Value] = x
		}
		return m, true, dup
	case yaml.SequenceNode:
		if n.Tag != "" && n.ShortTag() != "!!seq" {
			return nil, false, false
		}
		s := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			x, ok, d := plainValue(c)
			if !ok {
				return nil, false, false
			}
			dup = dup || d
			s = append(s, x)
		}
		return s, true, dup
	case yaml.ScalarNode:
		if n.ShortTag() == "!!str" {
			return n.Value, true, false
		}
		var x any
		if err := n.Decode(&x); err != nil {
			return nil, false, false
		}
		return x, true, false
	}
	return nil, false, false // aliases and anything else
}

// parseChecked parses content as checked needs it: the first document
// (an error if it does not parse) and the number of documents, as
// countDocs counts them (-1 when a later one does not parse), in one pass.
func parseChecked(content []byte) (first *yaml.Node, docs int, err error) {
	dec := yaml.NewDecoder(bytes.NewReader(analysis.ForYAMLv3(content)))
	for ; docs < 1000; docs++ {
		var node yaml.Node
		if derr := dec.Decode(&node); derr != nil {
			if derr == io.EOF {
				return first, docs, nil
			}
			if docs == 0 {
				return nil, 0, derr
			}
			return first, -1, nil
		}
		if docs == 0 {
			first = &node
		}
	}
	return first, docs, nil
}
