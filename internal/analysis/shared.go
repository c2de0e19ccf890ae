package analysis

import "slices"

// sharedSlice builds a model's Tools or Agents sharing the last load's: as
// long as the pointers added are to values equal to the last load's, in
// order, nothing is copied, and the result is that slice (or its first
// part) again. A Tool and an Agent hold Spans, not offsets, so an edit that
// adds no line above them leaves them equal: a keystroke in a comment or at
// the end of the file allocates no Tool and no Agent; one in an entry makes
// a new slice of pointers, the memo's outcomes keeping the values that did
// not change (toolOutcome, agentDeps). The last load's slice is shared with
// its Project: read-only, as every Model is, and handed out with its
// capacity cut to its length, so that an append to either model's slice
// copies instead of writing into the other's.
type sharedSlice[T any] struct {
	prev  []T // the last load's (nil without a memo)
	size  int // the most values the load may add
	equal func(a, b T) bool
	same  int // values equal to prev's first ones, not copied
	out   []T // nil while every value is prev's
}

func (b *sharedSlice[T]) add(v T) {
	if b.out == nil {
		if b.same < len(b.prev) && b.equal(b.prev[b.same], v) {
			b.same++
			return
		}
		b.out = make([]T, b.same, max(b.size, b.same+1))
		copy(b.out, b.prev)
	}
	b.out = append(b.out, v)
}

// next returns the last load's value that an equal value added now would
// share, if any.
func (b *sharedSlice[T]) next() (v T, ok bool) {
	if b.out != nil || b.same >= len(b.prev) {
		return v, false
	}
	return b.prev[b.same], true
}

// result is the slice built: never nil.
func (b *sharedSlice[T]) result() []T {
	switch {
	case b.out != nil:
		return b.out[:len(b.out):len(b.out)]
	case b.prev == nil:
		return []T{}
	}
	return b.prev[:b.same:b.same]
}

// sameTool compares two tools by value: a declaration parsed again (its
// chunk moved) gives a new outcome with an equal Tool, and the model keeps
// the last one's.
func sameTool(a, b *Tool) bool { return a == b || *a == *b }

// sameAgent reports whether two agents are equal. Their slices are
// compared by storage first (what the memo hands from load to load, the
// universe the views share), then, for an agent read again, element by
// element when short: a view of 10,000 tools is not compared name by name
// (the agent is then made again, not shared).
func sameAgent(a, b *Agent) bool {
	return a == b || a.Name == b.Name && a.File == b.File && a.Key == b.Key && a.ToolsKey == b.ToolsKey &&
		a.ToolsValue == b.ToolsValue && a.Form == b.Form && a.Secrets.Form == b.Secrets.Form &&
		sameShort(a.Refs, b.Refs) && sameView(a.Sees, b.Sees) && sameShort(a.Secrets.Names, b.Secrets.Names)
}

// sameShort reports whether a and b are equal, nil apart from empty: the
// same storage, or at most 64 equal elements.
func sameShort[T comparable](a, b []T) bool {
	switch {
	case (a == nil) != (b == nil) || len(a) != len(b):
		return false
	case len(a) == 0 || &a[0] == &b[0]:
		return true
	}
	return len(a) <= 64 && slices.Equal(a, b)
}
