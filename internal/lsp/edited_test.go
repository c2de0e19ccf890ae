package lsp

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// sameMapping fails unless got answers as NewMapper(want, enc) does: the
// same content, length, line index, every offset's position and
// every position's offset (columns past the line end too).
func sameMapping(t *testing.T, label string, got *Mapper, want []byte, enc Encoding) {
	t.Helper()
	ref := NewMapper(want, enc)
	if got.Len() != len(want) {
		t.Fatalf("%s: Len %d, want %d", label, got.Len(), len(want))
	}
	gl, rl := got.Lines(), ref.Lines()
	if gl.Count() != rl.Count() || got.Encoding() != enc {
		t.Fatalf("%s: %d lines, want %d", label, gl.Count(), rl.Count())
	}
	for i := range rl.Count() {
		if gl.LineStart(i) != rl.LineStart(i) || gl.LineEnd(i) != rl.LineEnd(i) {
			t.Fatalf("%s: line %d is [%d,%d), want [%d,%d)", label, i, gl.LineStart(i), gl.LineEnd(i), rl.LineStart(i), rl.LineEnd(i))
		}
	}
	for o := -1; o <= len(want)+1; o++ {
		if g, w := got.Position(o), ref.Position(o); g != w {
			t.Fatalf("%s: Position(%d) = %v, want %v", label, o, g, w)
		}
	}
	for line := range rl.Count() + 1 {
		for col := range 12 {
			p := protocol.Position{Line: uint32(line), Character: uint32(col)}
			if g, w := got.Offset(p), ref.Offset(p); g != w {
				t.Fatalf("%s: Offset(%v) = %d, want %d", label, p, g, w)
			}
		}
	}
	if string(got.Content()) != string(want) {
		t.Fatalf("%s: content %q, want %q", label, got.Content(), want)
	}
}

// TestEditedMatchesNewMapper applies random chains of edits with
// Mapper.Edited (ASCII text, "\r", characters outside ASCII) and holds
// each mapper to NewMapper of the same edits applied to a string.
func TestEditedMatchesNewMapper(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	pieces := []string{"", "a", "bc", "\n", "x\ny\n", "\n\n", "tools:\n  x: y\n", "é", "\r\n", "\r", "😀"}
	for round := range 300 {
		enc := []Encoding{UTF16, UTF8}[round%2]
		text := []string{"", "a", "tools:\n  a: b\n", "x\ny\nz", "\n\n\n"}[rng.IntN(5)]
		m := NewMapper([]byte(text), enc)
		asciiOnly := rng.IntN(4) > 0
		at := 0 // where the last edit ended
		for step := range 150 {
			start, end := rng.IntN(len(text)+1), rng.IntN(len(text)+1)
			if start > end {
				start, end = end, start
			}
			if typing := rng.IntN(3) > 0 && step > 0; typing {
				// Keep typing where the last edit was (same line).
				start, end = min(at, len(text)), min(at, len(text))
			}
			insert := pieces[rng.IntN(len(pieces))]
			if asciiOnly {
				insert = pieces[rng.IntN(7)]
			}
			m = m.Edited(start, end, insert)
			text = text[:start] + insert + text[end:]
			at = start + len(insert)
			if rng.IntN(10) == 0 || step == 149 {
				sameMapping(t, fmt.Sprintf("round %d step %d", round, step), m, []byte(text), enc)
			}
		}
	}
}

// TestEditedContentConcurrent reads an edited content from many
// goroutines while others edit on top of it (go test -race): every
// version keeps its own content.
func TestEditedContentConcurrent(t *testing.T) {
	base := NewMapper([]byte(strings.Repeat("line of text\n", 1000)), UTF16)
	m := base.Edited(5, 9, "LINE").Edited(100, 100, "x\n")
	want := strings.Repeat("line of text\n", 1000)
	want = want[:5] + "LINE" + want[9:]
	want = want[:100] + "x\n" + want[100:]
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				next := m.Edited(0, 1, "Q")
				if got := string(next.Content()); got != "Q"+want[1:] {
					t.Errorf("edited on top: %q...", got[:20])
				}
			}
			if got := string(m.Content()); got != want {
				t.Errorf("content differs: %q...", got[:20])
			}
		}()
	}
	wg.Wait()
	if got := string(base.Content()); got != strings.Repeat("line of text\n", 1000) {
		t.Fatal("editing changed the original content")
	}
}

// TestBufferFSMatchesOverlay holds the view's file system to vfs.Overlay
// with the same documents laid over the same disk: contents, stats,
// listings and link resolution, for documents on and off the disk.
func TestBufferFSMatchesOverlay(t *testing.T) {
	disk := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\ntools: {}\n-- tools/a.ts --\nexport default 1\n-- tools/b.ts --\nb\n-- more/x.yaml --\nx: 1\n"))
	docs := map[string]*document{}
	for path, text := range map[string]string{
		"/ws/beeuni.yaml":  "tools:\n  a: tools/a.ts\n",
		"/ws/tools/new.ts": "export default 2\n",
		"/ws/new/dir.yaml": "",
		"/elsewhere/x.ts":  "x",
	} {
		m := NewMapper([]byte(text), UTF16)
		if path == "/ws/beeuni.yaml" {
			m = m.Edited(0, 0, "# edited\n")
		}
		docs[path] = &document{path: path, mapper: m}
	}
	over := vfs.NewOverlay(disk)
	for p, d := range docs {
		over.Set(p, []byte(string(d.mapper.Content())))
	}
	docs["/ws/beeuni.yaml"].mapper = NewMapper([]byte("tools:\n  a: tools/a.ts\n"), UTF16).Edited(0, 0, "# edited\n")
	bfs := newBufferFS(disk, docs)
	type stat struct {
		Name  string
		Size  int64
		Mode  fs.FileMode
		IsDir bool
		Err   string
	}
	statOf := func(fi fs.FileInfo, err error) stat {
		if err != nil {
			return stat{Err: err.Error()}
		}
		return stat{fi.Name(), fi.Size(), fi.Mode(), fi.IsDir(), ""}
	}
	list := func(es []fs.DirEntry, err error) []stat {
		var out []stat
		for _, e := range es {
			fi, ierr := e.Info()
			s := statOf(fi, ierr)
			s.Mode |= e.Type() << 1 // the entry's own type too
			out = append(out, s)
		}
		if err != nil {
			out = append(out, stat{Err: err.Error()})
		}
		return out
	}
	for _, p := range []string{"/ws/beeuni.yaml", "/ws//beeuni.yaml", "/ws/tools/new.ts", "/ws/tools/a.ts", "/ws/tools", "/ws", "/ws/new", "/ws/new/dir.yaml", "/elsewhere/x.ts", "/elsewhere", "/ws/none.ts", "/ws/more"} {
		gd, ge := bfs.ReadFile(p)
		wd, we := over.ReadFile(p)
		if string(gd) != string(wd) || fmt.Sprint(ge) != fmt.Sprint(we) {
			t.Errorf("ReadFile(%s) = %q %v, overlay %q %v", p, gd, ge, wd, we)
		}
		if g, w := statOf(bfs.Stat(p)), statOf(over.Stat(p)); g != w {
			t.Errorf("Stat(%s) = %+v, overlay %+v", p, g, w)
		}
		if g, w := list(bfs.ReadDir(p)), list(over.ReadDir(p)); !reflect.DeepEqual(g, w) {
			t.Errorf("ReadDir(%s) = %+v, overlay %+v", p, g, w)
		}
		gr, ge := bfs.EvalSymlinks(p)
		wr, we := over.EvalSymlinks(p)
		if gr != wr || fmt.Sprint(ge) != fmt.Sprint(we) {
			t.Errorf("EvalSymlinks(%s) = %q %v, overlay %q %v", p, gr, ge, wr, we)
		}
	}
}

// BenchmarkKeystrokeEdit measures what a didChange of one character does
// to an 870 KB ASCII manifest: the content copied with the edit and
// indexed again (Mapper.Edited), within a line and with a new line.
func BenchmarkKeystrokeEdit(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 870_000; i++ {
		fmt.Fprintf(&sb, "  lookup_order_%05d: tools/lookup_order_%05d.ts\n", i, i)
	}
	content := []byte(sb.String())
	at := len(content) / 2
	for _, text := range []string{"x", "\n"} {
		b.Run(fmt.Sprintf("%q", text), func(b *testing.B) {
			m := NewMapper(content, UTF16)
			b.ReportAllocs()
			for b.Loop() {
				m.Edited(at, at, text)
			}
		})
	}
}
