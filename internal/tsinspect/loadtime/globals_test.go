package loadtime

import (
	"sort"
	"testing"
)

func TestBunGlobalNamesSorted(t *testing.T) {
	if !sort.StringsAreSorted(bunGlobalNames[:]) {
		t.Fatal("bunGlobalNames must be sorted: isBunGlobal searches it")
	}
	for _, n := range []string{"fetch", "process", "Bun", "require", "__dirname", "Object"} {
		if !IsBunGlobal(n) {
			t.Errorf("isBunGlobal(%q) = false", n)
		}
	}
	if IsBunGlobal("cityTimeSchema") {
		t.Error("isBunGlobal(cityTimeSchema) = true")
	}
}
