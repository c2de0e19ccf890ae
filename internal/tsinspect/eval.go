package tsinspect

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

type vkind int

const (
	vUnknown vkind = iota
	vObject
	vArray
	vString
	vNumber
	vBool
	vNull
	vUndefined
	vFunction
	vClass
	vCall      // a call; the callee and arguments are kept for messages
	vNamespace // `import * as ns from './x'`
	vRegex
)

// kindName is how a message names a kind of value.
func (k vkind) name() string {
	switch k {
	case vObject:
		return "an object"
	case vArray:
		return "an array"
	case vString:
		return "a string"
	case vNumber:
		return "a number"
	case vBool:
		return "a boolean"
	case vNull:
		return "null"
	case vUndefined:
		return "undefined"
	case vFunction:
		return "a function"
	case vClass:
		return "a class"
	case vRegex:
		return "a regular expression"
	}
	return "a computed value"
}

type value struct {
	kind       vkind
	file       string // the file the value's source is in
	start, end int    // byte range of the expression in file
	str        string // vString; vNumber source; vBool "true"/"false"
	props      []*prop
	complete   bool // vObject: every key known; vArray: every item known
	items      []*value
	why        string // vUnknown/vCall: why it is not known
	callee     string // vCall: the callee as written
	calleeRef  *importBinding
	args       []*value
	ns         *modFile // vNamespace
	accessor   bool     // a getter/setter property value
	index      map[string]*prop
}

type prop struct {
	key        string
	file       string
	start, end int // the key's range
	val        *value
	// inherited marks a class's method on an instance: not an own
	// property (not enumerated)
	inherited bool
}

// get returns the last property named key (later keys win, as at run time).
// A large object is indexed on first use (values are not modified after
// they are built, and one inspection runs on one goroutine).
func (v *value) get(key string) *prop {
	if v == nil || v.kind != vObject {
		return nil
	}
	if len(v.props) > 16 {
		if v.index == nil {
			v.index = make(map[string]*prop, len(v.props))
			for _, p := range v.props {
				v.index[p.key] = p
			}
		}
		return v.index[key]
	}
	for i := len(v.props) - 1; i >= 0; i-- {
		if v.props[i].key == key {
			return v.props[i]
		}
	}
	return nil
}

// evaluator follows values across the module and its relative imports.
type evaluator struct {
	res     *resolve.Resolver
	files   map[string]*modFile // lexed modules by path; nil entry: unreadable
	data    map[string][]byte   // data files (JSON, text) read, by path
	consts  map[declKey]*value  // memo of declarations' values
	busy    map[declKey]bool    // cycle guard
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
	m *modFile
	v *js.Var
}

func newEvaluator(res *resolve.Resolver, main *modFile, tree func(file string, src []byte) *jsfront.Tree) *evaluator {
	return &evaluator{
		res:     res,
		files:   map[string]*modFile{main.path: main},
		data:    map[string][]byte{},
		consts:  map[declKey]*value{},
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
func (e *evaluator) fits(n int) bool {
	if n > e.room {
		e.room = 0
		return false
	}
	e.room -= n
	return true
}

// tooLargeAmong reports whether one of vs is not known for being too
// large (a value built from it is too large too).
func tooLargeAmong(vs []*value) bool {
	for _, v := range vs {
		if v != nil && v.kind == vUnknown && v.why == tooLarge {
			return true
		}
	}
	return false
}

func unknown(m *modFile, start, end int, why string) *value {
	return &value{kind: vUnknown, file: m.path, start: start, end: end, why: why}
}

// member reads a property of a known object or an export of a namespace.
func (e *evaluator) member(m *modFile, v *value, name string, start, end int) *value {
	switch v.kind {
	case vObject:
		if p := v.get(name); p != nil {
			return p.val
		}
		if v.complete {
			return &value{kind: vUndefined, file: m.path, start: start, end: end}
		}
	case vNamespace:
		return e.export(v.ns, name, m, start, end)
	}
	u := unknown(m, start, end, "a property read when the module runs")
	if v.kind == vUnknown && v.calleeRef != nil {
		u.calleeRef = &importBinding{spec: v.calleeRef.spec, name: v.calleeRef.name + "." + name}
	}
	return u
}

func whyOf(v *value) string {
	if v.why != "" {
		return v.why
	}
	return "computed when the module runs"
}
