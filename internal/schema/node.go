package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Node is one JSON Schema (draft-07) object, with its keywords in the
// order the file shows them: what the schema says, then how.
type Node struct {
	Schema               string   `json:"$schema,omitempty"`
	ID                   string   `json:"$id,omitempty"`
	Ref                  string   `json:"$ref,omitempty"`
	Title                string   `json:"title,omitempty"`
	Description          string   `json:"description,omitempty"`
	Type                 string   `json:"type,omitempty"`
	Const                *string  `json:"const,omitempty"`
	Enum                 []string `json:"enum,omitempty"`
	Pattern              string   `json:"pattern,omitempty"`
	Examples             []any    `json:"examples,omitempty"`
	Properties           *Props   `json:"properties,omitempty"`
	Required             []string `json:"required,omitempty"`
	PropertyNames        *Node    `json:"propertyNames,omitempty"`
	AdditionalProperties any      `json:"additionalProperties,omitempty"` // true, false or a *Node
	Items                *Node    `json:"items,omitempty"`
	UniqueItems          bool     `json:"uniqueItems,omitempty"`
	AnyOf                []*Node  `json:"anyOf,omitempty"`
	Not                  *Node    `json:"not,omitempty"`
	Definitions          *Props   `json:"definitions,omitempty"`
}

// Props is a keyword whose value maps names to schemas (properties,
// definitions), kept in the order they were added.
type Props struct {
	names []string
	nodes map[string]*Node
}

// Add appends name with its schema and returns p.
func (p *Props) Add(name string, n *Node) *Props {
	if p.nodes == nil {
		p.nodes = map[string]*Node{}
	}
	p.names = append(p.names, name)
	p.nodes[name] = n
	return p
}

// MarshalJSON writes the names in the order they were added.
func (p *Props) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, name := range p.names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := marshal(name, "")
		if err != nil {
			return nil, err
		}
		v, err := marshal(p.nodes[name], "")
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal is json.Marshal without HTML escapes (descriptions say
// `<name>`), indented by indent when it is not empty.
func marshal(v any, indent string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// JSON returns the manifest schema as the file schema/beeuni.schema.json
// holds it: indented by two spaces, ending in a newline.
func JSON() ([]byte, error) {
	m, err := Manifest()
	if err != nil {
		return nil, err
	}
	b, err := marshal(m, "  ")
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return append(b, '\n'), nil
}
