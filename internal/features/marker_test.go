package features

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/tools/txtar"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// The marker tests: see testdata/README.md for the syntax.

var update = flag.Bool("update", false, "rewrite the golden sections of the testdata archives")

const wsRoot = "/ws"

// cursorMark marks a cursor in a workspace file; it is removed before the
// workspace is loaded.
const cursorMark = "⁁"

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

// marker is one @name(args) found in a comment.
type marker struct {
	name   string
	args   []string
	file   string // workspace path (absolute)
	line   int    // 1-based line in the file as written (for messages)
	cursor int    // offset of the nearest cursor before it, -1 if none
}

func (m marker) String() string {
	return fmt.Sprintf("%s:%d: @%s(%s)", strings.TrimPrefix(m.file, wsRoot+"/"), m.line, m.name, strings.Join(m.args, ", "))
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
	var markers []marker
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
		text, ms := parseFile(t, abs(f.Name), string(f.Data))
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

// parseFile removes the cursors from a file and reads its markers.
func parseFile(t *testing.T, path, data string) (string, []marker) {
	var out strings.Builder
	var markers []marker
	cursor := -1
	lines := strings.SplitAfter(data, "\n")
	for i, line := range lines {
		// Cursors first, so that a marker on the same line sees them.
		for {
			j := strings.Index(line, cursorMark)
			if j < 0 {
				break
			}
			out.WriteString(line[:j])
			cursor = out.Len()
			line = line[j+len(cursorMark):]
		}
		out.WriteString(line)
		for _, m := range markersIn(t, line) {
			m.file, m.line, m.cursor = path, i+1, cursor
			markers = append(markers, m)
		}
	}
	return out.String(), markers
}

// markersIn parses every @name(args) in the comment part of a line.
func markersIn(t *testing.T, line string) []marker {
	var out []marker
	c := strings.Index(line, "#@")
	if c < 0 {
		c = strings.Index(line, "// @")
		if c < 0 {
			return nil
		}
	}
	s := line[c:]
	for {
		at := strings.Index(s, "@")
		if at < 0 {
			return out
		}
		s = s[at+1:]
		open := strings.Index(s, "(")
		if open < 0 {
			return out
		}
		m := marker{name: s[:open]}
		s = s[open+1:]
		args, rest, err := parseArgs(s)
		if err != nil {
			t.Fatalf("bad marker in %q: %v", line, err)
		}
		m.args = args
		out = append(out, m)
		s = rest
	}
}

// parseArgs reads comma-separated arguments up to the closing parenthesis:
// Go-quoted strings or bare words.
func parseArgs(s string) ([]string, string, error) {
	var args []string
	for {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			return nil, "", fmt.Errorf("unclosed (")
		}
		if s[0] == ')' {
			return args, s[1:], nil
		}
		var arg string
		if s[0] == '"' {
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				return nil, "", err
			}
			arg, _ = strconv.Unquote(q)
			s = s[len(q):]
		} else {
			end := strings.IndexAny(s, ",)")
			if end < 0 {
				return nil, "", fmt.Errorf("unclosed (")
			}
			arg = strings.TrimSpace(s[:end])
			s = s[end:]
		}
		args = append(args, arg)
		s = strings.TrimLeft(s, " ")
		if strings.HasPrefix(s, ",") {
			s = s[1:]
		}
	}
}

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
func (ws *workspace) golden(m marker, name, got string) {
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

func (ws *workspace) needCursor(m marker) {
	if m.cursor < 0 {
		ws.t.Fatalf("%s: no ⁁ cursor before this marker", m)
	}
}

func (ws *workspace) wantArgs(m marker, n int) {
	if len(m.args) < n {
		ws.t.Fatalf("%s: wants %d arguments", m, n)
	}
}

func (ws *workspace) run(m marker) {
	t := ws.t
	p, mods, repo := ws.project(m.file)
	switch m.name {
	case "complete":
		ws.needCursor(m)
		items := Completion(p, repo, m.file, ws.content(m.file), m.cursor)
		var got []string
		for _, it := range items {
			got = append(got, it.Label)
		}
		want := m.args
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
		items := Completion(p, repo, m.file, ws.content(m.file), m.cursor)
		var found *CompletionItem
		for i := range items {
			if items[i].Label == m.args[0] {
				found = &items[i]
			}
		}
		if found == nil {
			t.Errorf("%s: no item %q", m, m.args[0])
			return
		}
		text := ws.content(m.file)
		if r := string(text[found.Edit.Start:found.Edit.End]); r != m.args[1] || found.Edit.NewText != m.args[2] || found.Edit.File != m.file {
			t.Errorf("%s: edit replaces %q with %q in %s, want %q with %q", m, r, found.Edit.NewText, rel(found.Edit.File), m.args[1], m.args[2])
		}
		if len(m.args) > 3 && found.Detail != m.args[3] {
			t.Errorf("%s: detail %q, want %q", m, found.Detail, m.args[3])
		}
	case "hover":
		ws.needCursor(m)
		ws.wantArgs(m, 2)
		h, ok := Hover(p, mods, m.file, m.cursor)
		if !ok {
			t.Errorf("%s: no hover", m)
			return
		}
		if got := string(ws.content(m.file)[h.Range.Start.Offset:h.Range.End.Offset]); got != m.args[1] {
			t.Errorf("%s: hover range covers %q, want %q", m, got, m.args[1])
		}
		ws.golden(m, m.args[0], h.Markdown)
	case "nohover":
		ws.needCursor(m)
		if h, ok := Hover(p, mods, m.file, m.cursor); ok {
			t.Errorf("%s: unexpected hover %q", m, h.Markdown)
		}
	case "def":
		ws.needCursor(m)
		var got []string
		for _, l := range Definition(p, mods, m.file, m.cursor) {
			got = append(got, ws.loc(l))
		}
		ws.same(m, "definition", got, m.args)
	case "refs", "refsNoDecl":
		ws.needCursor(m)
		var got []string
		for _, l := range References(p, m.file, m.cursor, m.name == "refs") {
			got = append(got, ws.loc(l))
		}
		ws.same(m, "references", got, m.args)
	case "highlight":
		ws.needCursor(m)
		var got []string
		for _, h := range DocumentHighlights(p, m.file, m.cursor) {
			s := ws.rng(m.file, h.Range)
			if h.Write {
				s += " write"
			}
			got = append(got, s)
		}
		ws.same(m, "highlights", got, m.args)
	case "prepare":
		ws.needCursor(m)
		ws.wantArgs(m, 1)
		r, name, err := PrepareRename(p, m.file, m.cursor)
		if err != nil {
			t.Errorf("%s: prepareRename refused: %v", m, err)
			return
		}
		if got := string(ws.content(m.file)[r.Start.Offset:r.End.Offset]); got != m.args[0] || name != unquote(m.args[0]) {
			t.Errorf("%s: prepareRename range %q name %q, want %q", m, got, name, m.args[0])
		}
	case "prepareErr":
		ws.needCursor(m)
		ws.wantArgs(m, 1)
		_, _, err := PrepareRename(p, m.file, m.cursor)
		if err == nil || !strings.Contains(err.Error(), m.args[0]) {
			t.Errorf("%s: prepareRename error %v, want one containing %q", m, err, m.args[0])
		}
	case "rename":
		ws.needCursor(m)
		ws.wantArgs(m, 2)
		edits, err := Rename(p, m.file, m.cursor, m.args[0])
		if err != nil {
			t.Errorf("%s: rename refused: %v", m, err)
			return
		}
		var lines []string
		for _, e := range edits {
			lines = append(lines, fmt.Sprintf("%s:%s-%s %q", rel(e.File), ws.pos(e.File, e.Start), ws.pos(e.File, e.End), e.NewText))
		}
		ws.golden(m, m.args[1], strings.Join(lines, "\n"))
	case "renameErr":
		ws.needCursor(m)
		ws.wantArgs(m, 2)
		_, err := Rename(p, m.file, m.cursor, m.args[0])
		if err == nil || !strings.Contains(err.Error(), m.args[1]) {
			t.Errorf("%s: rename error %v, want one containing %q", m, err, m.args[1])
		}
	case "symbols":
		ws.wantArgs(m, 1)
		var b strings.Builder
		var dump func(ss []Symbol, indent string)
		dump = func(ss []Symbol, indent string) {
			for _, s := range ss {
				fmt.Fprintf(&b, "%s%s %s %s sel %s %q\n", indent, s.Kind, s.Name, ws.rng(m.file, s.Range), ws.rng(m.file, s.Selection), s.Detail)
				dump(s.Children, indent+"  ")
			}
		}
		dump(DocumentSymbols(p, m.file), "")
		ws.golden(m, m.args[0], b.String())
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
		for _, s := range WorkspaceSymbols(ps, m.args[0]) {
			lines = append(lines, fmt.Sprintf("%s %s %s:%s %q (%s)", s.Kind, s.Name, rel(s.File), ws.rng(s.File, s.Selection), s.Detail, s.Container))
		}
		ws.golden(m, m.args[1], strings.Join(lines, "\n"))
	case "folding":
		ws.wantArgs(m, 1)
		var lines []string
		for _, fr := range FoldingRanges(p, m.file) {
			lines = append(lines, fmt.Sprintf("%d-%d", fr.StartLine+1, fr.EndLine+1))
		}
		ws.golden(m, m.args[0], strings.Join(lines, "\n"))
	case "links":
		ws.wantArgs(m, 1)
		var lines []string
		for _, l := range DocumentLinks(p, m.file) {
			lines = append(lines, fmt.Sprintf("%s -> %s", ws.rng(m.file, l.Range), rel(l.Target)))
		}
		ws.golden(m, m.args[0], strings.Join(lines, "\n"))
	case "inlay":
		ws.wantArgs(m, 1)
		var lines []string
		for _, h := range InlayHints(p, mods, m.file) {
			if h.Pos.Offset != h.Offset {
				t.Errorf("%s: inlay hint Pos %d != Offset %d", m, h.Pos.Offset, h.Offset)
			}
			lines = append(lines, fmt.Sprintf("%s %q pad=%v tooltip=%q", ws.pos(m.file, h.Offset), h.Label, h.PaddingLeft, h.Tooltip))
		}
		ws.golden(m, m.args[0], strings.Join(lines, "\n"))
	default:
		t.Fatalf("%s: unknown marker", m)
	}
}

// same compares two lists of rendered results.
func (ws *workspace) same(m marker, what string, got, want []string) {
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		ws.t.Errorf("%s: %s\n got  %q\n want %q", m, what, got, want)
	}
}
