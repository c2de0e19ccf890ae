package jsvalue

import (
	"sort"
	"strconv"
	"strings"
)

// builtins.go follows the calls of JavaScript's built-ins whose result is
// known from known arguments: `Object.freeze`, `Object.keys`,
// `Object.values` (in JavaScript's key order) and `[...].join(sep)`.

// jsKeyOrder orders properties as JavaScript enumerates them: integer keys
// ascending first, then the others in the order they were added.
func jsKeyOrder(props []*Prop) []*Prop {
	var ints, others []*Prop
	for _, p := range props {
		if n, err := strconv.ParseUint(p.Key, 10, 32); err == nil && strconv.FormatUint(n, 10) == p.Key {
			ints = append(ints, p)
		} else {
			others = append(others, p)
		}
	}
	sort.SliceStable(ints, func(i, j int) bool {
		a, b := ints[i].Key, ints[j].Key
		return len(a) < len(b) || len(a) == len(b) && a < b // canonical: no leading zeros
	})
	return append(ints, others...)
}

// builtinCall is the value of a call of a standard function on known
// values, or nil: `Object.freeze(x)` is x; `Object.keys(o)` and
// `Object.values(o)` of a known object; `a.join(sep)` of a known array.
func (e *Reader) builtinCall(m *File, start int, callee string, recv *Value, method string, args []*Value) *Value {
	if strings.HasPrefix(callee, "Object.") && m.Global(start, "Object") && len(args) == 1 {
		a := args[0]
		switch callee {
		case "Object.freeze", "Object.seal", "Object.preventExtensions":
			return a
		case "Object.keys", "Object.values":
			if a.Kind != VObject || !a.Complete {
				return nil
			}
			if !e.fits(len(a.Props)) {
				return unknown(m, a.Start, a.End, tooLarge)
			}
			out := &Value{Kind: VArray, File: a.File, Start: a.Start, End: a.End, Complete: true}
			// a key repeated keeps its first place and takes its last value
			at := map[string]int{}
			var props []*Prop
			for _, p := range a.Props {
				if p.inherited {
					continue
				}
				if k, ok := at[p.Key]; ok {
					props[k] = &Prop{Key: p.Key, File: props[k].File, Start: props[k].Start, End: props[k].End, Val: p.Val}
					continue
				}
				at[p.Key] = len(props)
				props = append(props, p)
			}
			for _, p := range jsKeyOrder(props) {
				if callee == "Object.keys" {
					out.Items = append(out.Items, &Value{Kind: VString, File: p.File, Start: p.Start, End: p.End, Str: p.Key})
				} else {
					out.Items = append(out.Items, p.Val)
				}
			}
			return out
		}
	}
	if recv != nil && recv.Kind == VArray && recv.Complete && method == "join" && len(args) <= 1 {
		sep := ","
		if len(args) == 1 {
			if args[0].Kind != VString {
				return nil
			}
			sep = args[0].Str
		}
		parts := make([]string, len(recv.Items))
		size := len(sep) * len(recv.Items)
		for i, it := range recv.Items {
			if it.Kind == VNull || it.Kind == VUndefined {
				continue // join writes nothing for them
			}
			s, ok := jsString(it)
			if !ok {
				return nil
			}
			parts[i] = s
			size += len(s)
		}
		if !e.fits(size) {
			return unknown(m, recv.Start, recv.End, tooLarge)
		}
		return &Value{Kind: VString, File: recv.File, Start: recv.Start, End: recv.End, Str: strings.Join(parts, sep)}
	}
	return nil
}
