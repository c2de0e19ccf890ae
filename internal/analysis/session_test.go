package analysis

import (
	"fmt"
	"slices"
	"testing"
)

// TestModChangeLog: a module pass learns the files changed since the
// project's last pass from the log, and learns that it cannot know when
// anything may have changed (settings, file watchers just registered) or
// when the log no longer reaches back that far.
func TestModChangeLog(t *testing.T) {
	w := NewSession(nil)
	change := func(path string) uint64 {
		kind := ChangeDisk
		if path == "" {
			kind = ChangeAnything
		}
		w.record([]FileChange{{Path: path, Kind: kind}})
		return w.moduleGen()
	}
	g0 := w.moduleGen()
	g1 := change("/ws/tools/a.ts")
	g2 := change("/ws/tools/b.ts")
	if got, ok := w.modChangesSince(g0, g2); !ok || !slices.Equal(got, []string{"/ws/tools/a.ts", "/ws/tools/b.ts"}) {
		t.Errorf("since %d: %v, %v", g0, got, ok)
	}
	if got, ok := w.modChangesSince(g1, g2); !ok || !slices.Equal(got, []string{"/ws/tools/b.ts"}) {
		t.Errorf("since %d: %v, %v", g1, got, ok)
	}
	if got, ok := w.modChangesSince(g0, g1); !ok || !slices.Equal(got, []string{"/ws/tools/a.ts"}) {
		t.Errorf("from %d to %d: %v, %v (a change after the pass started is the next pass's)", g0, g1, got, ok)
	}
	if got, ok := w.modChangesSince(g2, g2); !ok || len(got) != 0 {
		t.Errorf("nothing since: %v, %v", got, ok)
	}
	g3 := change("") // settings
	g4 := change("/ws/tools/c.ts")
	if _, ok := w.modChangesSince(g2, g4); ok {
		t.Error("a change of anything is known")
	}
	if got, ok := w.modChangesSince(g3, g4); !ok || !slices.Equal(got, []string{"/ws/tools/c.ts"}) {
		t.Errorf("after the change of anything: %v, %v", got, ok)
	}
	for i := 0; i < maxModLog; i++ {
		change(fmt.Sprintf("/ws/tools/m%d.ts", i))
	}
	if _, ok := w.modChangesSince(g4, w.moduleGen()); ok {
		t.Error("a log trimmed past the last pass is known")
	}
	if got, ok := w.modChangesSince(w.moduleGen()-1, w.moduleGen()); !ok || len(got) != 1 {
		t.Errorf("the latest change: %v, %v", got, ok)
	}
}
