package edit

import (
	"bytes"
	"io"
	"reflect"

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
//
// known holds what the collection nodes of a parse mean (nil: nothing
// known): a node found there means what it holds, the same maps and
// slices, so that two documents whose parses share nodes (an edited
// version of a file, File.ParseEdited) share their meaning there, which
// sameMeaning compares by identity. With keep, what the nodes not found
// mean is added to known.
func meaningOf(doc *yaml.Node, content []byte, known nodeMeanings, keep bool) (map[string]any, bool) {
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
	r := plainReader{known: known, keep: keep}
	v, simple, dup := r.value(top)
	if !simple {
		return decodeMap(content)
	}
	if dup {
		return nil, false
	}
	return v.(map[string]any), true
}

// plain is what plainReader.value makes of a node.
type plain struct {
	v           any
	simple, dup bool
}

// nodeMeanings holds what the collection nodes of a parse mean, by node.
type nodeMeanings map[*yaml.Node]plain

// plainReader decodes nodes as yaml.Unmarshal into `any` would, looking
// collection nodes up in known first (and, with keep, adding them).
type plainReader struct {
	known nodeMeanings
	keep  bool
}

// value decodes n. simple is false when n holds what it does not model
// (then v is meaningless); dup is true when a mapping repeats a key
// (yaml.Unmarshal fails then).
func (r plainReader) value(n *yaml.Node) (v any, simple, dup bool) {
	if n.Kind != yaml.MappingNode && n.Kind != yaml.SequenceNode {
		return plainValue(n, r)
	}
	if p, ok := r.known[n]; ok {
		return p.v, p.simple, p.dup
	}
	v, simple, dup = plainValue(n, r)
	if r.keep && r.known != nil {
		r.known[n] = plain{v, simple, dup}
	}
	return v, simple, dup
}

// plainValue decodes n, its children through r.
func plainValue(n *yaml.Node, r plainReader) (v any, simple, dup bool) {
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
			x, ok, d := r.value(val)
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
			x, ok, d := r.value(c)
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

// sameMeaning reports whether a and b, meanings as meaningOf and decodeMap
// make them, are equal as reflect.DeepEqual says, without reflection for
// the maps, slices and strings a manifest is made of, and at once for one
// map or slice found on both sides (a meaning shared, see meaningOf).
func sameMeaning(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		if reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer() {
			return true
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !sameMeaning(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		if len(x) > 0 && &x[0] == &y[0] {
			return true
		}
		for i := range x {
			if !sameMeaning(x[i], y[i]) {
				return false
			}
		}
		return true
	case string:
		y, ok := b.(string)
		return ok && x == y
	}
	return reflect.DeepEqual(a, b)
}
