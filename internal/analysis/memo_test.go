package analysis

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// gentleEdit changes content the way typing does without changing what it
// means, so that the file keeps parsing and most chunks stay as they were: a
// letter typed into or removed from the first comment (every offset after
// it moves, no line does), an empty line typed or removed (every line after
// it moves).
func gentleEdit(r *rand.Rand, content []byte) []byte {
	switch r.Intn(3) {
	case 0:
		if bytes.HasPrefix(content, []byte("#x")) && r.Intn(2) == 0 {
			return splice(content, 0, 2, "#")
		}
		if len(content) > 0 && content[0] == '#' {
			return splice(content, 0, 1, "#x")
		}
		return splice(content, 0, 0, "#x\n")
	case 1:
		at := r.Intn(len(content) + 1)
		if i := bytes.IndexByte(content[at:], '\n'); i >= 0 {
			return splice(content, at+i, 0, "\n")
		}
	case 2:
		at := r.Intn(len(content) + 1)
		if i := bytes.Index(content[at:], []byte("\n\n")); i >= 0 {
			return splice(content, at+i, 1, "")
		}
	}
	return content
}

// typo types or removes a letter in a word: an error, often, that the next
// version takes back.
func typo(r *rand.Rand, content []byte) []byte {
	at := r.Intn(len(content) + 1)
	for i := at; i < len(content); i++ {
		if c := content[i]; c >= 'a' && c <= 'z' {
			if r.Intn(2) == 0 {
				return splice(content, i, 1, "")
			}
			return splice(content, i+1, 0, string(rune('a'+r.Intn(26))))
		}
	}
	return content
}

func splice(content []byte, at, del int, ins string) []byte {
	out := append([]byte(nil), content[:at]...)
	out = append(out, ins...)
	return append(out, content[at+del:]...)
}

var modulePathRE = regexp.MustCompile(`[A-Za-z0-9_./-]+\.(?:ts|mts|cts|js|mjs|cjs|tsx|jsx)\b`)

// toggleModule creates or deletes a module the manifest names, so that T6
// comes or goes, and tells the cache.
func toggleModule(r *rand.Rand, fsys *vfs.Mem, cache *Cache, manifest []byte) {
	paths := modulePathRE.FindAll(manifest, -1)
	if len(paths) == 0 {
		return
	}
	p := filepath.Join(testRoot, filepath.FromSlash(string(paths[r.Intn(len(paths))])))
	if !vfs.Within(testRoot, p) {
		return
	}
	if _, err := fsys.Stat(p); err == nil {
		fsys.Remove(p)
	} else {
		fsys.WriteFile(p, []byte("export default {}\n"))
	}
	cache.FilesChanged()
}

// TestMemoizedLoadMatchesLoad edits every golden workspace's manifest,
// cut into chunks of a few lines so that most entries are reused between
// versions, creates and deletes the modules it names, and requires every
// LoadCached (through one cache, memo included) to give Load's findings and
// model. The reuse itself is counted: a test that never reused an outcome
// would prove nothing.
func TestMemoizedLoadMatchesLoad(t *testing.T) {
	oneGoroutine(t)
	manifest := filepath.Join(testRoot, ManifestName)
	hits := 0
	for i, w := range goldenWorkspaces(t) {
		fsys, content := w.fsys, w.manifest
		r := rand.New(rand.NewSource(int64(i)))
		for _, lines := range []int{1, 3, 8} {
			cache := NewCache()
			cache.chunkLines = lines
			for step := 0; step < 40; step++ {
				compareLoads(t, fsys, cache)
				hits += memoHits(cache)
				content = typingStep(t, r, step, fsys, cache, manifest, content)
			}
		}
	}
	if hits < 100 {
		t.Fatalf("only %d outcomes reused over the corpus: the memo is not exercised", hits)
	}

	// A large manifest with every per-entry error, typed into at random.
	fsys, content := memoWorkspace(300)
	r := rand.New(rand.NewSource(7))
	cache := NewCache()
	cache.chunkLines = 8
	hits = 0
	for step := 0; step < 150; step++ {
		compareLoads(t, fsys, cache)
		hits += memoHits(cache)
		content = typingStep(t, r, step, fsys, cache, manifest, content)
	}
	if hits < 150*300/2 {
		t.Fatalf("only %d outcomes reused over 150 versions of 330 entries", hits)
	}
}

// typingStep makes the next version of the manifest: now and then a
// module created or deleted (and the cache told), else one version with a
// typo or any edit at all (often a syntax error: a full parse) that is
// compared and then taken back, or an edit that keeps the meaning. It
// returns the content the manifest now has.
func typingStep(t *testing.T, r *rand.Rand, step int, fsys *vfs.Mem, cache *Cache, manifest string, content []byte) []byte {
	switch {
	case step%10 == 9:
		toggleModule(r, fsys, cache, content)
		return content
	case r.Intn(3) == 0:
		fsys.WriteFile(manifest, editAt(r, content))
	case r.Intn(2) == 0:
		fsys.WriteFile(manifest, typo(r, content))
	default:
		content = gentleEdit(r, content)
		fsys.WriteFile(manifest, content)
		return content
	}
	compareLoads(t, fsys, cache)
	fsys.WriteFile(manifest, content)
	return content
}

// memoHits returns how many outcomes the last load reused.
func memoHits(c *Cache) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, m := range c.memos {
		n += m.hits
	}
	return n
}

func memoSize(c *Cache) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, m := range c.memos {
		n += len(m.tools) + len(m.agents)
	}
	return n
}

// memoManifest is a large manifest with an error of each per-entry kind
// every few entries (T1, T2, T3, T4, T5, T6, T7; A3, and A1 which depends
// on the tool set), the shape of a real project's.
func memoManifest(n int) []byte {
	var b strings.Builder
	b.WriteString("# a large project\ntools:\n  web_search: beeuni:web_search\n  read: beeuni:read\n")
	for i := 0; i < n; i++ {
		switch i % 11 {
		case 1:
			fmt.Fprintf(&b, "  Tool_%05d: tools/tool_%05d.ts\n", i, i) // T1
		case 2:
			fmt.Fprintf(&b, "  tool_%05d: tools/missing_%05d.ts\n", i, i) // T6
		case 3:
			fmt.Fprintf(&b, "  tool_%05d: ../outside.ts\n", i) // T5
		case 4:
			fmt.Fprintf(&b, "  tool_%05d: beeuni:tool_%05d\n", i, i) // T4
		case 5:
			fmt.Fprintf(&b, "  tool_%05d: [a, b]\n", i) // T7
		default:
			fmt.Fprintf(&b, "  tool_%05d: tools/tool_%05d.ts\n", i, i)
		}
	}
	b.WriteString("agents:\n")
	for a := 0; a < n/10; a++ {
		fmt.Fprintf(&b, "  agent_%04d:\n    description: team %d\n", a, a)
		switch a % 4 {
		case 0:
			fmt.Fprintf(&b, "    tools: [tool_%05d, tool_%05d, web_serch]\n", a*10, a*10+6) // A1
		case 1:
			b.WriteString("    tools:\n      exclude: [bash, write]\n")
		case 2:
			b.WriteString("    tools: 42\n") // A3
		case 3:
			fmt.Fprintf(&b, "    tools:\n      - tool_%05d\n      - read\n", a*10+7)
		}
	}
	return []byte(b.String())
}

func memoWorkspace(n int) (*vfs.Mem, []byte) {
	fsys := vfs.NewMem()
	content := memoManifest(n)
	fsys.WriteFile(filepath.Join(testRoot, ManifestName), content)
	for i := 0; i < n; i++ {
		fsys.WriteFile(filepath.Join(testRoot, "tools", fmt.Sprintf("tool_%05d.ts", i)), []byte("export default {}\n"))
	}
	return fsys, content
}

// TestMemoReusesUnchangedEntries types into a large manifest and checks
// that a keystroke reuses the outcome of every entry outside the chunk it
// changed, with Load's results, and that a typed line break (every chunk
// after it moved, so every node is new) still gives Load's results.
func TestMemoReusesUnchangedEntries(t *testing.T) {
	fsys, content := memoWorkspace(2000)
	manifest := filepath.Join(testRoot, ManifestName)
	cache := NewCache()
	compareLoads(t, fsys, cache)
	entries := memoSize(cache)
	if entries < 2000 {
		t.Fatalf("the memo holds %d outcomes after the first load, want one per entry", entries)
	}
	edits := []struct {
		name    string
		edit    func([]byte) []byte
		minHits int
	}{
		{"a letter in the first comment", func(c []byte) []byte { return splice(c, 3, 0, "x") }, entries - 400},
		{"a letter in a tool key", func(c []byte) []byte {
			i := bytes.Index(c, []byte("tool_01000:"))
			return splice(c, i+4, 0, "x")
		}, entries - 400},
		{"the letter removed", func(c []byte) []byte {
			i := bytes.Index(c, []byte("toolx_01000:"))
			return splice(c, i+4, 1, "")
		}, entries - 400},
		{"a line break at the top", func(c []byte) []byte { return splice(c, 0, 0, "\n") }, 0},
		{"a letter in an agent's list", func(c []byte) []byte {
			i := bytes.Index(c, []byte("- tool_01507"))
			return splice(c, i+3, 0, "y")
		}, entries - 400},
	}
	for _, e := range edits {
		content = e.edit(content)
		fsys.WriteFile(manifest, content)
		compareLoads(t, fsys, cache)
		if h := memoHits(cache); h < e.minHits {
			t.Errorf("%s: %d of %d outcomes reused, want at least %d", e.name, h, entries, e.minHits)
		}
	}
}

// TestMemoFollowsFilesChanged creates a missing module and deletes an
// existing one: after FilesChanged the memoized load reports T6 as Load
// does.
func TestMemoFollowsFilesChanged(t *testing.T) {
	fsys, _ := memoWorkspace(200)
	cache := NewCache()
	compareLoads(t, fsys, cache)
	missing := filepath.Join(testRoot, "tools", "missing_00002.ts")
	present := filepath.Join(testRoot, "tools", "tool_00007.ts")
	count := func() int {
		p, err := LoadCached(context.Background(), fsys, testRoot, cache)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range p.Findings {
			if f.Code == CodeMissing {
				n++
			}
		}
		return n
	}
	before := count()
	fsys.WriteFile(missing, []byte("export default {}\n"))
	fsys.Remove(present)
	cache.FilesChanged()
	compareLoads(t, fsys, cache)
	if after := count(); after != before {
		// One T6 gone, one come: the same count, at other places.
		t.Fatalf("T6 findings: %d before, %d after one module created and one deleted", before, after)
	}
	p, _ := LoadCached(context.Background(), fsys, testRoot, cache)
	for _, f := range p.Findings {
		if f.Code == CodeMissing && strings.Contains(f.Message, "missing_00002.ts") {
			t.Fatalf("T6 still reported for a module created before FilesChanged: %s", f.Message)
		}
	}
}

// TestMemoStaysBounded types for a while in many places: the memo keeps
// about one outcome per entry, not one per version of every entry.
func TestMemoStaysBounded(t *testing.T) {
	oneGoroutine(t)
	fsys, content := memoWorkspace(500)
	manifest := filepath.Join(testRoot, ManifestName)
	cache := NewCache()
	cache.chunkLines = 8
	r := rand.New(rand.NewSource(3))
	var sizes []int
	for i := 0; i < 300; i++ {
		content = gentleEdit(r, content)
		fsys.WriteFile(manifest, typo(r, content))
		if _, err := LoadCached(context.Background(), fsys, testRoot, cache); err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, memoSize(cache))
	}
	sort.Ints(sizes)
	if max := sizes[len(sizes)-1]; max > 2*(500+50)+64+200 {
		t.Fatalf("the memo grew to %d outcomes for about 550 entries", max)
	}
}

// BenchmarkLoadEdited is what a keystroke costs the engine in the language
// server: LoadCached of a manifest with one character typed and removed
// again, through one cache (chunked parse and memoized rules), either in the
// comment at the top (every offset after it moves; the tool set stays) or in
// the middle of a tool's name (that tool is renamed back and forth), or in
// the middle of an agent's name (below the tools: mapping: no tool moves).
func BenchmarkLoadEdited(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		for _, where := range []string{"comment", "key", "agent"} {
			b.Run(fmt.Sprintf("tools=%d/%s", n, where), func(b *testing.B) {
				root := writeWorkspace(b, n)
				manifest, _ := generatedManifest(n)
				at := strings.Index(manifest, fmt.Sprintf("tool_%05d: ", n/2)) + 8
				switch where {
				case "comment":
					at = strings.Index(manifest, "generated")
				case "agent":
					at = strings.Index(manifest, fmt.Sprintf("agent_%05d:", n/20)) + 8
				}
				versions := [][]byte{[]byte(manifest), []byte(manifest[:at] + "x" + manifest[at:])}
				over := vfs.NewOverlay(vfs.NewDisk())
				path := filepath.Join(root, ManifestName)
				cache := NewCache()
				if _, err := LoadCached(context.Background(), over, root, cache); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				defer reportCPU(b)()
				for i := 0; i < b.N; i++ {
					over.Set(path, versions[(i+1)%2])
					if _, err := LoadCached(context.Background(), over, root, cache); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// FuzzMemoizedLoad edits a workspace's manifest (a large generated one with
// every per-entry error, or one of the golden corpus's) a few times through
// one cache cut into small chunks, now and then creating or deleting a module
// it names, and requires every LoadCached to equal Load. ops codes the edits
// as FuzzIncrementalParse's do; an edit whose length byte is 255 toggles a
// module instead.
func FuzzMemoizedLoad(f *testing.F) {
	corpus := corpusManifests(f)
	names := sortedKeys(corpus)
	f.Add(uint8(0), uint8(4), []byte("\x10\x00\x00\x01x\x00\x00\x00\x02#x\x40\x00\x00\x01\n"))
	f.Add(uint8(1), uint8(2), []byte("\x00\x40\x01\x00\x00\x00\xff\x00\x20\x00\x00\x01a"))
	f.Add(uint8(7), uint8(1), []byte("\x30\x00\x00\x02: \x30\x00\x02\x00"))
	f.Fuzz(func(t *testing.T, base, lines uint8, ops []byte) {
		var fsys *vfs.Mem
		var content []byte
		if base == 0 {
			fsys, content = memoWorkspace(60)
		} else {
			name := names[int(base)%len(names)]
			content = corpus[name]
			fsys = vfs.NewMem()
			fsys.WriteFile(filepath.Join(testRoot, ManifestName), content)
			for _, m := range modulePathRE.FindAll(content, -1) {
				if p := filepath.Join(testRoot, filepath.FromSlash(string(m))); vfs.Within(testRoot, p) {
					fsys.WriteFile(p, []byte("export default {}\n"))
				}
			}
		}
		manifest := filepath.Join(testRoot, ManifestName)
		cache := NewCache()
		cache.chunkLines = 1 + int(lines%16)
		r := rand.New(rand.NewSource(int64(len(ops))))
		compareLoads(t, fsys, cache)
		for len(ops) >= 4 {
			at := uint16(ops[0])<<8 | uint16(ops[1])
			if ops[3] == 255 {
				toggleModule(r, fsys, cache, content)
				ops = ops[4:]
			} else {
				n := min(int(ops[3]), len(ops)-4)
				content = applyEdit(content, at, ops[2], ops[4:4+n])
				ops = ops[4+n:]
				fsys.WriteFile(manifest, content)
			}
			compareLoads(t, fsys, cache)
		}
	})
}

// TestMemoAgentsFollowTheToolSet: an agent far from the tools (its outcome
// reused) keeps its A1, A2 and view only while the tool set is the same.
// Each edit changes the tool set in one way and is compared with Load: a
// tool an agent lists renamed and renamed back, made invalid (declared but
// not loaded), a new tool an agent asked for, an invalid declaration's name
// changed (the universe is the same, A1's suggestion is not), a Beeuni tool
// removed (A2), the tools: key renamed (every agent sees the Beeuni tools).
func TestMemoAgentsFollowTheToolSet(t *testing.T) {
	var b strings.Builder
	b.WriteString("# project\ntools:\n  web_search: beeuni:web_search\n  read: beeuni:read\n  Bad_helper: tools/x.ts\n")
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&b, "  tool_%03d: tools/tool_%03d.ts\n", i, i)
	}
	b.WriteString("agents:\n")
	b.WriteString("  lister:\n    tools: [tool_005, tool_399, new_tool, web_search, read, bad_helpr]\n")
	b.WriteString("  excluder:\n    tools:\n      exclude: [tool_005, new_tool]\n")
	b.WriteString("  everyone:\n    description: all of them\n")
	content := b.String()
	fsys := vfs.NewMem()
	manifest := filepath.Join(testRoot, ManifestName)
	for i := 0; i < 400; i++ {
		fsys.WriteFile(filepath.Join(testRoot, "tools", fmt.Sprintf("tool_%03d.ts", i)), []byte("export default {}\n"))
	}
	fsys.WriteFile(filepath.Join(testRoot, "tools", "x.ts"), []byte("export default {}\n"))
	cache := NewCache()
	cache.chunkLines = 16
	load := func(step string) {
		t.Helper()
		fsys.WriteFile(manifest, []byte(content))
		compareLoads(t, fsys, cache)
	}
	replace := func(step, old, new string) {
		t.Helper()
		if !strings.Contains(content, old) {
			t.Fatalf("%s: %q not in the manifest", step, old)
		}
		content = strings.Replace(content, old, new, 1)
		load(step)
	}
	load("first load")
	load("same again")
	if h := memoHits(cache); h < 400 {
		t.Fatalf("a reload reused %d outcomes", h)
	}
	replace("a listed tool renamed", "  tool_005:", "  tool_00x:")
	replace("renamed back", "  tool_00x:", "  tool_005:")
	replace("a listed tool made invalid", "  tool_399: tools/tool_399.ts", "  tool_399: [a]")
	replace("made valid again", "  tool_399: [a]", "  tool_399: tools/tool_399.ts")
	replace("another tool made invalid", "  tool_100: tools/tool_100.ts", "  tool_100: [a]")
	// As many tools as before, the same names declared: only the universe
	// tells that the listed tool_399 is gone.
	content = strings.Replace(content, "  tool_100: [a]", "  tool_100: tools/tool_100.ts", 1)
	replace("one tool valid again and a listed one invalid", "  tool_399: tools/tool_399.ts", "  tool_399: [a]")
	replace("a tool an agent asked for declared", "  tool_200:", "  new_tool: tools/tool_000.ts\n  tool_200:")
	replace("an invalid declaration renamed", "  Bad_helper:", "  Bad_helpr:")
	replace("a Beeuni tool removed", "  read: beeuni:read\n", "")
	replace("the tools key renamed", "\ntools:\n", "\ntoolz:\n")
	replace("the tools key back", "\ntoolz:\n", "\ntools:\n")
}

// TestMemoSharesExclusionViews: the agents that remove tools (exclude,
// legacy) see the universe less a few places, not a copy of it: their views
// share the storage of the view of an agent seeing every tool, a renamed
// agent's too, while the tool set is the same; a changed tool set gives a
// universe of its own. Each load is compared with Load.
func TestMemoSharesExclusionViews(t *testing.T) {
	var b strings.Builder
	b.WriteString("tools:\n  memory: beeuni:memory\n")
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "  tool_%02d: beeuni:memory\n", i)
	}
	b.WriteString("agents:\n  lister:\n    tools: [memory]\n  excluder:\n    tools: {exclude: [memory, bash]}\n  legacy:\n    tools: {bash: false}\n  all:\n    tools: all\n")
	content := b.String()
	fsys := vfs.NewMem()
	manifest := filepath.Join(testRoot, ManifestName)
	cache := NewCache()
	cache.chunkLines = 2
	load := func(old, new string) map[string]View {
		t.Helper()
		content = strings.Replace(content, old, new, 1)
		fsys.WriteFile(manifest, []byte(content))
		compareLoads(t, fsys, cache)
		p, err := LoadCached(context.Background(), fsys, testRoot, cache)
		if err != nil {
			t.Fatal(err)
		}
		views := map[string]View{}
		for _, a := range p.Model.Agents {
			views[a.Name] = a.Sees
		}
		return views
	}
	universe := func(v View) *string { return &v.names[0] }
	first := load("", "")
	if universe(first["excluder"]) != universe(first["all"]) || universe(first["legacy"]) != universe(first["all"]) {
		t.Error("the views removing tools do not share the universe")
	}
	if n := first["excluder"].Len(); n != first["all"].Len()-2 || first["excluder"].Contains("memory") {
		t.Errorf("the excluder sees %d tools, memory among them: %v", n, first["excluder"].Contains("memory"))
	}
	renamed := load("  excluder:", "  excluder2:")
	if universe(renamed["excluder2"]) != universe(first["all"]) {
		t.Error("the renamed agent's view is not of the last load's universe")
	}
	other := load("  tool_10: beeuni:memory\n", "")
	if universe(other["excluder2"]) == universe(first["all"]) {
		t.Error("a changed tool set kept the last load's universe")
	}
}

// TestMemoAgentsFollowDeclarationOrder: an invalid declaration moved past a
// valid one leaves the universe and the invalid names the same, but changes
// which of two equally near names A1 suggests (the first declared wins): an
// agent's A1 kept from the last load would suggest the other.
func TestMemoAgentsFollowDeclarationOrder(t *testing.T) {
	var b strings.Builder
	b.WriteString("# project\ntools:\n  memory: beeuni:memory\n  Bad_helper: tools/x.ts\n  bad_helpe: tools/x.ts\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, "  tool_%02d: tools/x.ts\n", i)
	}
	b.WriteString("agents:\n  lister:\n    tools: [bad_helpr]\n")
	content := b.String()
	fsys := vfs.NewMem()
	manifest := filepath.Join(testRoot, ManifestName)
	fsys.WriteFile(filepath.Join(testRoot, "tools", "x.ts"), []byte("export default {}\n"))
	cache := NewCache()
	cache.chunkLines = 2
	fsys.WriteFile(manifest, []byte(content))
	compareLoads(t, fsys, cache)
	content = strings.Replace(content, "  Bad_helper: tools/x.ts\n  bad_helpe: tools/x.ts\n", "  bad_helpe: tools/x.ts\n  Bad_helper: tools/x.ts\n", 1)
	fsys.WriteFile(manifest, []byte(content))
	compareLoads(t, fsys, cache)
	if h := memoHits(cache); h == 0 {
		t.Fatal("the load reused nothing: the comparison proves little")
	}
}
