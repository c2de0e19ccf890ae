package jsvalue

// value.go holds the values the reader follows statically (literals,
// objects and arrays, functions and classes, `const` bindings of the same
// module and exports of relative imports). Everything else is "not known"
// with a reason, never a guess.

// Kind is what sort of value the reader found.
type Kind int

const (
	VUnknown Kind = iota
	VObject
	VArray
	VString
	VNumber
	VBool
	VNull
	VUndefined
	VFunction
	VClass
	VCall      // a call; the callee and arguments are kept for messages
	VNamespace // `import * as ns from './x'`
	VRegex
)

// kindName is how a message names a kind of value.
func (k Kind) Name() string {
	switch k {
	case VObject:
		return "an object"
	case VArray:
		return "an array"
	case VString:
		return "a string"
	case VNumber:
		return "a number"
	case VBool:
		return "a boolean"
	case VNull:
		return "null"
	case VUndefined:
		return "undefined"
	case VFunction:
		return "a function"
	case VClass:
		return "a class"
	case VRegex:
		return "a regular expression"
	}
	return "a computed value"
}

// Value is a value the reader found, at its place in the user's text.
type Value struct {
	Kind       Kind
	File       string // the file the value's source is in
	Start, End int    // byte range of the expression in file
	Str        string // VString; VNumber source; VBool "true"/"false"
	Props      []*Prop
	Complete   bool // VObject: every key known; VArray: every item known
	Items      []*Value
	Why        string // VUnknown/VCall: why it is not known
	Callee     string // VCall: the callee as written
	CalleeRef  *importBinding
	Args       []*Value
	ns         *File // VNamespace
	Accessor   bool  // a getter/setter property value
	index      map[string]*Prop
}

// Prop is a property of an object value: its key's place and its value.
type Prop struct {
	Key        string
	File       string
	Start, End int // the key's range
	Val        *Value
	// inherited marks a class's method on an instance: not an own
	// property (not enumerated)
	inherited bool
}

// Get returns the last property named key (later keys win, as at run time).
// A large object is indexed on first use (values are not modified after
// they are built, and one inspection runs on one goroutine).
func (v *Value) Get(key string) *Prop {
	if v == nil || v.Kind != VObject {
		return nil
	}
	if len(v.Props) > 16 {
		if v.index == nil {
			v.index = make(map[string]*Prop, len(v.Props))
			for _, p := range v.Props {
				v.index[p.Key] = p
			}
		}
		return v.index[key]
	}
	for i := len(v.Props) - 1; i >= 0; i-- {
		if v.Props[i].Key == key {
			return v.Props[i]
		}
	}
	return nil
}

func unknown(m *File, start, end int, why string) *Value {
	return &Value{Kind: VUnknown, File: m.path, Start: start, End: end, Why: why}
}

func WhyOf(v *Value) string {
	if v.Why != "" {
		return v.Why
	}
	return "computed when the module runs"
}
