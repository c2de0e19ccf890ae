package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"go.yaml.in/yaml/v3"
)

// instance turns a parsed YAML node into the value a schema validates, as
// yaml-language-server does: mappings with string keys (a key written twice
// keeps its first value, as the engine reads it; `<<` merge keys
// expanded), sequences, and scalars by their tag.
func instance(n *yaml.Node) (any, error) { return instanceAt(n, 0) }

func instanceAt(n *yaml.Node, depth int) (any, error) {
	if depth > 100 {
		return nil, fmt.Errorf("line %d: nested too deep", n.Line)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return instanceAt(n.Content[0], depth+1)
	case yaml.AliasNode:
		return instanceAt(n.Alias, depth+1)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, it := range n.Content {
			v, err := instanceAt(it, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := map[string]any{}
		var merged []*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
				merged = append(merged, v)
				continue
			}
			key := keyName(k)
			if _, seen := out[key]; seen {
				continue
			}
			val, err := instanceAt(v, depth+1)
			if err != nil {
				return nil, err
			}
			out[key] = val
		}
		for _, m := range merged {
			val, err := instanceAt(m, depth+1)
			if err != nil {
				return nil, err
			}
			maps, _ := val.([]any)
			if mm, ok := val.(map[string]any); ok {
				maps = []any{mm}
			}
			for _, x := range maps {
				mm, _ := x.(map[string]any)
				for k, v := range mm {
					if _, seen := out[k]; !seen {
						out[k] = v
					}
				}
			}
		}
		return out, nil
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, fmt.Errorf("line %d: %w", n.Line, err)
		}
		switch x := v.(type) {
		case int:
			return json.Number(strconv.Itoa(x)), nil
		case int64:
			return json.Number(strconv.FormatInt(x, 10)), nil
		case uint64:
			return json.Number(strconv.FormatUint(x, 10)), nil
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return x, nil
			}
			return json.Number(strconv.FormatFloat(x, 'g', -1, 64)), nil
		case time.Time:
			return n.Value, nil // YAML 1.2 (yaml-language-server) has no timestamps
		}
		return v, nil
	}
	return nil, fmt.Errorf("line %d: node kind %v", n.Line, n.Kind)
}
