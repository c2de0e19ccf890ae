package edit

import (
	"go.yaml.in/yaml/v3"
)

// scalarSpan returns the byte range of a scalar's text (quotes included),
// checked: decoding exactly those bytes gives the node's value. Block
// scalars, aliases and multi-line scalars are refused with errUnsupported.
func (f *yfile) scalarSpan(n *yaml.Node, flow bool) (start, end int, err error) {
	if n.Kind != yaml.ScalarNode || n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return 0, 0, errUnsupported
	}
	c := f.content
	start = f.start(n)
	if start >= len(c) {
		return 0, 0, errUnsupported
	}
	switch c[start] {
	case '"':
		end = -1
		for j := start + 1; j < len(c) && c[j] != '\n' && c[j] != '\r'; j++ {
			if c[j] == '\\' {
				j++
				continue
			}
			if c[j] == '"' {
				end = j + 1
				break
			}
		}
	case '\'':
		end = -1
		for j := start + 1; j < len(c) && c[j] != '\n' && c[j] != '\r'; j++ {
			if c[j] == '\'' {
				if j+1 < len(c) && c[j+1] == '\'' {
					j++
					continue
				}
				end = j + 1
				break
			}
		}
	default:
		end = start
		for end < len(c) && c[end] != '\n' && c[end] != '\r' {
			if c[end] == '#' && end > start && isBlank(c[end-1]) {
				break
			}
			if flow && (c[end] == ',' || c[end] == ']' || c[end] == '}' || c[end] == '[' || c[end] == '{') {
				break
			}
			if c[end] == ':' && end+1 < len(c) && (isBlank(c[end+1]) || c[end+1] == '\n' || c[end+1] == '\r' || flow && c[end+1] == ',') {
				break
			}
			end++
		}
		for end > start && isBlank(c[end-1]) {
			end--
		}
	}
	if end <= start {
		// An empty plain value (`key:` with nothing) has no text to replace.
		if end == start && n.Value == "" && n.Style == 0 {
			return start, start, nil
		}
		return 0, 0, errUnsupported
	}
	if v, ok := decodeScalar(c[start:end]); !ok || v != n.Value {
		return 0, 0, errUnsupported
	}
	return start, end, nil
}

// decodeScalar decodes one scalar's text on its own.
func decodeScalar(text []byte) (string, bool) {
	var n yaml.Node
	if err := yaml.Unmarshal(append([]byte("v: "), text...), &n); err != nil {
		return "", false
	}
	if len(n.Content) != 1 || len(n.Content[0].Content) != 2 || n.Content[0].Content[1].Kind != yaml.ScalarNode {
		return "", false
	}
	return n.Content[0].Content[1].Value, true
}

// requote writes a new plain-safe value in the quoting style of n.
func requote(n *yaml.Node, value string) string {
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		return `"` + value + `"`
	case n.Style&yaml.SingleQuotedStyle != 0:
		return "'" + value + "'"
	}
	return value
}
