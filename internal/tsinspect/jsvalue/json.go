package jsvalue

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// UnknownPart is a sub-value of the schema that is not statically known,
// left out of its JSON.
type UnknownPart struct {
	Path       string // where in the schema, e.g. "properties.year.description"
	File       string
	Start, End int
	Why        string
	Keys       bool // an object whose known keys are kept, with others unknown
}

// ToJSON renders what is known of a value as JSON, keys in source order
// (later duplicates win, in the position of the first), and lists what is
// left out: a sub-value not known is dropped from its object (an array
// with one is dropped whole), and an object with keys not known keeps the
// known ones. ok is false when the value itself is not known.
func ToJSON(v *Value) (json.RawMessage, []UnknownPart, bool) {
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
	unknown []UnknownPart
}

// known reports whether v can be written (JSON.stringify's view: functions
// and undefined are dropped from objects, nulls in arrays).
func jsonKnown(v *Value) bool {
	switch v.Kind {
	case VString, VBool, VNull, VArray, VObject, VUndefined, VFunction:
		return true
	case VNumber:
		_, ok := jsonNumber(v.Str)
		return ok
	}
	return false
}

func (w *jsonWriter) note(v *Value, path, why string) {
	if why == "" {
		why = WhyOf(v)
	}
	w.unknown = append(w.unknown, UnknownPart{Path: path, File: v.File, Start: v.Start, End: v.End, Why: why})
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func (w *jsonWriter) write(v *Value, path string, depth int) bool {
	if depth > maxEvalDepth || !jsonKnown(v) {
		return false
	}
	b := w.b
	switch v.Kind {
	case VString:
		s, _ := json.Marshal(v.Str)
		b.Write(s)
	case VNumber:
		n, _ := jsonNumber(v.Str)
		b.WriteString(n)
	case VBool:
		b.WriteString(v.Str)
	case VNull:
		b.WriteString("null")
	case VArray:
		if !v.Complete {
			return false
		}
		for i, it := range v.Items {
			if !jsonKnown(it) {
				w.note(it, fmt.Sprintf("%s[%d]", path, i), "")
				return false
			}
		}
		mark := b.Len()
		b.WriteByte('[')
		for i, it := range v.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			if it.Kind == VUndefined || it.Kind == VFunction {
				b.WriteString("null") // as JSON.stringify does
				continue
			}
			if !w.write(it, fmt.Sprintf("%s[%d]", path, i), depth+1) {
				b.Truncate(mark)
				return false
			}
		}
		b.WriteByte(']')
	case VObject:
		if !v.Complete {
			w.unknown = append(w.unknown, UnknownPart{Path: path, File: v.File, Start: v.Start, End: v.Start + 1, Keys: true,
				Why: "it has keys that cannot be known statically (a spread, a computed key or a `__proto__`)"})
		}
		b.WriteByte('{')
		lastOf := make(map[string]*Prop, len(v.Props))
		for _, p := range v.Props {
			lastOf[p.Key] = p
		}
		seen := make(map[string]bool, len(v.Props))
		first := true
		for _, p := range v.Props {
			if p.Key == "" || seen[p.Key] {
				continue
			}
			seen[p.Key] = true
			last := lastOf[p.Key]
			if last.Val.Kind == VUndefined || last.Val.Kind == VFunction {
				continue // JSON.stringify drops them
			}
			sub := joinPath(path, p.Key)
			if !jsonKnown(last.Val) {
				w.note(last.Val, sub, "")
				continue
			}
			mark := b.Len()
			if !first {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(p.Key)
			b.Write(k)
			b.WriteByte(':')
			if !w.write(last.Val, sub, depth+1) {
				b.Truncate(mark) // an array with an unknown item: noted inside
				if last.Val.Kind == VArray && !last.Val.Complete {
					w.note(last.Val, sub, "an array with items that cannot be known statically")
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
