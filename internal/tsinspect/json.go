package tsinspect

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// toJSON renders a fully known value as JSON, keys in source order (later
// duplicates win, in the position of the first). It fails on anything not
// known or not JSON (functions, undefined, regular expressions).
func toJSON(v *value) (json.RawMessage, bool) {
	var b bytes.Buffer
	if !writeJSON(&b, v, 0) {
		return nil, false
	}
	return json.RawMessage(b.Bytes()), true
}

func writeJSON(b *bytes.Buffer, v *value, depth int) bool {
	if depth > maxEvalDepth {
		return false
	}
	switch v.kind {
	case vString:
		s, _ := json.Marshal(v.str)
		b.Write(s)
	case vNumber:
		n, ok := jsonNumber(v.str)
		if !ok {
			return false
		}
		b.WriteString(n)
	case vBool:
		b.WriteString(v.str)
	case vNull:
		b.WriteString("null")
	case vArray:
		if !v.complete {
			return false
		}
		b.WriteByte('[')
		for i, it := range v.items {
			if i > 0 {
				b.WriteByte(',')
			}
			if it.kind == vUndefined || it.kind == vFunction {
				b.WriteString("null") // as JSON.stringify does
				continue
			}
			if !writeJSON(b, it, depth+1) {
				return false
			}
		}
		b.WriteByte(']')
	case vObject:
		if !v.complete {
			return false
		}
		b.WriteByte('{')
		lastOf := make(map[string]*prop, len(v.props))
		for _, p := range v.props {
			lastOf[p.key] = p
		}
		seen := make(map[string]bool, len(v.props))
		first := true
		for _, p := range v.props {
			if seen[p.key] {
				continue
			}
			seen[p.key] = true
			last := lastOf[p.key]
			if last.val.kind == vUndefined || last.val.kind == vFunction {
				continue // JSON.stringify drops them
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			k, _ := json.Marshal(p.key)
			b.Write(k)
			b.WriteByte(':')
			if !writeJSON(b, last.val, depth+1) {
				return false
			}
		}
		b.WriteByte('}')
	default:
		return false
	}
	return true
}

// jsonNumber converts a JavaScript numeric literal to JSON.
func jsonNumber(src string) (string, bool) {
	s := strings.ReplaceAll(src, "_", "")
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if strings.HasSuffix(s, "n") {
		return "", false // BigInt: JSON.stringify throws
	}
	var f float64
	if len(s) > 2 && s[0] == '0' && strings.ContainsRune("xXoObB", rune(s[1])) {
		u, err := strconv.ParseUint(s[2:], map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[s[1]], 64)
		if err != nil {
			return "", false
		}
		f = float64(u)
	} else {
		var err error
		f, err = strconv.ParseFloat(s, 64)
		if err != nil {
			return "", false
		}
	}
	if neg {
		f = -f
	}
	out, err := json.Marshal(f)
	if err != nil {
		return "", false
	}
	return string(out), true
}
