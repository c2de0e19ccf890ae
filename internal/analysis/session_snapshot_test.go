package analysis

import (
	"context"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

const (
	sessionManifest = "/ws/beeuni.yaml"
	sessionModule   = "/ws/tools/lookup.ts"
	goodModule      = "export default { description: 'Look up.', parameters: { type: 'object', properties: {} }, execute() { return 'ok' } }\n"
)

func newTestSession(fsys vfs.FS) *Session {
	return NewSession(tsinspect.New(fsys, tsinspect.Options{}))
}

func apply(t *testing.T, s *Session, fsys vfs.FS, gen uint64, files ...FileChange) *Snapshot {
	t.Helper()
	snap, err := s.Apply(context.Background(), Changes{Root: "/ws", FS: fsys, Gen: gen, Files: files, InspectModules: true, Watched: true})
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func findingCodes(snap *Snapshot, path string) []string {
	var out []string
	for _, f := range snap.Findings(path) {
		out = append(out, f.Code)
	}
	return out
}

// TestApplyMakesOneSnapshotPerState: asked twice for one state of the
// files, the session answers the same snapshot (requests share the
// worker's load); a change told since (a module created on disk, with no
// new state of the buffers) makes a new one, in which the path rules ran
// again.
func TestApplyMakesOneSnapshotPerState(t *testing.T) {
	fsys := vfs.NewMem()
	fsys.WriteFile(sessionManifest, []byte("tools:\n  lookup: tools/lookup.ts\n"))
	s := newTestSession(fsys)
	first := apply(t, s, fsys, 1)
	if got := findingCodes(first, sessionManifest); !slices.Contains(got, CodeMissing) {
		t.Fatalf("module missing: codes %v, want %s", got, CodeMissing)
	}
	if again := apply(t, s, fsys, 1); again != first {
		t.Error("a second Apply of the same state made another snapshot")
	}
	if s.Latest("/ws") != first {
		t.Error("Latest is not the snapshot made")
	}
	fsys.WriteFile(sessionModule, []byte(goodModule))
	created := apply(t, s, fsys, 1, FileChange{Path: sessionModule, Kind: ChangeCreated})
	if created == first {
		t.Fatal("a change told with the same state answered the snapshot made before it")
	}
	if got := findingCodes(created, sessionManifest); slices.Contains(got, CodeMissing) {
		t.Errorf("module created: codes %v, want no %s", got, CodeMissing)
	}
	// A request asks for the state it arrived at, older than the latest
	// the worker took: it gets its own, and the latest stays.
	newer := apply(t, s, fsys, 5)
	if older := apply(t, s, fsys, 4); older == newer || older.Gen != 4 || s.Latest("/ws") != newer {
		t.Error("a snapshot of an older state replaced the latest")
	}
}

// TestSnapshotModulesReusedUntilAModuleChanges: after a module pass, a
// keystroke's snapshot gets its module findings from the pass's results
// (no pass, not pending); a module changed on disk needs a pass, whose
// findings the new snapshot holds; a pass for a snapshot older than one
// completed already is dropped.
func TestSnapshotModulesReusedUntilAModuleChanges(t *testing.T) {
	ctx := context.Background()
	fsys := vfs.NewMem()
	fsys.WriteFile(sessionManifest, []byte("tools:\n  lookup: tools/lookup.ts\n"))
	fsys.WriteFile(sessionModule, []byte(goodModule))
	s := newTestSession(fsys)
	first := apply(t, s, fsys, 1)
	if !first.ModulesPending() {
		t.Fatal("the first snapshot has module findings before any pass")
	}
	done := s.InspectModules(ctx, first)
	if done == nil || done.ModulesPending() || done.Inspection == nil {
		t.Fatalf("the pass did not complete the snapshot: %+v", done)
	}
	if first.Inspection != nil || !first.ModulesPending() {
		t.Error("the pass modified the snapshot it completed")
	}
	if done.Modules()[sessionModule] == nil {
		t.Error("the completed snapshot has no result for the module")
	}

	fsys.WriteFile(sessionManifest, []byte("# a comment\ntools:\n  lookup: tools/lookup.ts\n"))
	typed := apply(t, s, fsys, 2)
	if typed.ModulesPending() {
		t.Fatal("a keystroke in the manifest needs a module pass")
	}
	if got := s.ModulePasses("/ws"); got != 1 {
		t.Errorf("%d module passes, want 1", got)
	}

	fsys.WriteFile(sessionModule, []byte("export default {\n"))
	broken := apply(t, s, fsys, 3, FileChange{Path: sessionModule, Kind: ChangeDisk})
	if !broken.ModulesPending() {
		t.Fatal("a module changed on disk reused the results of the pass before")
	}
	if broken.Modules()[sessionModule] == nil {
		t.Error("while its pass is pending, a snapshot has no module results for the features")
	}
	brokenDone := s.InspectModules(ctx, broken)
	if brokenDone == nil {
		t.Fatal("the pass for the newest snapshot was dropped")
	}
	if got := findingCodes(brokenDone, sessionManifest); !slices.Contains(got, CodeModuleLoad) {
		t.Errorf("module broken: manifest codes %v, want %s", got, CodeModuleLoad)
	}
	if s.InspectModules(ctx, typed) != nil {
		t.Error("a pass for a snapshot older than one completed was not dropped")
	}
	if got := s.Latest("/ws"); got != brokenDone {
		t.Error("Latest is not the completed snapshot")
	}
}

// TestSnapshotFallbackIsTheLastGoodParse: a file with a syntax error is
// read, by the features, in the newest snapshot in which it parsed.
func TestSnapshotFallbackIsTheLastGoodParse(t *testing.T) {
	fsys := vfs.NewMem()
	fsys.WriteFile(sessionManifest, []byte("tools:\n  web_search: beeuni:web_search\n"))
	s := newTestSession(fsys)
	good := apply(t, s, fsys, 1)
	if good.Fallback(sessionManifest) != good.Project {
		t.Error("a file that parses falls back to another load")
	}
	fsys.WriteFile(sessionManifest, []byte("tools:\n  web_search: [beeuni:web_search\n"))
	broken := apply(t, s, fsys, 2)
	if f := broken.Project.File(sessionManifest); f == nil || f.SyntaxError == nil {
		t.Fatal("the broken manifest parsed")
	}
	if broken.Fallback(sessionManifest) != good.Project {
		t.Error("a file with a syntax error does not fall back to its last good parse")
	}
	if !broken.Holds(sessionManifest) || broken.Holds("/ws/other.yaml") {
		t.Error("Holds: wrong files")
	}
}

// TestModulePassOutrunByANewerOneIsDropped: a module pass that ends after
// a pass for a newer snapshot completed is dropped (its findings are older
// news), and the newer snapshot stays the latest.
func TestModulePassOutrunByANewerOneIsDropped(t *testing.T) {
	ctx := context.Background()
	fsys := vfs.NewMem()
	fsys.WriteFile(sessionManifest, []byte("tools:\n  lookup: tools/lookup.ts\n"))
	fsys.WriteFile(sessionModule, []byte(goodModule))
	var gate atomic.Pointer[chan struct{}]
	s := NewSession(tsinspect.New(fsys, tsinspect.Options{Yield: func(context.Context) {
		if g := gate.Swap(nil); g != nil {
			<-*g // the first module of the armed pass waits
		}
	}}))
	if s.InspectModules(ctx, apply(t, s, fsys, 1)) == nil {
		t.Fatal("the first pass was dropped")
	}
	fsys.WriteFile(sessionModule, []byte("export default {\n"))
	older := apply(t, s, fsys, 2, FileChange{Path: sessionModule, Kind: ChangeDisk})
	release := make(chan struct{})
	gate.Store(&release)
	result := make(chan *Snapshot)
	go func() { result <- s.InspectModules(ctx, older) }()
	for gate.Load() != nil {
		runtime.Gosched() // until the older pass waits at its first module
	}
	fsys.WriteFile(sessionManifest, []byte("# typed\ntools:\n  lookup: tools/lookup.ts\n"))
	newer := s.InspectModules(ctx, apply(t, s, fsys, 3))
	if newer == nil {
		t.Fatal("the newer pass was dropped")
	}
	close(release)
	if got := <-result; got != nil {
		t.Errorf("the older pass, ended after the newer one, was not dropped: gen %d", got.Gen)
	}
	if s.Latest("/ws") != newer {
		t.Error("the older pass replaced the newer snapshot")
	}
}

// TestSnapshotFindingsOfAFile: a file's findings are exactly those of the
// load and of the module inspection in that file, in diag.Sort's order,
// for the manifest, an imported file and a module alike.
func TestSnapshotFindingsOfAFile(t *testing.T) {
	fsys := vfs.NewMem()
	fsys.WriteFile(sessionManifest, []byte("imports: [more.yaml]\ntools:\n  lookup: tools/lookup.ts\n  Bad: tools/bad.ts\nagents:\n  a:\n    tools: [nope]\n"))
	fsys.WriteFile("/ws/more.yaml", []byte("tools:\n  Worse: tools/worse.ts\n  gone: tools/gone.ts\n"))
	fsys.WriteFile(sessionModule, []byte("export default {\n"))
	s := newTestSession(fsys)
	snap := s.InspectModules(context.Background(), apply(t, s, fsys, 1))
	if snap == nil || snap.Inspection == nil {
		t.Fatal("no module pass")
	}
	all := append(slices.Clone(snap.Project.Findings), snap.Inspection.Findings...)
	for _, path := range []string{sessionManifest, "/ws/more.yaml", sessionModule, "/ws/none.yaml"} {
		var want []diag.Finding
		for _, f := range all {
			if f.File == path {
				want = append(want, f)
			}
		}
		diag.Sort(want)
		got := snap.Findings(path)
		if len(got) != len(want) {
			t.Errorf("%s: %d findings, want %d", path, len(got), len(want))
			continue
		}
		for i := range got {
			if got[i].Code != want[i].Code || got[i].Range != want[i].Range || got[i].Message != want[i].Message {
				t.Errorf("%s: finding %d is %s %v, want %s %v", path, i, got[i].Code, got[i].Range, want[i].Code, want[i].Range)
			}
		}
		if path != "/ws/none.yaml" && len(got) == 0 {
			t.Errorf("%s: no finding: the case should hold some", path)
		}
	}
	if got := findingCodes(snap, sessionManifest); !slices.Contains(got, CodeModuleLoad) || !slices.Contains(got, CodeName) {
		t.Errorf("manifest codes %v: want the load's (%s) and the inspection's (%s)", got, CodeName, CodeModuleLoad)
	}
}
