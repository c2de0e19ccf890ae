package edit

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// generatedSeeds is how many generate seeds the differential tests run.
const generatedSeeds = 300

// loadServerStyle loads a project as the server's snapshot is loaded:
// through a cache, so that its files are parsed by chunks.
func loadServerStyle(t *testing.T, fsys vfs.FS) *analysis.Project {
	t.Helper()
	p, err := analysis.LoadCached(t.Context(), fsys, testRoot, analysis.NewCache())
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return p
}

// One QuickFixer over every finding of a project offers what planning each
// finding's fixes alone does, one action per title (the first): the same
// titles, edits, files created and deleted, and Preferred flags.
func TestQuickFixerOffersWhatEachFindingAloneOffers(t *testing.T) {
	ctx := t.Context()
	offered := 0
	for seed := uint64(0); seed < generatedSeeds; seed++ {
		m := generate(seed)
		p := loadServerStyle(t, m)
		var want []*Change
		seen := map[string]bool{}
		for _, f := range p.Findings {
			fixes, err := QuickFixes(ctx, p, m, f)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range fixes {
				if !seen[c.Title] {
					seen[c.Title] = true
					want = append(want, c)
				}
			}
		}
		q := NewQuickFixer(p, m)
		var got []*Change
		for _, f := range p.Findings {
			fixes, err := q.Fixes(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, fixes...)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: one QuickFixer offers\n%s\neach finding alone\n%s", seed, describe(got), describe(want))
		}
		offered += len(got)
	}
	if offered == 0 {
		t.Fatal("no fix offered")
	}
}

func describe(cs []*Change) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "  %q preferred=%v edits=%v create=%d delete=%v\n", c.Title, c.Preferred, c.Edits, len(c.Create), c.Delete)
	}
	return b.String()
}

// A verifier's loads share one cache across changes, those that create
// and delete files included: each gives the findings a fresh, uncached
// load of the project as the change leaves it gives.
func TestVerifierLoadsAsAFreshLoad(t *testing.T) {
	ctx := t.Context()
	moves := 0
	for seed := uint64(0); seed < generatedSeeds; seed++ {
		m := generate(seed)
		p := loadServerStyle(t, m)
		v := newVerifier(p, m)
		prepared := prepare(p)
		for _, f := range p.Findings {
			rule, _ := analysis.RuleOf(f.Code)
			for _, kind := range rule.Fixes {
				c, _ := fixer(kind)(prepared, m, f)
				if c == nil {
					continue
				}
				if len(c.Create) > 0 || len(c.Delete) > 0 {
					moves++
				}
				got := v.load(ctx, c)
				after, err := Preview(m, c)
				if err != nil {
					t.Fatal(err)
				}
				fresh, err := analysis.Load(ctx, after, testRoot)
				if err != nil {
					t.Fatal(err)
				}
				if want := countFindings(fresh); got.err != nil || !reflect.DeepEqual(got.now, want) {
					t.Fatalf("seed %d, %s: the verifier's load gave %v (%v), a fresh load %v", seed, c.Title, got.now, got.err, want)
				}
			}
		}
	}
	if moves == 0 {
		t.Fatal("no change created or deleted a file")
	}
}

// probeFS counts the project loads made through it (each reads the
// imported file probe once: no fix edits it) and calls onLoad at each. It
// counts the listings of the modules' folder dir too (a load lists it
// when it checks the modules afresh, not when it reuses what a load
// before it found: analysis.Cache), and the resolutions of the root
// (every load starts with one, also one its context stops before it reads
// the import).
type probeFS struct {
	vfs.FS
	root, probe, dir string
	mu               sync.Mutex
	loads            int
	listings         int
	resolutions      int
	onLoad           func(n int)
}

func (p *probeFS) EvalSymlinks(name string) (string, error) {
	if name == p.root {
		p.mu.Lock()
		p.resolutions++
		p.mu.Unlock()
	}
	return p.FS.EvalSymlinks(name)
}

func (p *probeFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == p.dir {
		p.mu.Lock()
		p.listings++
		p.mu.Unlock()
	}
	return p.FS.ReadDir(name)
}

func (p *probeFS) ReadFile(name string) ([]byte, error) {
	if name == p.probe {
		p.mu.Lock()
		p.loads++
		n := p.loads
		p.mu.Unlock()
		if p.onLoad != nil {
			p.onLoad(n)
		}
	}
	return p.FS.ReadFile(name)
}

// agentsNaming is a project with an import whose n agents each name tool.
func agentsNaming(n int, tool string) *probeFS {
	var b strings.Builder
	b.WriteString("imports: [more.yaml]\ntools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\nagents:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  agent_%d:\n    tools: [read, %s]\n", i, tool)
	}
	m := memFrom(map[string]string{
		"beeuni.yaml":           b.String(),
		"more.yaml":             "agents:\n  helper:\n    tools: [read]\n",
		"tools/lookup_order.ts": "export default {}\n",
	})
	return &probeFS{FS: m, root: testRoot, probe: filepath.Join(testRoot, "more.yaml"), dir: filepath.Join(testRoot, "tools")}
}

// The fixes of n findings cost one load per distinct fix checked, not one
// per finding, and only the first checks the whole project afresh: n
// agents naming the same misspelt tool get one "Replace" (the title
// offered once), n agents naming a Beeuni tool the project does not load
// get one "Add" (the same for all) and n "Remove"s. n agents naming `shoe`
// get nothing: "Replace shoe with show" would add an A2 (the project does
// not load show), checked in each agent.
func TestQuickFixerLoadsOncePerDistinctFix(t *testing.T) {
	const n = 25
	for _, tc := range []struct {
		tool           string
		offered, loads int
	}{
		{tool: "lookup_ordr", offered: 1, loads: 1},
		{tool: "show", offered: n + 1, loads: n + 1},
		{tool: "shoe", offered: 0, loads: n},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			fsys := agentsNaming(n, tc.tool)
			p := loadServerStyle(t, fsys)
			before, listed := fsys.loads, fsys.listings
			q := NewQuickFixer(p, fsys)
			offered, findings := 0, 0
			for _, f := range p.Findings {
				fixes, err := q.Fixes(t.Context(), f)
				if err != nil {
					t.Fatal(err)
				}
				offered += len(fixes)
				findings++
			}
			if findings != n || offered != tc.offered {
				t.Fatalf("%d findings, %d fixes offered; want %d and %d", findings, offered, n, tc.offered)
			}
			if loads := fsys.loads - before; loads != tc.loads {
				t.Errorf("%d loads for %d distinct fixes of %d findings, want %d", loads, tc.offered, n, tc.loads)
			}
			if fresh := fsys.listings - listed; fresh != 1 {
				t.Errorf("%d loads checked the modules afresh, want 1", fresh)
			}
		})
	}
}

// Once its context ends, a QuickFixer answers the context's error and
// loads nothing more: the load under way when it ended is the last, and
// what it gave is not kept.
func TestQuickFixerStopsAtTheFirstCancel(t *testing.T) {
	const n = 25
	fsys := agentsNaming(n, "show")
	p := loadServerStyle(t, fsys)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	start := fsys.loads
	resolved := 0
	fsys.onLoad = func(k int) {
		if k == start+3 {
			cancel()
			resolved = fsys.resolutions
		}
	}
	q := NewQuickFixer(p, fsys)
	var err error
	for _, f := range p.Findings {
		if _, err = q.Fixes(ctx, f); err != nil {
			break
		}
	}
	if err != context.Canceled {
		t.Errorf("Fixes after the cancel: %v, want %v", err, context.Canceled)
	}
	if loads := fsys.loads - start; loads != 3 || fsys.resolutions != resolved {
		t.Errorf("%d loads, %d started after the cancel; want 3: the one under way at the cancel is the last", loads, fsys.resolutions-resolved)
	}
	if len(q.verify.after) != 2 {
		t.Errorf("%d loads kept, want the 2 that ended before the cancel", len(q.verify.after))
	}
	if _, err := q.Fixes(ctx, p.Findings[0]); err != context.Canceled {
		t.Errorf("Fixes with its context ended: %v, want %v", err, context.Canceled)
	}
}

// A change equal to one checked already is not loaded again, whichever
// finding it fixes.
func TestVerifierLoadsEachChangeOnce(t *testing.T) {
	fsys := agentsNaming(3, "show")
	p := loadServerStyle(t, fsys)
	v := newVerifier(p, fsys)
	prepared := prepare(p)
	before := fsys.loads
	for _, f := range p.Findings {
		c, _ := prepared.fixAddToTools(fsys, f)
		c.Fixes = &f
		if err := v.check(t.Context(), c); err != nil {
			t.Fatalf("%s: %v", c.Title, err)
		}
	}
	if loads := fsys.loads - before; loads != 1 {
		t.Errorf("%d loads of one change checked for %d findings, want 1", loads, len(p.Findings))
	}
}
