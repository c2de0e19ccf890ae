package analysis

import (
	"iter"
	"slices"
)

// View is the tools an agent's model sees, in order: the names listed, or
// the agents' universe (every tool an agent can see) less the names at some
// of its places. An agent that sees every tool but three shares the
// universe instead of holding a copy of 10,000 names less three, so a
// keystroke that renames a tool makes one new universe, not one per agent
// excluding tools. Read-only: models share views.
type View struct {
	names   []string // the names seen, or the universe; nil: no view (A3)
	removed []int    // increasing places in names of the names not seen
}

// listView is a view of names.
func listView(names []string) View { return View{names: names} }

// Valid reports whether the agent has a view: false when its tools value
// is of no form (A3).
func (v View) Valid() bool { return v.names != nil }

// Len returns the number of tools seen.
func (v View) Len() int { return len(v.names) - len(v.removed) }

// All yields the tools seen, in order.
func (v View) All() iter.Seq[string] {
	return func(yield func(string) bool) {
		next := 0 // the first of removed not passed yet
		for i, n := range v.names {
			if next < len(v.removed) && v.removed[next] == i {
				next++
				continue
			}
			if !yield(n) {
				return
			}
		}
	}
}

// Contains reports whether name is among the tools seen.
func (v View) Contains(name string) bool {
	for n := range v.All() {
		if n == name {
			return true
		}
	}
	return false
}

// Names returns the tools seen, in a new slice (never nil).
func (v View) Names() []string {
	return slices.AppendSeq(make([]string, 0, v.Len()), v.All())
}

// sameView reports whether two views are the same: the same storage, or
// short lists of equal names (sameShort).
func sameView(a, b View) bool {
	return sameShort(a.names, b.names) && sameShort(a.removed, b.removed)
}
