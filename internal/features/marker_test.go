package features

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/tools/txtar"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/markertest"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// The marker tests: see testdata/README.md for the syntax.

var update = flag.Bool("update", false, "rewrite the golden sections of the testdata archives")

const wsRoot = "/ws"

// cursorMark marks a cursor in a workspace file; it is removed before the
// workspace is loaded.
const cursorMark = markertest.Cursor

func TestMarkers(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/*.txtar")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			runArchive(t, file)
		})
	}
}

// workspace is one loaded archive.
type workspace struct {
	t        *testing.T
	ar       *txtar.Archive
	fs       *vfs.Mem
	texts    map[string][]byte // workspace files as loaded (cursors removed)
	goldens  map[string]string
	projects map[string]*analysis.Project // by root
	modules  map[string]Modules           // by root
	repos    map[string]*RepoFiles        // by root
	current  map[string][]byte            // files whose current text differs from the project's (@good)
	updated  map[string]string
}

func runArchive(t *testing.T, file string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ar := txtar.Parse(data)
	ws := &workspace{t: t, ar: ar, texts: map[string][]byte{}, goldens: map[string]string{},
		projects: map[string]*analysis.Project{}, modules: map[string]Modules{}, repos: map[string]*RepoFiles{},
		current: map[string][]byte{}, updated: map[string]string{}}
	var markers []markertest.Marker
	good := map[string][]byte{}
	clean := &txtar.Archive{}
	for _, f := range ar.Files {
		switch {
		case strings.HasPrefix(f.Name, "@good:"):
			good[abs(strings.TrimPrefix(f.Name, "@good:"))] = f.Data
			continue
		case strings.HasPrefix(f.Name, "@"):
			ws.goldens[strings.TrimPrefix(f.Name, "@")] = string(f.Data)
			continue
		}
		text, ms, err := markertest.File(abs(f.Name), string(f.Data))
		if err != nil {
			t.Fatal(err)
		}
		markers = append(markers, ms...)
		ws.texts[abs(f.Name)] = []byte(text)
		clean.Files = append(clean.Files, txtar.File{Name: f.Name, Data: []byte(text)})
	}
	ws.fs = vfs.MemFromTxtar(wsRoot, txtar.Format(clean))
	// A file with a last good version: the project is loaded from it, the
	// features get the current (broken) text.
	for p, g := range good {
		ws.current[p] = ws.texts[p]
		ws.fs.WriteFile(p, g)
	}
	ctx := context.Background()
	for name := range ws.texts {
		if filepath.Base(name) != analysis.ManifestName {
			continue
		}
		root := filepath.Dir(name)
		p, err := analysis.Load(ctx, ws.fs, root)
		if err != nil {
			t.Fatalf("load %s: %v", root, err)
		}
		ws.projects[root] = p
		ws.modules[root] = analysis.InspectModules(ctx, p, tsinspect.New(ws.fs, tsinspect.Options{})).Results
		rf, err := ScanRepo(ctx, ws.fs, root)
		if err != nil {
			t.Fatalf("scan %s: %v", root, err)
		}
		ws.repos[root] = rf
	}
	if len(markers) == 0 {
		t.Fatal("no markers")
	}
	for _, m := range markers {
		ws.run(m)
	}
	if *update && len(ws.updated) > 0 {
		for i, f := range ar.Files {
			if strings.HasPrefix(f.Name, "@") && !strings.HasPrefix(f.Name, "@good:") {
				if v, ok := ws.updated[strings.TrimPrefix(f.Name, "@")]; ok {
					ar.Files[i].Data = []byte(v)
					delete(ws.updated, strings.TrimPrefix(f.Name, "@"))
				}
			}
		}
		names := make([]string, 0, len(ws.updated))
		for n := range ws.updated {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			ar.Files = append(ar.Files, txtar.File{Name: "@" + n, Data: []byte(ws.updated[n])})
		}
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func abs(name string) string { return filepath.Join(wsRoot, filepath.FromSlash(name)) }

// project returns the project that holds path.
func (ws *workspace) project(path string) (*analysis.Project, Modules, *RepoFiles) {
	root, ok := analysis.FindRoot(ws.fs, path)
	if !ok {
		ws.t.Fatalf("%s: no beeuni.yaml above it", path)
	}
	return ws.projects[root], ws.modules[root], ws.repos[root]
}

// content returns a file's bytes as the features see them.
func (ws *workspace) content(path string) []byte {
	if c, ok := ws.current[path]; ok {
		return c
	}
	if c, ok := ws.texts[path]; ok {
		return c
	}
	c, err := ws.fs.ReadFile(path)
	if err != nil {
		ws.t.Fatalf("read %s: %v", path, err)
	}
	return c
}

// pos renders an offset of a file as line:col, 1-based, the column in
// characters.
func (ws *workspace) pos(path string, off int) string {
	c := ws.content(path)
	if _, ok := ws.current[path]; ok {
		if b, err := ws.fs.ReadFile(path); err == nil {
			c = b // positions from the project are in the good version
		}
	}
	l := diag.NewLines(c)
	p := l.Pos(off)
	return fmt.Sprintf("%d:%d", p.Line+1, utf8.RuneCount(c[l.LineStart(p.Line):off])+1)
}

func (ws *workspace) rng(path string, r diag.Range) string {
	return ws.pos(path, r.Start.Offset) + "-" + ws.pos(path, r.End.Offset)
}

func rel(path string) string { return strings.TrimPrefix(filepath.ToSlash(path), wsRoot+"/") }

func (ws *workspace) loc(l Location) string {
	if l.Range.IsZero() {
		return rel(l.File)
	}
	return rel(l.File) + ":" + ws.rng(l.File, l.Range)
}

// golden compares got with the golden section name (or records it).
func (ws *workspace) golden(m markertest.Marker, name, got string) {
	if !strings.HasSuffix(got, "\n") {
		got += "\n"
	}
	if *update {
		ws.updated[name] = got
		return
	}
	want, ok := ws.goldens[name]
	if !ok {
		ws.t.Errorf("%s: no golden section -- @%s -- (run with -update)", m, name)
		return
	}
	if got != want {
		ws.t.Errorf("%s: golden @%s differs\n--- got ---\n%s--- want ---\n%s", m, name, got, want)
	}
}

func (ws *workspace) needCursor(m markertest.Marker) {
	if m.Cursor < 0 {
		ws.t.Fatalf("%s: no ⁁ cursor before this marker", m)
	}
}

func (ws *workspace) wantArgs(m markertest.Marker, n int) {
	if len(m.Args) < n {
		ws.t.Fatalf("%s: wants %d arguments", m, n)
	}
}

func (ws *workspace) run(m markertest.Marker) {
	t := ws.t
	p, mods, repo := ws.project(m.File)
	switch m.Name {
	case "complete":
		ws.needCursor(m)
		items := Completion(p, repo, m.File, ws.content(m.File), m.Cursor)
		var got []string
		for _, it := range items {
			got = append(got, it.Label)
		}
		want := m.Args
		if n := len(want); n > 0 && want[n-1] == "..." {
			want = want[:n-1]
			if len(got) > len(want) {
				got = got[:len(want)]
			}
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: completions\n got  %q\n want %q", m, got, want)
		}
		for i := 1; i < len(items); i++ {
			if items[i-1].SortText >= items[i].SortText {
				t.Errorf("%s: SortText not ascending at %q", m, items[i].Label)
			}
		}
	case "item":
		// @item(label, replaced, newText[, detail])
		ws.needCursor(m)
		ws.wantArgs(m, 3)
		items := Completion(p, repo, m.File, ws.content(m.File), m.Cursor)
		var found *CompletionItem
		for i := range items {
			if items[i].Label == m.Args[0] {
				found = &items[i]
			}
		}
		if found == nil {
			t.Errorf("%s: no item %q", m, m.Args[0])
			return
		}
		text := ws.content(m.File)
		if r := string(text[found.Edit.Start:found.Edit.End]); r != m.Args[1] || found.Edit.NewText != m.Args[2] || found.Edit.File != m.File {
			t.Errorf("%s: edit replaces %q with %q in %s, want %q with %q", m, r, found.Edit.NewText, rel(found.Edit.File), m.Args[1], m.Args[2])
		}
		if len(m.Args) > 3 && found.Detail != m.Args[3] {
			t.Errorf("%s: detail %q, want %q", m, found.Detail, m.Args[3])
		}
	case "hover":
		ws.needCursor(m)
		ws.wantArgs(m, 2)
		h, ok := Hover(p, mods, m.File, m.Cursor)
		if !ok {
			t.Errorf("%s: no hover", m)
			return
		}
		if got := string(ws.content(m.File)[h.Range.Start.Offset:h.Range.End.Offset]); got != m.Args[1] {
			t.Errorf("%s: hover range covers %q, want %q", m, got, m.Args[1])
		}
		ws.golden(m, m.Args[0], h.Markdown)
	case "nohover":
		ws.needCursor(m)
		if h, ok := Hover(p, mods, m.File, m.Cursor); ok {
			t.Errorf("%s: unexpected hover %q", m, h.Markdown)
		}
	case "def":
		ws.needCursor(m)
		var got []string
		for _, l := range Definition(p, mods, m.File, m.Cursor) {
			got = append(got, ws.loc(l))
		}
		ws.same(m, "definition", got, m.Args)
	case "refs", "refsNoDecl":
		ws.needCursor(m)
		var got []string
		for _, l := range References(p, m.File, m.Cursor, m.Name == "refs") {
			got = append(got, ws.loc(l))
		}
		ws.same(m, "references", got, m.Args)
	case "highlight":
		ws.needCursor(m)
		var got []string
		for _, h := range DocumentHighlights(p, m.File, m.Cursor) {
			s := ws.rng(m.File, h.Range)
			if h.Write {
				s += " write"
			}
			got = append(got, s)
		}
		ws.same(m, "highlights", got, m.Args)
	case "prepare":
		ws.needCursor(m)
		ws.wantArgs(m, 1)
		r, name, err := PrepareRename(p, m.File, m.Cursor)
		if err != nil {
			t.Errorf("%s: prepareRename refused: %v", m, err)
			return
		}
		if got := string(ws.content(m.File)[r.Start.Offset:r.End.Offset]); got != m.Args[0] || name != unquote(m.Args[0]) {
			t.Errorf("%s: prepareRename range %q name %q, want %q", m, got, name, m.Args[0])
		}
	case "prepareErr":
		ws.needCursor(m)
		ws.wantArgs(m, 1)
		_, _, err := PrepareRename(p, m.File, m.Cursor)
		if err == nil || !strings.Contains(err.Error(), m.Args[0]) {
			t.Errorf("%s: prepareRename error %v, want one containing %q", m, err, m.Args[0])
		}
	case "rename":
		ws.needCursor(m)
		ws.wantArgs(m, 2)
		edits, err := Rename(p, m.File, m.Cursor, m.Args[0])
		if err != nil {
			t.Errorf("%s: rename refused: %v", m, err)
			return
		}
		var lines []string
		for _, e := range edits {
			lines = append(lines, fmt.Sprintf("%s:%s-%s %q", rel(e.File), ws.pos(e.File, e.Start), ws.pos(e.File, e.End), e.NewText))
		}
		ws.golden(m, m.Args[1], strings.Join(lines, "\n"))
	case "renameErr":
		ws.needCursor(m)
		ws.wantArgs(m, 2)
		_, err := Rename(p, m.File, m.Cursor, m.Args[0])
		if err == nil || !strings.Contains(err.Error(), m.Args[1]) {
			t.Errorf("%s: rename error %v, want one containing %q", m, err, m.Args[1])
		}
	case "symbols":
		ws.wantArgs(m, 1)
		var b strings.Builder
		var dump func(ss []Symbol, indent string)
		dump = func(ss []Symbol, indent string) {
			for _, s := range ss {
				fmt.Fprintf(&b, "%s%s %s %s sel %s %q\n", indent, s.Kind, s.Name, ws.rng(m.File, s.Range), ws.rng(m.File, s.Selection), s.Detail)
				dump(s.Children, indent+"  ")
			}
		}
		dump(DocumentSymbols(p, m.File), "")
		ws.golden(m, m.Args[0], b.String())
	case "wsymbols":
		ws.wantArgs(m, 2)
		var ps []*analysis.Project
		roots := make([]string, 0, len(ws.projects))
		for r := range ws.projects {
			roots = append(roots, r)
		}
		sort.Strings(roots)
		for _, r := range roots {
			ps = append(ps, ws.projects[r])
		}
		var lines []string
		for _, s := range WorkspaceSymbols(ps, m.Args[0]) {
			lines = append(lines, fmt.Sprintf("%s %s %s:%s %q (%s)", s.Kind, s.Name, rel(s.File), ws.rng(s.File, s.Selection), s.Detail, s.Container))
		}
		ws.golden(m, m.Args[1], strings.Join(lines, "\n"))
	case "folding":
		ws.wantArgs(m, 1)
		var lines []string
		for _, fr := range FoldingRanges(p, m.File) {
			lines = append(lines, fmt.Sprintf("%d-%d", fr.StartLine+1, fr.EndLine+1))
		}
		ws.golden(m, m.Args[0], strings.Join(lines, "\n"))
	case "links":
		ws.wantArgs(m, 1)
		var lines []string
		for _, l := range DocumentLinks(p, m.File) {
			lines = append(lines, fmt.Sprintf("%s -> %s", ws.rng(m.File, l.Range), rel(l.Target)))
		}
		ws.golden(m, m.Args[0], strings.Join(lines, "\n"))
	case "inlay":
		ws.wantArgs(m, 1)
		var lines []string
		for _, h := range InlayHints(p, mods, m.File) {
			if h.Pos.Offset != h.Offset {
				t.Errorf("%s: inlay hint Pos %d != Offset %d", m, h.Pos.Offset, h.Offset)
			}
			lines = append(lines, fmt.Sprintf("%s %q pad=%v tooltip=%q", ws.pos(m.File, h.Offset), h.Label, h.PaddingLeft, h.Tooltip))
		}
		ws.golden(m, m.Args[0], strings.Join(lines, "\n"))
	case "calls":
		// @calls(golden): the call hierarchy items at the cursor, each with
		// its incoming calls (a tool) or outgoing calls (an agent).
		ws.needCursor(m)
		ws.wantArgs(m, 1)
		var lines []string
		item := func(it CallItem) string {
			kind := "tool"
			if it.Kind == CallAgent {
				kind = "agent"
			}
			return fmt.Sprintf("%s %s %q %s:%s sel %s", kind, it.Name, it.Detail, rel(it.File), ws.rng(it.File, it.Range), ws.rng(it.File, it.Selection))
		}
		for _, it := range PrepareCallHierarchy(p, mods, m.File, m.Cursor) {
			lines = append(lines, item(it))
			calls, dir := IncomingCalls(p, it), "in "
			if it.Kind == CallAgent {
				calls, dir = OutgoingCalls(p, it), "out"
			}
			for _, c := range calls {
				var from []string
				for _, r := range c.FromRanges {
					from = append(from, ws.rng(c.FromFile, r))
				}
				lines = append(lines, fmt.Sprintf("  %s %s from %s:%s", dir, item(c.Item), rel(c.FromFile), strings.Join(from, ",")))
			}
		}
		ws.golden(m, m.Args[0], strings.Join(lines, "\n"))
	default:
		t.Fatalf("%s: unknown marker", m)
	}
}

// same compares two lists of rendered results.
func (ws *workspace) same(m markertest.Marker, what string, got, want []string) {
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		ws.t.Errorf("%s: %s\n got  %q\n want %q", m, what, got, want)
	}
}
