package analysis

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// TestDuplicateKeysWhileTyping types into a 1,000-tool manifest through
// one Cache, renaming tools so that keys repeat and stop repeating, near
// each other and far apart, and requires every load to give Load's T10
// findings.
func TestDuplicateKeysWhileTyping(t *testing.T) {
	fsys := vfs.NewMem()
	manifest := filepath.Join(testRoot, ManifestName)
	base, _ := generatedManifest(1000)
	content := []byte(base)
	rename := func(c []byte, from, to string) []byte {
		if !bytes.Contains(c, []byte("  "+from+": ")) {
			t.Fatalf("no key %s", from)
		}
		return bytes.Replace(c, []byte("  "+from+": "), []byte("  "+to+": "), 1)
	}
	cache := NewCache()
	load := func(c []byte) *Project {
		t.Helper()
		fsys.WriteFile(manifest, c)
		compareLoads(t, fsys, cache)
		p, err := LoadCached(context.Background(), fsys, testRoot, cache)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	repeated := func(p *Project) int {
		n := 0
		for _, f := range p.Findings {
			if f.Code == CodeDuplicateKey {
				n++
			}
		}
		return n
	}
	load(content)
	steps := []struct {
		name string
		edit func([]byte) []byte
		dups int
	}{
		{"a far key repeated", func(c []byte) []byte { return rename(c, "tool_00900", "tool_00100") }, 1},
		{"taken back", func(c []byte) []byte { return c }, 0},
		{"a neighbour repeated", func(c []byte) []byte { return rename(c, "tool_00500", "tool_00501") }, 1},
		{"a name freed", func(c []byte) []byte { return rename(c, "tool_00400", "tool_new") }, 0},
		{"the freed name taken", func(c []byte) []byte {
			return rename(rename(c, "tool_00400", "tool_new"), "tool_00410", "tool_00400")
		}, 0},
		{"the freed name taken back", func(c []byte) []byte {
			return rename(rename(c, "tool_00400", "tool_new"), "tool_00410", "tool_new")
		}, 1},
		{"a letter in a key", func(c []byte) []byte { return rename(c, "tool_00700", "tool_0070x") }, 0},
	}
	for _, s := range steps {
		p := load(s.edit(content))
		if got := repeated(p); got != s.dups {
			t.Fatalf("%s: %d duplicate keys, want %d", s.name, got, s.dups)
		}
	}
}

// TestDuplicateKeysKeptByPosition edits a manifest whose agents: mapping
// (100 agents: a large collection, kept by position) repeats keys in three
// agents' bodies: in a body that repeats a key, in another, above the
// agents (every agent moves a line), one agent split in two on its lines
// (the agents after it keep their lines, one entry further), and back. Each parse must give the
// full parse's findings (checkChunked), and a keystroke in the tools must
// take the agents' findings from the last parse instead of walking them
// again: a finding marked in the last parse's memo comes back marked.
func TestDuplicateKeysKeptByPosition(t *testing.T) {
	base := chunkTestManifest(1000)
	for _, a := range []string{"agent_0010", "agent_0050", "agent_0090"} {
		base = bytes.Replace(base, []byte("  "+a+":\n    description:"), []byte("  "+a+":\n    permission: deny\n    description:"), 1)
	}
	edit := func(c []byte, after, ins string) []byte {
		at := bytes.Index(c, []byte(after))
		if at < 0 {
			t.Fatalf("no %q", after)
		}
		at += len(after)
		return append(append(append([]byte(nil), c[:at]...), ins...), c[at:]...)
	}
	// One agent split in two on the same lines: the agents after it are
	// the same nodes, one entry further.
	split := bytes.Replace(base, []byte("  agent_0060:\n    description: Handles the work of team 60.\n"), []byte("  agent_0060: {}\n  agent_0060b:\n"), 1)
	steps := [][]byte{
		edit(base, "team 50", "x"),
		edit(base, "team 51", "x"),
		edit(base, "agent_0030:\n", "    permission: ask\n"),
		edit(base, "team 90", "x"),
		edit(base, "\nagents:\n", "  agent_new: {}\n"),
		base,
		split,
		edit(split, "team 90", "x"),
		edit(split, "team 89", "x"),
		base,
	}
	// Small chunks (an agent each) and the server's.
	for _, target := range []int{7, chunkTarget} {
		p := checkChunked(t, nil, base, target)
		for _, c := range steps {
			p = checkChunked(t, p, c, target)
		}
	}
	p := checkChunked(t, nil, base, chunkTarget)
	want := 4 // agent_0030 too
	if n := countCode(p.findings, CodeDuplicateKey); n != 3 {
		t.Fatalf("%d duplicate keys in the base manifest, want 3", n)
	}
	p = checkChunked(t, p, steps[2], chunkTarget)
	if n := countCode(p.findings, CodeDuplicateKey); n != want {
		t.Fatalf("%d duplicate keys, want %d", n, want)
	}
	// The agents' run of this parse, marked, then a keystroke in the tools.
	var run *dupRun
	for i := range p.dups.large {
		if len(p.dups.large[i].found) == want {
			run = &p.dups.large[i]
		}
	}
	if run == nil {
		t.Fatalf("no run of the agents with %d findings kept: %+v", want, p.dups.large)
	}
	run.found[1].findings[0].Message = "marked"
	q := parseFileAfter(nil, "/repo/beeuni.yaml", edit(steps[2], "tool_00500: tools", "x"), p, chunkTarget)
	marked := 0
	for _, f := range q.findings {
		if f.Message == "marked" {
			marked++
		}
	}
	if marked != 1 || countCode(q.findings, CodeDuplicateKey) != want {
		t.Fatalf("after a keystroke in the tools: %d marked findings of %d, want 1 of %d (the agents' findings taken from the last parse)", marked, countCode(q.findings, CodeDuplicateKey), want)
	}
}
