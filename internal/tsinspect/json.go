package tsinspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// unknownPart is a sub-value of the schema that is not statically known,
// left out of its JSON.
type unknownPart struct {
	path       string // where in the schema, e.g. "properties.year.description"
	file       string
	start, end int
	why        string
	keys       bool // an object whose known keys are kept, with others unknown
}

// toJSON renders what is known of a value as JSON, keys in source order
// (later duplicates win, in the position of the first), and lists what is
// left out: a sub-value not known is dropped from its object (an array
// with one is dropped whole), and an object with keys not known keeps the
// known ones. ok is false when the value itself is not known.
func toJSON(v *value) (json.RawMessage, []unknownPart, bool) {
	var b bytes.Buffer
	w := jsonWriter{b: &b}
	if !w.write(v, "", 0) {
		return nil, w.unknown, false
	}
	// A result keeps its schema: a copy of its length, not the buffer's
	// grown array (about half of it unused).
	return json.RawMessage(bytes.Clone(b.Bytes())), w.unknown, true
}

type jsonWriter struct {
	b       *bytes.Buffer
	unknown []unknownPart
}

// known reports whether v can be written (JSON.stringify's view: functions
// and undefined are dropped from objects, nulls in arrays).
func jsonKnown(v *value) bool {
	switch v.kind {
	case vString, vBool, vNull, vArray, vObject, vUndefined, vFunction:
		return true
	case vNumber:
		_, ok := jsonNumber(v.str)
		return ok
	}
	return false
}

func (w *jsonWriter) note(v *value, path, why string) {
	if why == "" {
		why = whyOf(v)
	}
	w.unknown = append(w.unknown, unknownPart{path: path, file: v.file, start: v.start, end: v.end, why: why})
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func (w *jsonWriter) write(v *value, path string, depth int) bool {
	if depth > maxEvalDepth || !jsonKnown(v) {
		return false
	}
	b := w.b
	switch v.kind {
	case vString:
		s, _ := json.Marshal(v.str)
		b.Write(s)
	case vNumber:
		n, _ := jsonNumber(v.str)
		b.WriteString(n)
	case vBool:
		b.WriteString(v.str)
	case vNull:
		b.WriteString("null")
	case vArray:
		if !v.complete {
			return false
		}
		for i, it := range v.items {
			if !jsonKnown(it) {
				w.note(it, fmt.Sprintf("%s[%d]", path, i), "")
				return false
			}
		}
		mark := b.Len()
		b.WriteByte('[')
		for i, it := range v.items {
			if i > 0 {
				b.WriteByte(',')
			}
			if it.kind == vUndefined || it.kind == vFunction {
				b.WriteString("null") // as JSON.stringify does
				continue
			}
			if !w.write(it, fmt.Sprintf("%s[%d]", path, i), depth+1) {
				b.Truncate(mark)
				return false
			}
		}
		b.WriteByte(']')
	case vObject:
		if !v.complete {
			w.unknown = append(w.unknown, unknownPart{path: path, file: v.file, start: v.start, end: v.start + 1, keys: true,
				why: "it has keys that cannot be known statically (a spread, a computed key or a `__proto__`)"})
		}
		b.WriteByte('{')
		lastOf := make(map[string]*prop, len(v.props))
		for _, p := range v.props {
			lastOf[p.key] = p
		}
		seen := make(map[string]bool, len(v.props))
		first := true
		for _, p := range v.props {
			if p.key == "" || seen[p.key] {
				continue
			}
			seen[p.key] = true
			last := lastOf[p.key]
			if last.val.kind == vUndefined || last.val.kind == vFunction {
				continue // JSON.stringify drops them
			}
			sub := joinPath(path, p.key)
			if !jsonKnown(last.val) {
				w.note(last.val, sub, "")
				continue
			}
			mark := b.Len()
			if !first {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(p.key)
			b.Write(k)
			b.WriteByte(':')
			if !w.write(last.val, sub, depth+1) {
				b.Truncate(mark) // an array with an unknown item: noted inside
				if last.val.kind == vArray && !last.val.complete {
					w.note(last.val, sub, "an array with items that cannot be known statically")
				}
				continue
			}
			first = false
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
