package jsvalue

import (
	"github.com/tdewolff/parse/v2/js"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect/jsfront"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect/resolve"
)

// reader.go is the Reader: the files it has read, the declarations it is
// following (a cycle is not known), and the bound on the size of what it
// builds.

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
