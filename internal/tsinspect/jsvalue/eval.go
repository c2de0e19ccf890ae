package jsvalue

import (
	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/resolve"
)

// eval.go holds the values the value reader follows statically (literals,
// objects and arrays, functions and classes, `const` bindings of the same
// module and exports of relative imports: evalnode.go, evalobject.go,
// eval_values.go, eval_refs.go, lowered.go). Everything else is "not known"
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

// evaluator follows values across the module and its relative imports.
type Reader struct {
	res     *resolve.Resolver
	Files   map[string]*File   // lexed modules by path; nil entry: unreadable
	Data    map[string][]byte  // data files (JSON, text) read, by path
	consts  map[declKey]*Value // memo of declarations' values
	busy    map[declKey]bool   // cycle guard
	depth   int
	maxWork int // bounds total work on pathological input
	// room bounds the size of the values built (string bytes, array
	// items, object properties), which doubling bindings grow
	// exponentially while maxWork counts only the nodes read
	room int
	// tree parses a file the values are followed into (nil when it does
	// not parse)
	tree func(file string, src []byte) *jsfront.Tree
}

// declKey names a declaration of a file.
type declKey struct {
	m *File
	v *js.Var
}

func NewReader(res *resolve.Resolver, main *File, tree func(file string, src []byte) *jsfront.Tree) *Reader {
	return &Reader{
		res:     res,
		Files:   map[string]*File{main.path: main},
		Data:    map[string][]byte{},
		consts:  map[declKey]*Value{},
		busy:    map[declKey]bool{},
		maxWork: 200000,
		room:    maxBuilt,
		tree:    tree,
	}
}

// maxBuilt is the total size of the values one inspection builds: 4 MiB
// of strings, or as many items and properties.
const maxBuilt = 4 << 20

// tooLarge is the reason of a value past maxBuilt.
const tooLarge = "too large to follow statically"

// fits takes n from the room left for the values built; false when it is
// not there (the value is then not known: tooLarge).
func (e *Reader) fits(n int) bool {
	if n > e.room {
		e.room = 0
		return false
	}
	e.room -= n
	return true
}

// tooLargeAmong reports whether one of vs is not known for being too
// large (a value built from it is too large too).
func tooLargeAmong(vs []*Value) bool {
	for _, v := range vs {
		if v != nil && v.Kind == VUnknown && v.Why == tooLarge {
			return true
		}
	}
	return false
}

func unknown(m *File, start, end int, why string) *Value {
	return &Value{Kind: VUnknown, File: m.path, Start: start, End: end, Why: why}
}

// member reads a property of a known object or an export of a namespace.
func (e *Reader) member(m *File, v *Value, name string, start, end int) *Value {
	switch v.Kind {
	case VObject:
		if p := v.Get(name); p != nil {
			return p.Val
		}
		if v.Complete {
			return &Value{Kind: VUndefined, File: m.path, Start: start, End: end}
		}
	case VNamespace:
		return e.export(v.ns, name, m, start, end)
	}
	u := unknown(m, start, end, "a property read when the module runs")
	if v.Kind == VUnknown && v.CalleeRef != nil {
		u.CalleeRef = &importBinding{Spec: v.CalleeRef.Spec, Name: v.CalleeRef.Name + "." + name}
	}
	return u
}

func WhyOf(v *Value) string {
	if v.Why != "" {
		return v.Why
	}
	return "computed when the module runs"
}
