package analysis

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"golang.org/x/tools/txtar"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// nodeDiff describes the first difference between two trees (comments
// excepted: nothing reads them, see chunkparse.go), or "" when they are the
// same node for node.
func nodeDiff(path string, a, b *yaml.Node) string {
	if a == nil || b == nil {
		if a != b {
			return fmt.Sprintf("%s: one tree is nil (%v, %v)", path, a == nil, b == nil)
		}
		return ""
	}
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value ||
		a.Line != b.Line || a.Column != b.Column || a.Anchor != b.Anchor || len(a.Content) != len(b.Content) {
		return fmt.Sprintf("%s: %+v\n  vs %+v", path, summary(a), summary(b))
	}
	if (a.Alias == nil) != (b.Alias == nil) {
		return path + ": alias differs"
	}
	if a.Alias != nil {
		if d := nodeDiff(path+"*", a.Alias, b.Alias); d != "" {
			return d
		}
	}
	for i := range a.Content {
		if d := nodeDiff(fmt.Sprintf("%s/%d", path, i), a.Content[i], b.Content[i]); d != "" {
			return d
		}
	}
	return ""
}

func summary(n *yaml.Node) string {
	return fmt.Sprintf("kind=%d style=%d tag=%q value=%q %d:%d anchor=%q children=%d", n.Kind, n.Style, n.Tag, n.Value, n.Line, n.Column, n.Anchor, len(n.Content))
}

// parseFileChunked is parseFile by chunks of the server's size, reusing
// the chunks of prev.
func parseFileChunked(path string, content []byte, prev *chunkSet) *parsed {
	return parseFileAfter(nil, path, content, &parsed{chunks: prev}, chunkTarget)
}

// checkChunked parses content by chunks (reusing prev's, as the Cache
// does) and whole, and fails unless both
// give the same nodes, the same positions, the same findings and manifest
// trees that read the same (checkTree).
func checkChunked(t *testing.T, prev *parsed, content []byte, target int) *parsed {
	t.Helper()
	if prev == nil {
		prev = &parsed{}
	}
	full := parseFile(nil, "/repo/beeuni.yaml", content)
	inc := parseFileAfter(nil, "/repo/beeuni.yaml", content, prev, target)
	if d := nodeDiff("doc", full.doc, inc.doc); d != "" {
		t.Fatalf("tree differs for %q:\n%s", content, d)
	}
	if (full.root == nil) != (inc.root == nil) || full.root != nil && full.root != full.doc.Content[0] {
		t.Fatalf("root differs for %q", content)
	}
	if !samePositions(full.pos, inc.pos) {
		t.Fatalf("positions differ for %q:\nfull %+v\nchunked %+v", content, full.pos, inc.pos)
	}
	if !reflect.DeepEqual(full.findings, inc.findings) || !reflect.DeepEqual(full.syntax, inc.syntax) {
		t.Fatalf("findings differ for %q:\nfull %+v\nchunked %+v", content, full.findings, inc.findings)
	}
	checkTree(t, inc, full)
	return inc
}

// edit applies one edit coded by op: where (a fraction of the length), how
// many bytes to delete, and what to insert.
func applyEdit(content []byte, at uint16, del uint8, ins []byte) []byte {
	pos := 0
	if len(content) > 0 {
		pos = int(at) % (len(content) + 1)
	}
	end := pos + int(del%8)
	if end > len(content) {
		end = len(content)
	}
	out := make([]byte, 0, len(content)-end+pos+len(ins))
	out = append(out, content[:pos]...)
	out = append(out, ins...)
	return append(out, content[end:]...)
}

// editAlphabet is what random edits insert: YAML's structure characters
// and ordinary text.
var editAlphabet = []string{"\n", ":", ": ", "-", "- ", "[", "]", "{", "}", "\"", "'", "#", " #", "&a", "*a", "\t", "\r\n", "\r", " ", "  ", "x", "tools", "|", ">", "---\n", "...", "%", "? ", ",", "!!str ", "<<: ", "\n  ", "\n- ", "\nkey: v\n", "é", "\xff", "|+", "|-", ">-", "\n\n", "    ", "\n\n  "}

// editAt applies a random edit at a byte offset of any size (applyEdit's
// offset is 16 bits, for the fuzz input).
func editAt(r *rand.Rand, content []byte) []byte {
	var ins []byte
	if r.Intn(3) > 0 {
		for n := r.Intn(3) + 1; n > 0; n-- {
			ins = append(ins, editAlphabet[r.Intn(len(editAlphabet))]...)
		}
	}
	at := r.Intn(len(content) + 1)
	if r.Intn(2) == 0 {
		if i := bytes.LastIndexByte(content[:at], '\n'); i >= 0 {
			at = i + 1
		}
	}
	end := at
	if r.Intn(2) == 0 {
		end += r.Intn(8)
		if end > len(content) {
			end = len(content)
		}
	}
	out := append([]byte(nil), content[:at]...)
	out = append(out, ins...)
	return append(out, content[end:]...)
}

// corpusManifests returns the YAML files of the golden corpus.
func corpusManifests(t testing.TB) map[string][]byte {
	t.Helper()
	archives, err := filepath.Glob(filepath.Join("testdata", "cases", "*.txtar"))
	if err != nil || len(archives) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	out := map[string][]byte{}
	for _, a := range archives {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".yaml") || strings.HasSuffix(f.Name, ".yml") {
				out[filepath.Base(a)+"/"+f.Name] = f.Data
			}
		}
	}
	return out
}

// chunkTestManifest is a manifest of n tools and n/10 agents, the shape of
// the latency benchmark's workspaces.
func chunkTestManifest(n int) []byte {
	var b strings.Builder
	b.WriteString("# generated\nversion: 1\ntools:\n")
	for i := 0; i < n; i++ {
		if i%7 == 0 {
			fmt.Fprintf(&b, "  tool_%05d: beeuni:tool_%05d\n", i, i)
			continue
		}
		fmt.Fprintf(&b, "  tool_%05d: tools/tool_%05d.ts # module\n", i, i)
	}
	b.WriteString("\nagents:\n")
	for a := 0; a < (n+9)/10; a++ {
		fmt.Fprintf(&b, "  agent_%04d:\n    description: Handles the work of team %d.\n    permission: ask\n    tools:\n", a, a)
		for i := a * 10; i < n && i < a*10+10; i++ {
			fmt.Fprintf(&b, "      - tool_%05d\n", i)
		}
		if a%2 == 0 {
			b.WriteString("      - web_search\n      - read\n")
		}
	}
	b.WriteString("# notes\n")
	return []byte(b.String())
}

// TestChunkedParseTakesTheChunkedPath guards against a differential test
// that passes because everything falls back to the full parse.
func TestChunkedParseTakesTheChunkedPath(t *testing.T) {
	content := chunkTestManifest(1000)
	p := parseFileChunked("/repo/beeuni.yaml", content, nil)
	if len(p.chunks.byHash) < 10 {
		t.Fatalf("generated manifest parsed in %d chunks, want the chunked path", len(p.chunks.byHash))
	}
	// One character changed: one chunk parsed again, the others reused as is.
	edited := bytes.Replace(content, []byte("tool_00500: tools"), []byte("tool_00500: toolz"), 1)
	q := parseFileChunked("/repo/beeuni.yaml", edited, p.chunks)
	fresh := 0
	for h, c := range q.chunks.byHash {
		if old, ok := p.chunks.byHash[h]; !ok || old != c {
			fresh++
		}
	}
	if fresh != 1 {
		t.Errorf("%d chunks parsed again after a one-character edit, want 1", fresh)
	}
	if d := nodeDiff("doc", parseFile(nil, "/repo/beeuni.yaml", edited).doc, q.doc); d != "" {
		t.Fatal(d)
	}
}

// TestChunkedParseMatchesFullParse applies random edits to the golden
// corpus's manifests and to generated ones, parsing each version by chunks
// with the previous version's chunks, and compares with a full parse.
func TestChunkedParseMatchesFullParse(t *testing.T) {
	oneGoroutine(t)
	r := rand.New(rand.NewSource(7))
	bases := corpusManifests(t)
	bases["generated-1000"] = chunkTestManifest(1000)
	bases["generated-30"] = chunkTestManifest(30)
	versions, chunked := 0, 0
	count := func(content []byte, target int) {
		versions++
		if _, _, ok := chunkedTree(nil, content, nil, target); ok {
			chunked++
		}
	}
	for _, base := range bases {
		edits := 40
		if len(base) > 20000 {
			edits = 60
		}
		for _, target := range []int{0, 2, 7, chunkTarget} {
			content := base
			prev := checkChunked(t, nil, content, target)
			for i := 0; i < edits; i++ {
				content = editAt(r, content)
				prev = checkChunked(t, prev, content, target)
				count(content, target)
				if r.Intn(3) == 0 { // back to the base: chunks moved back
					content = base
					prev = checkChunked(t, prev, content, target)
				}
			}
		}
	}
	// Many edited versions must take the chunked path, or the comparison
	// proves little.
	t.Logf("%d of %d edited versions parsed by chunks", chunked, versions)
	if chunked*10 < versions {
		t.Errorf("only %d of %d edited versions parsed by chunks", chunked, versions)
	}
}

// TestLoadCachedMatchesLoad edits beeuni.yaml of each golden workspace and
// requires LoadCached (chunked parses) to give Load's findings and model.
func TestLoadCachedMatchesLoad(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	manifest := filepath.Join(testRoot, "beeuni.yaml")
	for _, w := range goldenWorkspaces(t) {
		fsys, content := w.fsys, w.manifest
		cache := NewCache()
		for i := 0; i < 25; i++ {
			compareLoads(t, fsys, cache)
			content = editAt(r, content)
			fsys.WriteFile(manifest, content)
		}
	}
	fsys := vfs.NewMem()
	fsys.WriteFile(manifest, chunkTestManifest(1000))
	cache := NewCache()
	content := chunkTestManifest(1000)
	for i := 0; i < 20; i++ {
		compareLoads(t, fsys, cache)
		content = editAt(r, content)
		fsys.WriteFile(manifest, content)
	}
}

// goldenWorkspace is a golden case's files and its beeuni.yaml.
type goldenWorkspace struct {
	fsys     *vfs.Mem
	manifest []byte
}

// goldenWorkspaces returns the golden cases that have a beeuni.yaml, each
// in its own file system.
func goldenWorkspaces(t *testing.T) []goldenWorkspace {
	t.Helper()
	archives, err := filepath.Glob(filepath.Join("testdata", "cases", "*.txtar"))
	if err != nil || len(archives) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	var out []goldenWorkspace
	for _, a := range archives {
		data, err := os.ReadFile(a)
		if err != nil {
			t.Fatal(err)
		}
		fsys := vfs.MemFromTxtar(testRoot, data)
		if content, err := fsys.ReadFile(filepath.Join(testRoot, ManifestName)); err == nil {
			out = append(out, goldenWorkspace{fsys, content})
		}
	}
	return out
}

func compareLoads(t *testing.T, fsys vfs.FS, cache *Cache) {
	t.Helper()
	ctx := context.Background()
	want, err1 := Load(ctx, fsys, testRoot)
	got, err2 := LoadCached(ctx, fsys, testRoot, cache)
	if (err1 == nil) != (err2 == nil) {
		t.Fatalf("errors differ: %v, %v", err1, err2)
	}
	if err1 != nil {
		return
	}
	if !reflect.DeepEqual(want.Findings, got.Findings) {
		t.Fatalf("findings differ:\nLoad %+v\nLoadCached %+v", want.Findings, got.Findings)
	}
	if !reflect.DeepEqual(want.Model, got.Model) {
		t.Fatalf("models differ")
	}
	if len(want.Files) != len(got.Files) {
		t.Fatalf("files differ")
	}
	for i := range want.Files {
		if d := nodeDiff(want.Files[i].Rel, want.Files[i].Doc, got.Files[i].Doc); d != "" {
			t.Fatal(d)
		}
	}
}

// FuzzIncrementalParse edits a base manifest (one of the golden corpus's,
// a generated one, or the fuzz input itself) a few times and requires each
// version's chunked parse, made from the previous version's chunks, to equal
// a full parse. ops codes the edits: 2 bytes of offset, 1 byte of deleted
// length, 1 byte n, then n bytes inserted.
func FuzzIncrementalParse(f *testing.F) {
	bases := [][]byte{chunkTestManifest(1000), chunkTestManifest(40)}
	corpus := corpusManifests(f)
	for _, name := range sortedKeys(corpus) {
		bases = append(bases, corpus[name])
	}
	f.Add(uint8(0), uint8(3), []byte("\x10\x00\x00\x01\n"))
	f.Add(uint8(1), uint8(1), []byte("\x00\x40\x02\x02: "))
	f.Add(uint8(2), uint8(0), []byte("\x00\x00\x00\x03  -"))
	f.Add(uint8(3), uint8(2), []byte("\x00\x20\x01\x02&a\x00\x30\x00\x02*a"))
	f.Add(uint8(255), uint8(1), []byte("tools:\n  a: 1\n  b: [\n    2]\nagents:\n  x: {}\n"))
	f.Fuzz(func(t *testing.T, base, target uint8, ops []byte) {
		var content []byte
		if int(base) < len(bases) {
			content = bases[base]
		} else {
			content, ops = ops, nil
		}
		tgt := int(target % 12)
		if target >= 200 {
			tgt = chunkTarget
		}
		prev := checkChunked(t, nil, content, tgt)
		if int(base) >= len(bases) && len(content) > 0 {
			// The input itself: every chunk moved a line down, then one
			// byte taken out of the middle (a parse the next one does not
			// start from).
			moved := append([]byte("\n"), content...)
			prev = checkChunked(t, prev, moved, tgt)
			mid := len(moved) / 2
			checkChunked(t, prev, append(append([]byte(nil), moved[:mid]...), moved[mid+1:]...), tgt)
		}
		for len(ops) >= 4 {
			at := uint16(ops[0])<<8 | uint16(ops[1])
			if len(content) > 65535 {
				at16 := int(at) * (len(content) / 65536)
				content = applyEditAt(content, at16, ops[2], ops[4:4+min(int(ops[3]), len(ops)-4)])
			} else {
				content = applyEdit(content, at, ops[2], ops[4:4+min(int(ops[3]), len(ops)-4)])
			}
			ops = ops[4+min(int(ops[3]), len(ops)-4):]
			prev = checkChunked(t, prev, content, tgt)
		}
	})
}

func applyEditAt(content []byte, pos int, del uint8, ins []byte) []byte {
	if pos > len(content) {
		pos = len(content)
	}
	end := min(pos+int(del%8), len(content))
	out := append([]byte(nil), content[:pos]...)
	out = append(out, ins...)
	return append(out, content[end:]...)
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// BenchmarkParseEdited times what a keystroke in the manifest costs the
// parse cache: one character changed in the middle of the tools, alternately
// typed and removed, parsed by chunks from the previous version's chunks.
func BenchmarkParseEdited(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			manifest, _ := generatedManifest(n)
			at := strings.Index(manifest, fmt.Sprintf("tool_%05d: ", n/2)) + 8
			versions := [][]byte{[]byte(manifest), []byte(manifest[:at] + "x" + manifest[at:])}
			p := parseFileChunked("/repo/beeuni.yaml", versions[0], nil)
			b.ReportAllocs()
			b.ResetTimer()
			defer reportCPU(b)()
			for i := 0; i < b.N; i++ {
				p = parseFileChunked("/repo/beeuni.yaml", versions[(i+1)%2], p.chunks)
				if p.root == nil {
					b.Fatal("no document")
				}
			}
		})
	}
}

// TestParseEditedMatchesFullParse: File.ParseEdited (what checking an
// eject's edit uses) gives the full parse's tree of the edited content, one
// document, or refuses; OneDocument is true only for one document.
func TestParseEditedMatchesFullParse(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	bases := corpusManifests(t)
	bases["generated"] = chunkTestManifest(1000)
	accepted := 0
	for _, name := range sortedKeys(bases) {
		content := bases[name]
		fsys := vfs.NewMem()
		manifest := filepath.Join(testRoot, ManifestName)
		fsys.WriteFile(manifest, content)
		cache := NewCache()
		p, err := LoadCached(context.Background(), fsys, testRoot, cache)
		if err != nil {
			t.Fatal(err)
		}
		f := p.File(manifest)
		if f.OneDocument() {
			if n := countDocuments(content); n != 1 {
				t.Errorf("%s: OneDocument, but %d documents", name, n)
			}
		}
		for i := 0; i < 30; i++ {
			edited := editAt(r, content)
			if i%2 == 0 {
				edited = gentleEdit(r, content)
			}
			doc, ok := f.ParseEdited(edited)
			if !ok {
				continue
			}
			accepted++
			var full yaml.Node
			dec := yaml.NewDecoder(bytes.NewReader(edited))
			if err := dec.Decode(&full); err != nil {
				t.Fatalf("%s: ParseEdited accepted %q, the full parse fails: %v", name, edited, err)
			}
			if d := nodeDiff("doc", &full, doc); d != "" {
				t.Fatalf("%s: ParseEdited's tree differs from the full parse's for %q:\n%s", name, edited, d)
			}
			if n := countDocuments(edited); n != 1 {
				t.Fatalf("%s: ParseEdited accepted %d documents in %q", name, n, edited)
			}
		}
	}
	if accepted < 200 {
		t.Fatalf("ParseEdited accepted only %d edits", accepted)
	}
}

func countDocuments(content []byte) int {
	dec := yaml.NewDecoder(bytes.NewReader(content))
	n := 0
	for ; n < 100; n++ {
		var d yaml.Node
		if err := dec.Decode(&d); err != nil {
			if errors.Is(err, io.EOF) {
				return n
			}
			return -1
		}
	}
	return n
}
