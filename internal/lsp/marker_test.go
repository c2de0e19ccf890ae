package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"

	"github.com/beeuni/beeuni-lsp/internal/markertest"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// The server's marker tests run the real server over a pipe on a txtar
// workspace, in the marker syntax of internal/markertest. The archive's
// comment is a script: one marker a line, run in order ("#" starts a prose
// line). A location is a file and a quoted pattern: the pattern's first
// occurrence in the file's current text, where ⁁ marks the cursor (it is
// not part of the text). The markers:
//
//	@open(FILE)                           open FILE in the editor (beeuni.yaml is always opened)
//	@type(FILE, "PATTERN", "TEXT")        the editor replaces PATTERN with TEXT (an incremental change)
//	@diag(FILE, "PATTERN", CODE)          a diagnostic with CODE exactly on PATTERN
//	@diags(FILE, N)                       FILE has exactly N diagnostics
//	@complete(FILE, "PAT⁁TERN", LABEL...) completion offers these labels, in this order
//	@nocomplete(FILE, "PAT⁁TERN", LABEL)  completion does not offer LABEL
//	@edit(FILE, "PAT⁁TERN", LABEL, "PATTERN") the item LABEL replaces exactly PATTERN
//	@hover(FILE, "PAT⁁TERN", "TEXT")      the hover holds TEXT
//	@nohover(FILE, "PAT⁁TERN")            no hover
//	@def(FILE, "PAT⁁TERN", TARGET[, "PATTERN"]) the definition is in TARGET (at PATTERN)
//	@refs(FILE, "PAT⁁TERN", N)            N references, declaration included
//	@highlights(FILE, "PAT⁁TERN", N)      N highlights
//	@symbols(FILE, NAME...)               the outline's top-level names
//	@wsymbol(QUERY, FILE, "PATTERN")      a workspace symbol for QUERY at PATTERN
//	@link(FILE, "PATTERN", TARGET)        a document link on PATTERN to TARGET
//	@rename(FILE, "PAT⁁TERN", NEW, N)     renaming gives N edits
//	@norename(FILE, "PAT⁁TERN", "TEXT")   prepareRename refuses with TEXT in its reason
//	@inlay(FILE, "PATTERN", "LABEL")      an inlay hint LABEL at the end of PATTERN
//	@folds(FILE, N)                       N folding ranges
//
// Every archive runs twice, once with a UTF-16 client and once with a
// UTF-8 one; expected positions are computed by a reference conversion
// independent of the server's Mapper.
func TestMarkers(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "markers", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no marker archives: %v", err)
	}
	for _, file := range files {
		for _, enc := range []Encoding{UTF16, UTF8} {
			t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar")+"/"+string(enc), func(t *testing.T) {
				runMarkers(t, file, enc)
			})
		}
	}
}

const wsRoot = "/ws"

// markerWorkspace loads an archive into memory under /ws.
func markerWorkspace(t testing.TB, file string) (*txtar.Archive, *vfs.Mem) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ar := txtar.Parse(data)
	return ar, vfs.MemFromTxtar(wsRoot, data)
}

// clientCaps is a capable client's capabilities in enc.
func clientCaps(enc Encoding) map[string]any {
	return map[string]any{
		"general": map[string]any{"positionEncodings": []string{string(enc)}},
		"workspace": map[string]any{
			"applyEdit":             true,
			"configuration":         true,
			"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true},
			"workspaceEdit":         map[string]any{"documentChanges": true, "resourceOperations": []string{"create", "delete"}},
		},
		"textDocument": map[string]any{
			"publishDiagnostics": map[string]any{"relatedInformation": true, "versionSupport": true},
			"documentSymbol":     map[string]any{"hierarchicalDocumentSymbolSupport": true},
			"inlayHint":          map[string]any{},
			"codeAction":         map[string]any{"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{"valueSet": []string{"quickfix", "refactor", "source"}}}},
			"hover":              map[string]any{"contentFormat": []string{"markdown"}},
		},
		"window": map[string]any{"workDoneProgress": true, "showDocument": map[string]any{"support": true}},
	}
}

// idleHook lets tests wait until every analysis has been published.
// It is background work: counted as interactive, it would hold back the
// module inspection it waits for.
func idleHook() map[string]requestRoute {
	return map[string]requestRoute{
		"beeuni/test.idle": {class: backgroundWork, handler: func(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
			return nil, s.ws.waitIdle(ctx, true)
		}},
	}
}

// editorSession starts a server on fsys with a capable client in enc and
// the folders as workspace folders.
func editorSession(t testing.TB, fsys vfs.FS, enc Encoding, folders ...string) *session {
	s := startSession(t, fsys, idleHook())
	var wf []map[string]any
	for _, f := range folders {
		wf = append(wf, map[string]any{"uri": string(pathToURI(f)), "name": filepath.Base(f)})
	}
	res := s.initialize(initParams(map[string]any{"capabilities": clientCaps(enc), "workspaceFolders": wf}))
	if res.Capabilities.PositionEncoding != string(enc) {
		t.Fatalf("positionEncoding %q, want %q", res.Capabilities.PositionEncoding, enc)
	}
	return s
}

func (s *session) idle() { s.call("beeuni/test.idle", nil, nil) }

func (s *session) open(path string, text string) {
	s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": string(pathToURI(path)), "languageId": "yaml", "version": 1, "text": text,
	}})
}

// lastDiagnostics returns the last diagnostics published for each file.
func (s *session) lastDiagnostics() map[string]protocol.PublishDiagnosticsParams {
	out := map[string]protocol.PublishDiagnosticsParams{}
	for _, n := range s.notesSnapshot() {
		if n.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p protocol.PublishDiagnosticsParams
		if err := json.Unmarshal(n.Params, &p); err != nil {
			s.t.Fatalf("bad publishDiagnostics: %v", err)
		}
		path, _ := uriToPath(p.URI)
		out[path] = p
	}
	return out
}

// refPosition is the reference conversion of an offset to a position:
// lines end at "\n", columns count UTF-16 units or bytes.
func refPosition(content []byte, offset int, enc Encoding) protocol.Position {
	lineStart := strings.LastIndexByte(string(content[:offset]), '\n') + 1
	line := strings.Count(string(content[:offset]), "\n")
	col := offset - lineStart
	if enc == UTF16 {
		col = 0
		for _, r := range string(content[lineStart:offset]) {
			col += len(utf16.Encode([]rune{r}))
		}
	}
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}

type markerRun struct {
	t       *testing.T
	s       *session
	enc     Encoding
	content map[string][]byte // by absolute path
}

func (r *markerRun) abs(rel string) string { return filepath.Join(wsRoot, filepath.FromSlash(rel)) }

// find returns the offsets of pattern in file: its start, end and cursor
// (the ⁁ or the start).
func (r *markerRun) find(file, pattern string) (start, end, cursor int) {
	r.t.Helper()
	content, ok := r.content[r.abs(file)]
	if !ok {
		r.t.Fatalf("no file %s in the archive", file)
	}
	start, end, cursor, ok = markertest.Pattern(string(content), pattern)
	if !ok {
		r.t.Fatalf("pattern %q not in %s", pattern, file)
	}
	return start, end, cursor
}

func (r *markerRun) pos(file string, offset int) protocol.Position {
	return refPosition(r.content[r.abs(file)], offset, r.enc)
}

func (r *markerRun) rng(file string, start, end int) protocol.Range {
	return protocol.Range{Start: r.pos(file, start), End: r.pos(file, end)}
}

func (r *markerRun) docPos(file, pattern string) map[string]any {
	_, _, cursor := r.find(file, pattern)
	return map[string]any{"textDocument": map[string]any{"uri": string(pathToURI(r.abs(file)))}, "position": r.pos(file, cursor)}
}

func runMarkers(t *testing.T, file string, enc Encoding) {
	ar, fsys := markerWorkspace(t, file)
	r := &markerRun{t: t, enc: enc, content: map[string][]byte{}}
	for _, f := range ar.Files {
		if !strings.Contains(f.Name, " -> ") {
			r.content[r.abs(f.Name)] = f.Data
		}
	}
	r.s = editorSession(t, fsys, enc, wsRoot)
	toOpen := map[string]bool{"beeuni.yaml": true}
	script, err := markertest.Script(string(ar.Comment))
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]string
	for _, m := range script {
		if m.Name == "open" && len(m.Args) == 1 {
			toOpen[m.Args[0]] = true
			continue
		}
		// The checks read the marker's name as the first word.
		lines = append(lines, append([]string{m.Name}, m.Args...))
	}
	for _, f := range sortedKeys(toOpen) {
		r.s.open(r.abs(f), string(r.content[r.abs(f)]))
	}
	versions := map[string]int{}
	for _, args := range lines {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r.t = t
			r.check(args, versions)
		})
	}
}

func (r *markerRun) check(args []string, versions map[string]int) {
	t := r.t
	need := func(n int) {
		if len(args) < n {
			t.Fatalf("marker @%s needs %d arguments, has %d", args[0], n-1, len(args)-1)
		}
	}
	var diags map[string]protocol.PublishDiagnosticsParams
	if args[0] == "diag" || args[0] == "diags" {
		r.s.idle()
		diags = r.s.lastDiagnostics()
	}
	switch args[0] {
	case "type":
		need(4)
		start, end, _ := r.find(args[1], args[2])
		path := r.abs(args[1])
		rng := r.rng(args[1], start, end)
		old := r.content[path]
		r.content[path] = []byte(string(old[:start]) + args[3] + string(old[end:]))
		versions[path]++
		r.s.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": string(pathToURI(path)), "version": 1 + versions[path]},
			"contentChanges": []any{map[string]any{"range": rng, "text": args[3]}},
		})
	case "diag":
		need(4)
		start, end, _ := r.find(args[1], args[2])
		want := r.rng(args[1], start, end)
		got := diags[r.abs(args[1])].Diagnostics
		for _, d := range got {
			if d.Range == want && fmt.Sprint(d.Code) == args[3] {
				return
			}
		}
		t.Errorf("no %s diagnostic at %v in %s; got %s", args[3], want, args[1], describeDiags(got))
	case "diags":
		need(3)
		n, _ := strconv.Atoi(args[2])
		if got := diags[r.abs(args[1])].Diagnostics; len(got) != n {
			t.Errorf("%s: %d diagnostics, want %d: %s", args[1], len(got), n, describeDiags(got))
		}
	case "complete", "nocomplete", "edit":
		need(4)
		var list protocol.CompletionList
		r.s.call("textDocument/completion", r.docPos(args[1], args[2]), &list)
		labels := map[string]int{}
		for i, it := range list.Items {
			if _, dup := labels[it.Label]; !dup {
				labels[it.Label] = i
			}
		}
		switch args[0] {
		case "complete":
			prev := -1
			for _, want := range args[3:] {
				i, ok := labels[want]
				if !ok {
					t.Errorf("completion lacks %q; got %v", want, itemLabels(list.Items))
					continue
				}
				if i < prev {
					t.Errorf("completion offers %q before the previous label; got %v", want, itemLabels(list.Items))
				}
				prev = i
			}
		case "nocomplete":
			if _, ok := labels[args[3]]; ok {
				t.Errorf("completion offers %q; got %v", args[3], itemLabels(list.Items))
			}
		case "edit":
			need(5)
			i, ok := labels[args[3]]
			if !ok {
				t.Fatalf("completion lacks %q; got %v", args[3], itemLabels(list.Items))
			}
			start, end, _ := r.find(args[1], args[4])
			if got, want := list.Items[i].TextEdit.Range, r.rng(args[1], start, end); got != want {
				t.Errorf("item %q replaces %v, want %v", args[3], got, want)
			}
			if list.Items[i].Data != nil {
				var resolved protocol.CompletionItem
				r.s.call("completionItem/resolve", list.Items[i], &resolved)
				if resolved.Documentation == nil {
					t.Errorf("item %q resolves without documentation", args[3])
				}
			}
		}
	case "hover", "nohover":
		need(3)
		var h *protocol.Hover
		r.s.call("textDocument/hover", r.docPos(args[1], args[2]), &h)
		if args[0] == "nohover" {
			if h != nil {
				t.Errorf("unexpected hover %q", h.Contents.Value)
			}
			return
		}
		need(4)
		if h == nil {
			t.Fatalf("no hover")
		}
		if !strings.Contains(h.Contents.Value, args[3]) {
			t.Errorf("hover lacks %q:\n%s", args[3], h.Contents.Value)
		}
	case "def":
		need(4)
		var locs []protocol.Location
		r.s.call("textDocument/definition", r.docPos(args[1], args[2]), &locs)
		if len(locs) == 0 {
			t.Fatalf("no definition")
		}
		if got, want := locs[0].URI, pathToURI(r.abs(args[3])); got != want {
			t.Errorf("definition in %s, want %s", got, want)
		}
		if len(args) > 4 {
			start, _, _ := r.find(args[3], args[4])
			if got, want := locs[0].Range.Start, r.pos(args[3], start); got != want {
				t.Errorf("definition at %v, want %v", got, want)
			}
		}
	case "refs":
		need(4)
		params := r.docPos(args[1], args[2])
		params["context"] = map[string]any{"includeDeclaration": true}
		var locs []protocol.Location
		r.s.call("textDocument/references", params, &locs)
		if n, _ := strconv.Atoi(args[3]); len(locs) != n {
			t.Errorf("%d references, want %d: %v", len(locs), n, locs)
		}
	case "highlights":
		need(4)
		var hs []protocol.DocumentHighlight
		r.s.call("textDocument/documentHighlight", r.docPos(args[1], args[2]), &hs)
		if n, _ := strconv.Atoi(args[3]); len(hs) != n {
			t.Errorf("%d highlights, want %d: %v", len(hs), n, hs)
		}
	case "symbols":
		need(2)
		var syms []protocol.DocumentSymbol
		r.s.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": string(pathToURI(r.abs(args[1])))}}, &syms)
		var names []string
		for _, s := range syms {
			names = append(names, s.Name)
		}
		if strings.Join(names, " ") != strings.Join(args[2:], " ") {
			t.Errorf("outline %v, want %v", names, args[2:])
		}
	case "wsymbol":
		need(4)
		var syms []protocol.SymbolInformation
		r.s.call("workspace/symbol", map[string]any{"query": args[1]}, &syms)
		start, end, _ := r.find(args[2], args[3])
		want := protocol.Location{URI: pathToURI(r.abs(args[2])), Range: r.rng(args[2], start, end)}
		for _, s := range syms {
			if s.Location == want {
				return
			}
		}
		t.Errorf("no workspace symbol at %v; got %v", want, syms)
	case "link":
		need(4)
		var links []protocol.DocumentLink
		r.s.call("textDocument/documentLink", map[string]any{"textDocument": map[string]any{"uri": string(pathToURI(r.abs(args[1])))}}, &links)
		start, end, _ := r.find(args[1], args[2])
		want := r.rng(args[1], start, end)
		for _, l := range links {
			if l.Range == want && l.Target == pathToURI(r.abs(args[3])) {
				return
			}
		}
		t.Errorf("no link %v -> %s; got %v", want, args[3], links)
	case "rename":
		need(5)
		params := r.docPos(args[1], args[2])
		var prep struct {
			Range       protocol.Range `json:"range"`
			Placeholder string         `json:"placeholder"`
		}
		r.s.call("textDocument/prepareRename", params, &prep)
		params["newName"] = args[3]
		var we json.RawMessage
		r.s.call("textDocument/rename", params, &we)
		byURI, _ := textEditsOf(t, we)
		n := 0
		for _, edits := range byURI {
			n += len(edits)
		}
		if want, _ := strconv.Atoi(args[4]); n != want {
			t.Errorf("%d rename edits, want %d: %s", n, want, we)
		}
	case "norename":
		need(4)
		e := r.s.callErr("textDocument/prepareRename", r.docPos(args[1], args[2]))
		if e == nil {
			t.Fatalf("prepareRename accepted")
		}
		if !strings.Contains(e.Message, args[3]) {
			t.Errorf("prepareRename refused with %q, want it to hold %q", e.Message, args[3])
		}
	case "inlay":
		need(4)
		content := r.content[r.abs(args[1])]
		var hints []inlayHintJSON
		params := map[string]any{
			"textDocument": map[string]any{"uri": string(pathToURI(r.abs(args[1])))},
			"range":        protocol.Range{End: refPosition(content, len(content), r.enc)},
		}
		r.s.call(methodInlayHint, params, &hints)
		_, end, _ := r.find(args[1], args[2])
		want := r.pos(args[1], end)
		var got []string
		for _, h := range hints {
			got = append(got, fmt.Sprintf("%v %q", h.Position, h.Label))
			if h.Position.Line == want.Line && strings.Contains(h.Label, args[3]) {
				return
			}
		}
		t.Errorf("no inlay hint %q on line %d; got %v", args[3], want.Line, got)
	case "folds":
		need(3)
		var folds []protocol.FoldingRange
		r.s.call("textDocument/foldingRange", map[string]any{"textDocument": map[string]any{"uri": string(pathToURI(r.abs(args[1])))}}, &folds)
		if n, _ := strconv.Atoi(args[2]); len(folds) != n {
			t.Errorf("%d folding ranges, want %d: %v", len(folds), n, folds)
		}
	default:
		t.Fatalf("unknown marker @%s", args[0])
	}
}

func itemLabels(items []protocol.CompletionItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Label)
	}
	return out
}

func describeDiags(ds []protocol.Diagnostic) string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%v %v-%v %q", d.Code, d.Range.Start, d.Range.End, d.Message))
	}
	sort.Strings(out)
	return "[" + strings.Join(out, "; ") + "]"
}
