package analysis

import (
	"slices"
	"strings"
)

// A keystroke in a tool's key renames one of 10,000 names: the memo keeps
// the index of the names A1 suggests from and updates it for the names
// that changed (a run between the common first and last names of the old
// and new lists) instead of indexing 10,000 names again.

// maxIndexUpdate is the most names update removes and inserts: beyond it,
// indexing the names again costs about as much.
const maxIndexUpdate = 256

// update brings ix to names (in the order of preference) in place: it
// removes the names of the old list between the common first and last
// names and inserts the new ones with ranks between their neighbours'. It
// reports false, leaving ix as it was, when that is not worth it (too many
// names, no room left between two ranks, or as many empty nodes as the
// index was built with): the caller indexes names anew then.
func (ix *nameIndex) update(names []string) bool {
	old := ix.names
	p, s := commonEnds(old, names)
	removed, inserted := old[p:len(old)-s], names[p:len(names)-s]
	if len(removed)+len(inserted) > maxIndexUpdate || len(ix.nodes) > 2*ix.built+64 {
		return false
	}
	lo, hi := -1, rankGap*(len(inserted)+1) // ranks are never negative (trieSearch)
	if p > 0 {
		lo = ix.ranks[p-1]
		hi = lo + rankGap*(len(inserted)+1)
	}
	if s > 0 {
		hi = ix.ranks[len(old)-s]
	}
	step := (hi - lo) / (len(inserted) + 1)
	if len(inserted) > 0 && step < 1 {
		return false
	}
	for i, name := range removed {
		ix.remove(name, ix.ranks[p+i])
	}
	ranks := make([]int, len(inserted)) // a few: the run that changed
	for i, name := range inserted {
		ranks[i] = lo + step*(i+1)
		ix.insert(name, ranks[i])
	}
	ix.names = slices.Replace(ix.names, p, len(old)-s, inserted...)
	ix.ranks = slices.Replace(ix.ranks, p, len(old)-s, ranks...)
	return true
}

// remove takes name at rank out of the trie (its nodes stay, maybe empty).
func (ix *nameIndex) remove(name string, rank int) {
	at := ix.find(name)
	n := &ix.nodes[at]
	n.names = slices.DeleteFunc(n.names, func(c rankedName) bool { return c.rank == rank && c.name == name })
}

// find returns the node of an indexed name.
func (ix *nameIndex) find(name string) int32 {
	at := int32(0)
	for _, r := range strings.ToLower(name) {
		c := ix.nodes[at].firstChild
		for ix.nodes[c].r != r {
			c = ix.nodes[c].next
		}
		at = c
	}
	return at
}

// suggestIndex returns the index of the names A1 suggests from, for st:
// the harness tools, the Beeuni tools, then the names st declares, in that
// order. With a memo it is the memo's, brought to those names. Building it
// is work of stop (newNameIndex).
func (m *resolveMemo) suggestIndex(stop *stopper, st *toolSet) *nameIndex {
	n := len(certainHarnessTools) + len(opencodeHarnessTools) + len(beeuniTools) + len(st.all)
	var names []string
	if m != nil {
		names = emptied(m.suggestNames, n)
	} else {
		names = make([]string, 0, n)
	}
	names = append(names, certainHarnessTools[:]...)
	names = append(names, opencodeHarnessTools[:]...)
	names = append(names, beeuniTools[:]...)
	for _, d := range st.all {
		if d.first {
			names = append(names, d.name)
		}
	}
	if m == nil {
		return newNameIndex(stop, names)
	}
	m.suggestNames = names
	if m.suggest == nil || !m.suggest.update(names) {
		m.suggest = newNameIndex(stop, slices.Clone(names))
	}
	return m.suggest
}
