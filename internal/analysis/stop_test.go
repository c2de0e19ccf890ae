package analysis

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
	"github.com/beeuni/beeuni-lsp/internal/vfs/vfstest"
)

// flowStyleManifest is a manifest of at least size bytes in flow style,
// the whole document on one line as issue 26's was: a tools mapping of
// every kind of entry (a Beeuni tool, T4, a module that does not exist:
// T6) and agents whose lists name declared tools and, one name in
// unknownEvery, a name that is none (A1, with its "did you mean").
func flowStyleManifest(size, unknownEvery int) string {
	var b strings.Builder
	b.WriteString("{tools: {web_search: beeuni:web_search")
	n := 0
	for ; b.Len() < size/2; n++ {
		switch n % 3 {
		case 0:
			fmt.Fprintf(&b, ", tool_%d: tools/tool_%d.ts", n, n)
		case 1:
			fmt.Fprintf(&b, ", tool_%d: beeuni:web_search", n)
		default:
			fmt.Fprintf(&b, ", tool_%d: tools/missing_%d.ts", n, n)
		}
	}
	b.WriteString("}, agents: {")
	for a := 0; b.Len() < size; a++ {
		fmt.Fprintf(&b, "agent_%d: {tools: [", a)
		for j := 0; j < 50; j++ {
			i := (a*50 + j) % n
			if i%unknownEvery == 0 {
				fmt.Fprintf(&b, "tol_%d, ", i)
			} else {
				fmt.Fprintf(&b, "tool_%d, ", i)
			}
		}
		b.WriteString("]}, ")
	}
	b.WriteString("}}\n")
	return b.String()
}

// flowStyleWorkspace is a repository in memory whose manifest is
// flowStyleManifest(size, unknownEvery), with one of its modules.
func flowStyleWorkspace(size, unknownEvery int) *vfs.Mem {
	fsys := vfs.NewMem()
	fsys.WriteFile(filepath.Join(testRoot, ManifestName), []byte(flowStyleManifest(size, unknownEvery)))
	fsys.WriteFile(filepath.Join(testRoot, "tools", "tool_0.ts"), []byte("export default {}\n"))
	return fsys
}

// watchedContext is a context whose every look (Err) a load makes is
// counted and, when it watches the gaps, the heap objects allocated and
// the time passed between two looks (from its making to the first, from
// the last to finish). Objects count the work done: each unit of a load's
// work (an entry checked, YAML read) allocates some, and a whole load of
// the manifests below millions. It is done at its look number cancelAt (0:
// never), or when cancel is called.
type watchedContext struct {
	context.Context // Background: no deadline, no values

	mu         sync.Mutex
	looks      int
	gaps       bool // watch the gaps between looks (each look costs a stop of the world)
	cancelAt   int
	done       chan struct{}
	err        error
	objects    uint64    // allocated at the last look (or at its making)
	at         time.Time // of the last look (or its making)
	maxObjects uint64    // the most objects allocated between two looks
	maxGap     time.Duration
	atCancel   uint64 // objects allocated when it was cancelled
}

func newWatchedContext(gaps bool, cancelAt int) *watchedContext {
	c := &watchedContext{Context: context.Background(), gaps: gaps, cancelAt: cancelAt, done: make(chan struct{})}
	c.objects, c.at = allocatedObjects(), time.Now()
	return c
}

// allocatedObjects is the number of heap objects allocated so far.
func allocatedObjects() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs
}

// markLocked records a look (or the load's return) now.
func (c *watchedContext) markLocked() uint64 {
	now, n := time.Now(), allocatedObjects()
	c.maxObjects = max(c.maxObjects, n-c.objects)
	c.maxGap = max(c.maxGap, now.Sub(c.at))
	c.objects, c.at = n, now
	return n
}

func (c *watchedContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.looks++
	if c.gaps {
		c.markLocked()
	}
	if c.err == nil && c.cancelAt > 0 && c.looks >= c.cancelAt {
		c.cancelLocked(allocatedObjects())
	}
	return c.err
}

func (c *watchedContext) Done() <-chan struct{} { return c.done }

// cancel cancels c between two looks.
func (c *watchedContext) cancel() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.cancelLocked(allocatedObjects())
	}
}

func (c *watchedContext) cancelLocked(objects uint64) {
	c.err = context.Canceled
	c.atCancel = objects
	close(c.done)
}

// finish records the load's return and returns the objects allocated
// since the cancel.
func (c *watchedContext) finish() (sinceCancel uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.markLocked()
	if c.err == nil {
		return 0
	}
	return n - c.atCancel
}

// countingRules are the engine's rules with a first tool check that counts
// the declarations it sees and calls onVisit with their number.
func countingRules(t *testing.T, onVisit func(n int)) *ruleSet {
	t.Helper()
	visits := 0
	count := toolCheck{rule: &Rule{Code: "X0", Reads: ReadsEntry}, entry: func(*toolEntry) verdict {
		visits++
		onVisit(visits)
		return carryOn
	}}
	rules, err := newRuleSet(append([]toolCheck{count}, defaultToolChecks()...), defaultSetChecks(), defaultAgentChecks())
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

// maxObjectsAfterStop bounds the heap objects a load allocates once its
// context is cancelled: the units of work until it looks (stopEvery at
// most) and its return. A whole load of the manifests below allocates
// millions.
const maxObjectsAfterStop = 2000

// TestLoadStopsWhenItsContextIsDone loads flow-style manifests of 2.4 MB
// and 10 MB (issue 26: a 10 MB one kept the server busy 52 s after exit)
// with a context cancelled before the load, during yaml.v3's parse of the
// one flow collection the document is, and during the rules: the load
// returns the context's error having done a bounded part of the work. It
// used to do all of it and return the project.
func TestLoadStopsWhenItsContextIsDone(t *testing.T) {
	for _, size := range []int{2400 << 10, 10 << 20} {
		fsys := flowStyleWorkspace(size, 97)
		t.Run(fmt.Sprintf("%d bytes", size), func(t *testing.T) {
			t.Run("cancelled before it starts: reads nothing", func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				rec := vfstest.NewRecordingFS(fsys)
				before := allocatedObjects()
				p, err := LoadCached(ctx, rec, testRoot, NewCache())
				after := allocatedObjects() - before
				if !errors.Is(err, context.Canceled) || p != nil {
					t.Fatalf("got a project %v and error %v, want context.Canceled", p != nil, err)
				}
				if reads := rec.Reads(); len(reads) > 0 {
					t.Errorf("a cancelled load read %v", reads)
				}
				if after > 100 {
					t.Errorf("a load cancelled before it starts allocated %d objects", after)
				}
			})
			t.Run("cancelled in the middle of yaml.v3's parse", func(t *testing.T) {
				// The second look is the parse's start, every look after
				// it stopEvery reads of 512 bytes of the document.
				ctx := newWatchedContext(false, 20)
				visits := 0
				rules := countingRules(t, func(n int) { visits = n })
				p, err := loadWith(ctx, fsys, testRoot, NewCache(), rules)
				after := ctx.finish()
				if !errors.Is(err, context.Canceled) || p != nil {
					t.Fatalf("got a project %v and error %v, want context.Canceled", p != nil, err)
				}
				if visits != 0 {
					t.Fatalf("the rules ran (%d declarations): the cancel was not in the parse", visits)
				}
				if after > maxObjectsAfterStop {
					t.Errorf("%d objects allocated after the cancel, want at most %d", after, maxObjectsAfterStop)
				}
			})
			t.Run("cancelled in the rules", func(t *testing.T) {
				if raceDetector && size > 4<<20 {
					t.Skip("15 s under -race to parse 10 MB first: without it only")
				}
				ctx := newWatchedContext(false, 0)
				const at = 1000
				visits := 0
				rules := countingRules(t, func(n int) {
					visits = n
					if n == at {
						ctx.cancel()
					}
				})
				p, err := loadWith(ctx, fsys, testRoot, NewCache(), rules)
				after := ctx.finish()
				if !errors.Is(err, context.Canceled) || p != nil {
					t.Fatalf("got a project %v and error %v, want context.Canceled", p != nil, err)
				}
				if visits < at {
					t.Fatalf("the rules saw %d declarations, fewer than %d", visits, at)
				}
				if visits-at > stopEvery {
					t.Errorf("the rules went on for %d declarations after the cancel, want at most %d", visits-at, stopEvery)
				}
				if after > maxObjectsAfterStop {
					t.Errorf("%d objects allocated after the cancel, want at most %d", after, maxObjectsAfterStop)
				}
			})
		})
	}
}

// TestLoadLooksAtItsContextOften loads flow-style manifests whole and
// records every look at the context: between two of them (and from the
// call to the first, and from the last to the return) a load allocates a
// bounded number of objects however large the document, so that a cancel
// is seen after a bounded part of the work wherever it comes. It used to
// look once per imported file. The longest time between two looks is
// logged, not asserted (it measures the machine too): 40 to 90 ms at
// 10 MB, growing the slice of findings or cloning it.
func TestLoadLooksAtItsContextOften(t *testing.T) {
	sizes := []int{2400 << 10}
	if !raceDetector {
		sizes = append(sizes, 10<<20) // 40 s under -race: without it only
	}
	for _, size := range sizes {
		fsys := flowStyleWorkspace(size, 97)
		ctx := newWatchedContext(true, 0)
		start := allocatedObjects()
		p, err := LoadCached(ctx, fsys, testRoot, NewCache())
		ctx.finish()
		if err != nil {
			t.Fatal(err)
		}
		total := allocatedObjects() - start
		t.Logf("%d bytes, %d findings: %d looks, %d objects allocated, at most %d and %v between two looks",
			size, len(p.Findings), ctx.looks, total, ctx.maxObjects, ctx.maxGap)
		if ctx.maxObjects > maxObjectsBetweenLooks {
			t.Errorf("%d objects allocated between two looks at the context, want at most %d", ctx.maxObjects, maxObjectsBetweenLooks)
		}
	}
}

// maxObjectsBetweenLooks bounds the heap objects allocated between two
// looks at the context: stopEvery units of work, the largest 16 KB of
// YAML parsed (about 6,000 objects).
const maxObjectsBetweenLooks = 20000

// TestStoppedLoadKeepsNothing types into the golden corpus and a large
// manifest (as TestMemoizedLoadMatchesLoad does) and, before each load
// through the cache, loads the same version through it with a context done
// at one of its looks (a later one each time, from the first to past the
// last): the stopped load returns the context's error, and the next load
// through the cache gives Load's findings and model, as if the stopped one
// had never run (its parses, scratch and memo are not kept).
func TestStoppedLoadKeepsNothing(t *testing.T) {
	oneGoroutine(t)
	manifest := filepath.Join(testRoot, ManifestName)
	stopped, whole := 0, 0
	stopAt := 0
	stoppedLoad := func(fsys vfs.FS, cache *Cache) {
		t.Helper()
		stopAt++
		p, err := LoadCached(newWatchedContext(false, stopAt), fsys, testRoot, cache)
		switch {
		case err == nil:
			whole++ // its last look came before stopAt: the next stops at the first
			stopAt = 0
		case !errors.Is(err, context.Canceled) || p != nil:
			t.Fatalf("a load stopped at its look %d: project %v, error %v", stopAt, p != nil, err)
		default:
			stopped++
		}
	}
	check := func(fsys *vfs.Mem, cache *Cache, content []byte) {
		t.Helper()
		fsys.WriteFile(manifest, content)
		stoppedLoad(fsys, cache)
		compareLoads(t, fsys, cache)
	}
	type corpus struct {
		fsys    *vfs.Mem
		content []byte
		steps   int
	}
	var corpora []corpus
	for _, w := range goldenWorkspaces(t) {
		corpora = append(corpora, corpus{w.fsys, w.manifest, 20})
	}
	fsys, content := memoWorkspace(300)
	corpora = append(corpora, corpus{fsys, content, 150})
	for i, c := range corpora {
		r := rand.New(rand.NewSource(int64(i)))
		cache := NewCache()
		cache.chunkLines = 8
		content := c.content
		for step := 0; step < c.steps; step++ {
			switch {
			case step%10 == 9:
				toggleModule(r, c.fsys, cache, content)
			case r.Intn(3) == 0:
				check(c.fsys, cache, editAt(r, content)) // then back
			case r.Intn(2) == 0:
				check(c.fsys, cache, typo(r, content)) // then back
			default:
				content = gentleEdit(r, content)
			}
			check(c.fsys, cache, content)
		}
	}
	if stopped < 500 || whole < 20 {
		t.Fatalf("%d loads stopped, %d whole: the test does not stop loads everywhere", stopped, whole)
	}
	t.Logf("%d loads stopped, %d stopped too late to", stopped, whole)
}

// TestApplyStoppedKeepsTheLatest: an Apply whose context is done returns
// the context's error (to every caller sharing its load) and leaves the
// latest snapshot as it was; the next Apply of that state loads it.
func TestApplyStoppedKeepsTheLatest(t *testing.T) {
	fsys := vfs.NewMem()
	fsys.WriteFile(sessionManifest, []byte("tools:\n  lookup: tools/lookup.ts\n"))
	s := newTestSession(fsys)
	first := apply(t, s, fsys, 1)
	fsys.WriteFile(sessionManifest, []byte("tools:\n  Lookup: tools/lookup.ts\n"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	snap, err := s.Apply(ctx, Changes{Root: "/ws", FS: fsys, Gen: 2, InspectModules: true, Watched: true})
	if !errors.Is(err, context.Canceled) || snap != nil {
		t.Fatalf("stopped Apply: snapshot %v, error %v; want context.Canceled", snap != nil, err)
	}
	if s.Latest("/ws") != first {
		t.Fatal("a stopped Apply replaced the latest snapshot")
	}
	if got := findingCodes(apply(t, s, fsys, 2), sessionManifest); !slices.Contains(got, CodeName) {
		t.Errorf("Apply after a stopped one: codes %v, want %s", got, CodeName)
	}
}
