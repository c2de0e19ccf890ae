package analysis

import (
	"io/fs"
	"slices"
	"strings"
)

type dirInfo struct {
	// sorted is the listing when its names strictly increase (os.ReadDir
	// sorts): looked up by binary search, no map built. Otherwise entries
	// maps each name to its type bits.
	sorted  []fs.DirEntry
	entries map[string]fs.FileMode
	// next is the index after the last name found in sorted: tools are
	// often declared in the order of their files, so it is tried first.
	next int
}

// lookup returns the type bits of a directory entry.
func (di *dirInfo) lookup(name string) (fs.FileMode, bool) {
	if di.sorted == nil {
		mode, ok := di.entries[name]
		return mode, ok
	}
	if i := di.next; i < len(di.sorted) && di.sorted[i].Name() == name {
		di.next = i + 1
		return di.sorted[i].Type(), true
	}
	i, found := slices.BinarySearchFunc(di.sorted, name, func(e fs.DirEntry, n string) int { return strings.Compare(e.Name(), n) })
	if !found {
		return 0, false
	}
	di.next = i + 1
	return di.sorted[i].Type(), true
}

func (l *loader) dir(d string) *dirInfo {
	if di, ok := l.dirs[d]; ok {
		return di
	}
	di := &dirInfo{}
	if list, err := l.fsys.ReadDir(d); err == nil {
		if namesIncrease(list) {
			di.sorted = list
		} else {
			di.entries = make(map[string]fs.FileMode, len(list))
			for _, e := range list {
				di.entries[e.Name()] = e.Type()
			}
		}
	}
	l.dirs[d] = di
	return di
}

func namesIncrease(list []fs.DirEntry) bool {
	for i := 1; i < len(list); i++ {
		if list[i-1].Name() >= list[i].Name() {
			return false
		}
	}
	return true
}

// entry looks up abs (split into dir and base) in its folder's listing.
// The last lookup is remembered: a tool's path is checked for links, then
// for existence.
func (l *loader) entry(abs, dir, base string) (fs.FileMode, bool) {
	if m := &l.lastEntry; m.valid && m.abs == abs {
		return m.mode, m.ok
	}
	mode, ok := l.dir(dir).lookup(base)
	l.lastEntry = entryMemo{valid: true, abs: abs, mode: mode, ok: ok}
	return mode, ok
}

type entryMemo struct {
	valid bool
	abs   string
	mode  fs.FileMode
	ok    bool
}

// fileState says whether abs exists and is a regular file (following links).
func (l *loader) fileState(abs string) (exists, regular bool) {
	dir, base := splitClean(abs)
	mode, ok := l.entry(abs, dir, base)
	if !ok {
		return false, false
	}
	if mode&fs.ModeSymlink != 0 {
		info, err := l.fsys.Stat(abs)
		if err != nil {
			return false, false
		}
		return true, info.Mode().IsRegular()
	}
	return true, mode.IsRegular()
}
