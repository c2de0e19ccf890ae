package features

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// TestEveryOffset runs every feature at every byte offset of every file of
// every testdata workspace (cursors removed), including offsets inside
// multi-byte characters: no panic, and every range returned lies inside its
// file and on character boundaries.
func TestEveryOffset(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	ctx := context.Background()
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		ar := txtar.Parse([]byte(strings.ReplaceAll(string(data), cursorMark, "")))
		clean := &txtar.Archive{}
		for _, f := range ar.Files {
			if !strings.HasPrefix(f.Name, "@") {
				clean.Files = append(clean.Files, f)
			}
		}
		fsys := vfs.MemFromTxtar(wsRoot, txtar.Format(clean))
		for _, f := range clean.Files {
			if filepath.Base(f.Name) != analysis.ManifestName {
				continue
			}
			root := filepath.Dir(abs(f.Name))
			p, err := analysis.Load(ctx, fsys, root)
			if err != nil {
				t.Fatal(err)
			}
			repo, _ := ScanRepo(ctx, fsys, root)
			for _, pf := range p.Files {
				checkEveryOffset(t, p, repo, pf)
			}
		}
	}
}

func checkEveryOffset(t *testing.T, p *analysis.Project, repo *RepoFiles, f *analysis.File) {
	for off := -1; off <= len(f.Content())+1; off++ {
		checkEveryOffsetAt(t, p, repo, f, off)
	}
	DocumentSymbols(p, f.Path)
	DocumentLinks(p, f.Path)
	FoldingRanges(p, f.Path)
	for _, h := range InlayHints(p, nil, f.Path) {
		if h.Offset < 0 || h.Offset > len(f.Content()) || insideRune(f.Content(), h.Offset) {
			t.Fatalf("%s: inlay hint at %d", f.Rel, h.Offset)
		}
	}
}

// checkEveryOffsetAt runs the features that take a cursor at off.
func checkEveryOffsetAt(t *testing.T, p *analysis.Project, repo *RepoFiles, f *analysis.File, off int) {
	n := len(f.Content())
	inFile := func(what string, start, end int) {
		if start < 0 || end > n || start > end {
			t.Fatalf("%s: %s range %d-%d outside 0-%d", f.Rel, what, start, end, n)
		}
		for _, o := range []int{start, end} {
			if insideRune(f.Content(), o) {
				t.Fatalf("%s: %s range %d-%d splits a character", f.Rel, what, start, end)
			}
		}
	}
	for _, it := range Completion(p, repo, f.Path, nil, off) {
		inFile("completion "+it.Label, it.Edit.Start, it.Edit.End)
	}
	if h, ok := Hover(p, nil, f.Path, off); ok {
		inFile("hover", h.Range.Start.Offset, h.Range.End.Offset)
	}
	Definition(p, nil, f.Path, off)
	for _, l := range References(p, f.Path, off, true) {
		if samePath(l.File, f.Path) {
			inFile("reference", l.Range.Start.Offset, l.Range.End.Offset)
		}
	}
	for _, h := range DocumentHighlights(p, f.Path, off) {
		inFile("highlight", h.Range.Start.Offset, h.Range.End.Offset)
	}
	PrepareRename(p, f.Path, off)
	_, _ = Rename(p, f.Path, off, "renamed_tool")
	for _, it := range PrepareCallHierarchy(p, nil, f.Path, off) {
		for _, c := range append(IncomingCalls(p, it), OutgoingCalls(p, it)...) {
			for _, r := range c.FromRanges {
				if samePath(c.FromFile, f.Path) {
					inFile("call from "+c.Item.Name, r.Start.Offset, r.End.Offset)
				}
			}
		}
	}
}

// TestNilInputs: features on no project, an unknown file, or no text answer
// nothing instead of failing.
func TestNilInputs(t *testing.T) {
	if Completion(nil, nil, "/x/beeuni.yaml", nil, 0) != nil {
		t.Error("completion without project or text")
	}
	if got := Completion(nil, nil, "/x/beeuni.yaml", []byte("tools:\n  "), 9); len(got) != 5 {
		t.Errorf("completion without a project offers the five Beeuni tools, got %d items", len(got))
	}
	if _, ok := Hover(nil, nil, "/x/beeuni.yaml", 0); ok {
		t.Error("hover without project")
	}
	p := &analysis.Project{Root: "/x"}
	if Definition(p, nil, "/x/beeuni.yaml", 0) != nil || References(p, "/x/beeuni.yaml", 0, true) != nil ||
		DocumentSymbols(p, "/x/beeuni.yaml") != nil || FoldingRanges(p, "/x/beeuni.yaml") != nil ||
		InlayHints(p, nil, "/x/beeuni.yaml") != nil || DocumentLinks(p, "/x/beeuni.yaml") != nil ||
		DocumentHighlights(p, "/x/beeuni.yaml", 0) != nil || WorkspaceSymbols([]*analysis.Project{nil, p}, "") != nil ||
		PrepareCallHierarchy(p, nil, "/x/beeuni.yaml", 0) != nil || PrepareCallHierarchy(nil, nil, "/x/beeuni.yaml", 0) != nil {
		t.Error("a feature answered for a file the project does not have")
	}
	if _, _, err := PrepareRename(p, "/x/beeuni.yaml", 0); err == nil {
		t.Error("prepareRename accepted a file the project does not have")
	}
}

// TestInlayEmptyManifest: an empty root manifest (no tools: key anywhere)
// gets its hint at offset 0, with no padding.
func TestInlayEmptyManifest(t *testing.T) {
	fsys := vfs.MemFromTxtar("/e", []byte("-- beeuni.yaml --\n"))
	p, err := analysis.Load(context.Background(), fsys, "/e")
	if err != nil {
		t.Fatal(err)
	}
	hs := InlayHints(p, nil, "/e/beeuni.yaml")
	if len(hs) != 1 || hs[0].Offset != 0 || hs[0].PaddingLeft || !strings.Contains(hs[0].Label, "all five Beeuni tools") {
		t.Fatalf("hints on an empty manifest: %+v", hs)
	}
}

// TestConcurrentUse: the server answers requests in parallel on one project
// snapshot; run with -race.
func TestConcurrentUse(t *testing.T) {
	ar := "-- beeuni.yaml --\nimports: [more.yaml]\ntools:\n  web_search: beeuni:web_search\n  lookup_order: tools/lookup_order.ts\n" +
		"agents:\n  a:\n    tools: [read, lookup_order]\n" +
		"-- more.yaml --\ntools:\n  crm_note: tools/crm.ts\n" +
		"-- tools/lookup_order.ts --\nexport default {}\n-- tools/crm.ts --\nexport default {}\n-- tools/free.ts --\nexport default {}\n"
	fsys := vfs.MemFromTxtar("/c", []byte(ar))
	p, err := analysis.Load(context.Background(), fsys, "/c")
	if err != nil {
		t.Fatal(err)
	}
	scanned, err := ScanRepo(context.Background(), fsys, "/c")
	if err != nil {
		t.Fatal(err)
	}
	byHand := &RepoFiles{Root: "/c", Modules: []string{"tools/free.ts"}}
	f := p.File("/c/beeuni.yaml")
	at := strings.Index(string(f.Content()), "agents:")
	text := []byte(string(f.Content()[:at]) + "  \n" + string(f.Content()[at:]))
	cursor := at + 2
	done := make(chan bool)
	for g := 0; g < 8; g++ {
		go func(g int) {
			defer func() { done <- true }()
			repo := scanned
			if g%2 == 1 {
				repo = byHand
			}
			for i := 0; i < 20; i++ {
				items := Completion(p, repo, f.Path, text, cursor)
				if len(items) == 0 || items[len(items)-1].Label != "free" {
					t.Errorf("completion: %+v", items)
					return
				}
				Hover(p, nil, f.Path, strings.Index(string(f.Content()), "lookup_order"))
				References(p, f.Path, strings.LastIndex(string(f.Content()), "lookup_order"), true)
				DocumentSymbols(p, f.Path)
				InlayHints(p, nil, f.Path)
			}
		}(g)
	}
	for g := 0; g < 8; g++ {
		<-done
	}
}
