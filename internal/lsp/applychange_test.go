package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"

	"github.com/beeuni/beeuni-lsp/internal/analysis/edit"
	"github.com/beeuni/beeuni-lsp/internal/beeunitools"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
	"github.com/beeuni/beeuni-lsp/internal/vfs/vfstest"
)

// testEditor is the editor side of a session on a workspace on disk: it
// keeps the open documents, applies the workspace edits the server sends
// (workspace/applyEdit) or a code action carries, as an editor does, and
// queues what an editor then tells the server (didChange for an open
// document, file watcher events for the disk).
type testEditor struct {
	t *testing.T

	mu      sync.Mutex
	docs    map[string]*editorDoc
	notes   [][2]any // method, params: sent by flush
	applied int
	shown   []string
	reject  string // when set, workspace/applyEdit fails with this reason
	// beforeApply, when set, runs as a workspace/applyEdit arrives, before
	// the editor looks at it (a test types there, as a user would while
	// the server prepared the edit).
	beforeApply func()
	// immediate: an applied edit's didChange goes to the server at once,
	// before the editor answers workspace/applyEdit (as editors do), not
	// when the test flushes.
	immediate bool
	s         *session
}

type editorDoc struct {
	text    string
	version int
}

func newTestEditor(t *testing.T, s *session) *testEditor {
	ed := &testEditor{t: t, docs: map[string]*editorDoc{}, s: s}
	s.serverCalls["workspace/applyEdit"] = func(p json.RawMessage) any {
		var params struct {
			Edit json.RawMessage `json:"edit"`
		}
		if err := json.Unmarshal(p, &params); err != nil {
			t.Errorf("applyEdit params: %v", err)
			return map[string]any{"applied": false}
		}
		ed.mu.Lock()
		reject, before := ed.reject, ed.beforeApply
		ed.mu.Unlock()
		if before != nil {
			before()
		}
		if reject != "" {
			return map[string]any{"applied": false, "failureReason": reject}
		}
		if err := ed.apply(params.Edit); err != nil {
			return map[string]any{"applied": false, "failureReason": err.Error()}
		}
		ed.mu.Lock()
		ed.applied++
		ed.mu.Unlock()
		return map[string]any{"applied": true}
	}
	s.serverCalls["window/showDocument"] = func(p json.RawMessage) any {
		var params struct {
			URI protocol.DocumentURI `json:"uri"`
		}
		_ = json.Unmarshal(p, &params)
		path, _ := uriToPath(params.URI)
		ed.mu.Lock()
		ed.shown = append(ed.shown, path)
		ed.mu.Unlock()
		return map[string]any{"success": true}
	}
	return ed
}

func (ed *testEditor) setReject(reason string) {
	ed.mu.Lock()
	ed.reject = reason
	ed.mu.Unlock()
}

// open opens a file of the disk in the editor.
func (ed *testEditor) open(s *session, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		ed.t.Fatal(err)
	}
	ed.mu.Lock()
	ed.docs[path] = &editorDoc{text: string(data), version: 1}
	ed.mu.Unlock()
	s.open(path, string(data))
}

// typeAt inserts text at the start of line (0-based) of an open document,
// as the user typing, and sends the didChange at once.
func (ed *testEditor) typeAt(s *session, path string, line int, text string) {
	ed.mu.Lock()
	d := ed.docs[path]
	off := 0
	for i := 0; i < line; i++ {
		j := strings.IndexByte(d.text[off:], '\n')
		if j < 0 {
			break
		}
		off += j + 1
	}
	at := protocol.Position{Line: uint32(strings.Count(d.text[:off], "\n"))}
	d.text = d.text[:off] + text + d.text[off:]
	d.version++
	// Sent before the editor changes again: the server sees the versions
	// in order.
	defer ed.mu.Unlock()
	s.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": string(pathToURI(path)), "version": d.version},
		"contentChanges": []any{map[string]any{"range": protocol.Range{Start: at, End: at}, "text": text}},
	})
}

func (ed *testEditor) text(path string) (string, bool) {
	ed.mu.Lock()
	defer ed.mu.Unlock()
	if d := ed.docs[path]; d != nil {
		return d.text, true
	}
	return "", false
}

// flush sends what the editor queued while applying edits.
func (ed *testEditor) flush(s *session) {
	ed.mu.Lock()
	notes := ed.notes
	ed.notes = nil
	ed.mu.Unlock()
	for _, n := range notes {
		s.notify(n[0].(string), n[1])
	}
}

// apply applies a WorkspaceEdit: changes, or documentChanges in order. As
// editors do, it refuses the whole edit when a TextDocumentEdit names a
// version that is not the open document's (or a version for a file that is
// not open), before applying anything.
func (ed *testEditor) apply(raw json.RawMessage) error {
	var we struct {
		Changes         map[protocol.DocumentURI][]protocol.TextEdit `json:"changes"`
		DocumentChanges []struct {
			Kind    string               `json:"kind"`
			URI     protocol.DocumentURI `json:"uri"`
			Options *struct {
				Overwrite bool `json:"overwrite"`
			} `json:"options"`
			TextDocument *struct {
				URI     protocol.DocumentURI `json:"uri"`
				Version *int                 `json:"version"`
			} `json:"textDocument"`
			Edits []protocol.TextEdit `json:"edits"`
		} `json:"documentChanges"`
	}
	if err := json.Unmarshal(raw, &we); err != nil {
		return fmt.Errorf("decode the workspace edit: %w", err)
	}
	ed.mu.Lock()
	defer ed.mu.Unlock()
	for _, dc := range we.DocumentChanges {
		if dc.TextDocument == nil || dc.TextDocument.Version == nil {
			continue
		}
		path, err := uriToPath(dc.TextDocument.URI)
		if err != nil {
			return err
		}
		d := ed.docs[path]
		if d == nil || d.version != *dc.TextDocument.Version {
			return fmt.Errorf("%s: the edit is for version %d, the document is at another version", dc.TextDocument.URI, *dc.TextDocument.Version)
		}
	}
	if we.DocumentChanges != nil {
		for _, dc := range we.DocumentChanges {
			var err error
			switch {
			case dc.Kind == "create":
				err = ed.create(dc.URI, dc.Options != nil && dc.Options.Overwrite)
			case dc.Kind == "delete":
				err = ed.remove(dc.URI)
			case dc.TextDocument != nil:
				err = ed.editText(dc.TextDocument.URI, dc.Edits)
			default:
				err = fmt.Errorf("unknown document change kind %q", dc.Kind)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	uris := make([]string, 0, len(we.Changes))
	for uri := range we.Changes {
		uris = append(uris, string(uri))
	}
	sort.Strings(uris)
	for _, uri := range uris {
		if err := ed.editText(protocol.DocumentURI(uri), we.Changes[protocol.DocumentURI(uri)]); err != nil {
			return err
		}
	}
	return nil
}

func (ed *testEditor) create(uri protocol.DocumentURI, overwrite bool) error {
	path, err := uriToPath(uri)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(path); err == nil && !overwrite {
		return fmt.Errorf("%s exists", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		return err
	}
	ed.notes = append(ed.notes, [2]any{"workspace/didChangeWatchedFiles", map[string]any{"changes": []any{fileEvent(path, 1)}}})
	return nil
}

func (ed *testEditor) remove(uri protocol.DocumentURI) error {
	path, err := uriToPath(uri)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil {
		return err
	}
	ed.notes = append(ed.notes, [2]any{"workspace/didChangeWatchedFiles", map[string]any{"changes": []any{fileEvent(path, 3)}}})
	return nil
}

// editText applies text edits to an open document (the buffer changes, the
// disk does not) or to a file on disk.
func (ed *testEditor) editText(uri protocol.DocumentURI, edits []protocol.TextEdit) error {
	path, err := uriToPath(uri)
	if err != nil {
		return err
	}
	d := ed.docs[path]
	var text string
	if d != nil {
		text = d.text
	} else {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text = string(data)
	}
	out, err := applyTextEdits(text, edits)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if d != nil {
		d.text = out
		d.version++
		note := [2]any{"textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": string(uri), "version": d.version},
			"contentChanges": []any{map[string]any{"text": out}},
		}}
		if ed.immediate {
			ed.s.notify(note[0].(string), note[1])
		} else {
			ed.notes = append(ed.notes, note)
		}
		return nil
	}
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		return err
	}
	ed.notes = append(ed.notes, [2]any{"workspace/didChangeWatchedFiles", map[string]any{"changes": []any{fileEvent(path, 2)}}})
	return nil
}

// applyTextEdits applies LSP edits (UTF-16 positions, all relative to the
// original text) with a conversion of its own.
func applyTextEdits(text string, edits []protocol.TextEdit) (string, error) {
	type span struct {
		start, end int
		newText    string
	}
	spans := make([]span, 0, len(edits))
	for _, e := range edits {
		spans = append(spans, span{utf16Offset(text, e.Range.Start), utf16Offset(text, e.Range.End), e.NewText})
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var b strings.Builder
	prev := 0
	for _, sp := range spans {
		if sp.start < prev || sp.end < sp.start {
			return "", errors.New("overlapping or inverted edits")
		}
		b.WriteString(text[prev:sp.start])
		b.WriteString(sp.newText)
		prev = sp.end
	}
	b.WriteString(text[prev:])
	return b.String(), nil
}

// utf16Offset converts a UTF-16 position to a byte offset (lines end at
// "\n"; a column past the line's end stops at it).
func utf16Offset(text string, p protocol.Position) int {
	i := 0
	for line := uint32(0); line < p.Line; line++ {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			return len(text)
		}
		i += j + 1
	}
	units := uint32(0)
	for k, r := range text[i:] {
		if r == '\n' || units >= p.Character {
			return i + k
		}
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
	}
	return len(text)
}

// applyCase is one archive of testdata/applychange.
type applyCase struct {
	open    []string // repo paths; actions are asked in the first
	at      string   // the cursor is at the start of this text
	title   string
	kind    string
	fixes   string // the code the action fixes, gone afterwards
	files   map[string]string
	want    map[string]string // repo path → content after
	created map[string]string // repo path → expected source ("beeuni:<name>", "template:<name>")
	deleted []string
}

func readApplyCase(t *testing.T, file string) applyCase {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ar := txtar.Parse(data)
	c := applyCase{files: map[string]string{}, want: map[string]string{}, created: map[string]string{}}
	for _, f := range ar.Files {
		switch {
		case f.Name == "action":
			for _, line := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
				key, value, _ := strings.Cut(line, " ")
				switch key {
				case "open":
					c.open = strings.Fields(value)
				case "at":
					c.at = value
				case "title":
					c.title = value
				case "kind":
					c.kind = value
				case "fixes":
					c.fixes = value
				default:
					t.Fatalf("%s: unknown action line %q", file, line)
				}
			}
		case f.Name == "want/created":
			for _, line := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
				p, src, _ := strings.Cut(line, " ")
				c.created[p] = src
			}
		case f.Name == "want/deleted":
			c.deleted = strings.Fields(string(f.Data))
		case strings.HasPrefix(f.Name, "want/"):
			c.want[strings.TrimPrefix(f.Name, "want/")] = string(f.Data)
		default:
			c.files[f.Name] = string(f.Data)
			if name, ok := strings.CutPrefix(strings.TrimSpace(string(f.Data)), "{{beeuni source "); ok {
				src, known := beeunitools.Source(strings.TrimSuffix(name, "}}"))
				if !known {
					t.Fatalf("%s: %s: no embedded source %q", file, f.Name, name)
				}
				c.files[f.Name] = string(src) // the copy as eject wrote it
			}
		}
	}
	if len(c.open) == 0 || c.at == "" || c.title == "" || c.kind == "" {
		t.Fatalf("%s: the action needs open, at, title and kind", file)
	}
	return c
}

// expectedSource is the content a created file must have.
func expectedSource(t *testing.T, rel, spec string) string {
	kind, name, _ := strings.Cut(spec, ":")
	switch kind {
	case "beeuni":
		src, ok := beeunitools.Source(name)
		if !ok {
			t.Fatalf("no embedded source for %s", name)
		}
		return string(src)
	case "template":
		return string(edit.ModuleTemplate(name, filepath.Ext(rel)))
	}
	t.Fatalf("unknown created source %q", spec)
	return ""
}

// actionClients are the two client kinds: one that creates and deletes
// files in workspace edits, one that cannot (the server does it on a
// command).
var actionClients = []struct {
	name      string
	resources bool
}{
	{"resource operations", true},
	{"no resource operations", false},
}

// startActionSession writes files under a temporary folder and starts a
// server on the disk with a client that has resource operations or not.
func startActionSession(t *testing.T, files map[string]string, resources bool) (*session, *testEditor, string) {
	dir := t.TempDir()
	vfstest.WriteFiles(t, dir, files)
	s := startSession(t, vfs.NewDisk(), idleHook())
	ed := newTestEditor(t, s)
	caps := clientCaps(UTF16)
	if !resources {
		caps["workspace"].(map[string]any)["workspaceEdit"] = map[string]any{"documentChanges": true}
	}
	s.initialize(initParams(map[string]any{"capabilities": caps, "workspaceFolders": []any{map[string]any{"uri": string(pathToURI(dir)), "name": "ws"}}}))
	return s, ed, dir
}

// allCodes returns every published code, by repo path.
func allCodes(s *session, dir string) map[string][]string {
	out := map[string][]string{}
	ds := s.lastDiagnostics()
	for path := range ds {
		rel, err := filepath.Rel(dir, path)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		if cs := codes(ds, path); len(cs) > 0 {
			out[filepath.ToSlash(rel)] = cs
		}
	}
	return out
}

// run carries out the action as the client would: apply its edit, or
// execute its command.
func (ed *testEditor) run(s *session, a *codeActionJSON) *wireError {
	ed.t.Helper()
	switch {
	case a.Edit != nil:
		data, _ := json.Marshal(a.Edit)
		if err := ed.apply(data); err != nil {
			ed.t.Fatalf("applying the edit of %q: %v", a.Title, err)
		}
	case a.Command != nil:
		if e := s.callErr("workspace/executeCommand", map[string]any{"command": a.Command.Command, "arguments": a.Command.Arguments}); e != nil {
			return e
		}
	default:
		ed.t.Fatalf("action %q has neither an edit nor a command", a.Title)
	}
	ed.flush(s)
	s.idle()
	return nil
}

func TestActionsThatEditTheProject(t *testing.T) {
	files, err := filepath.Glob("testdata/applychange/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test archives: %v", err)
	}
	for _, file := range files {
		c := readApplyCase(t, file)
		for _, cl := range actionClients {
			t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar")+"/"+cl.name, func(t *testing.T) {
				s, ed, dir := startActionSession(t, c.files, cl.resources)
				abs := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
				for _, rel := range c.open {
					ed.open(s, abs(rel))
				}
				s.idle()
				before := allCodes(s, dir)
				if c.fixes != "" && !slices.ContainsFunc(mapValues(before), func(cs []string) bool { return slices.Contains(cs, c.fixes) }) {
					t.Fatalf("no %s finding before the fix: %v", c.fixes, before)
				}

				target := abs(c.open[0])
				actions := s.codeActions(target, c.files[c.open[0]], c.at)
				seen := map[string]bool{}
				for _, a := range actions {
					if seen[a.Title] {
						t.Errorf("action %q offered twice: %v", a.Title, titles(actions))
					}
					seen[a.Title] = true
				}
				var action *codeActionJSON
				for i := range actions {
					if actions[i].Title == c.title {
						action = &actions[i]
					}
				}
				if action == nil {
					t.Fatalf("no action %q; got %v", c.title, titles(actions))
				}
				if action.Kind != c.kind || action.Disabled != nil {
					t.Fatalf("action %q: kind %q disabled %+v, want kind %s, enabled", c.title, action.Kind, action.Disabled, c.kind)
				}
				resourceOps := len(c.created) > 0 || len(c.deleted) > 0
				if resourceOps && !cl.resources {
					if action.Edit != nil || action.Command == nil {
						t.Fatalf("action %q for a client without resource operations: want a command, got %+v", c.title, action)
					}
					want := CommandApplyChange
					if strings.HasPrefix(c.title, "Eject ") {
						want = CommandEject
					}
					if action.Command.Command != want {
						t.Errorf("action %q runs %s, want %s", c.title, action.Command.Command, want)
					}
				} else if action.Edit == nil {
					t.Fatalf("action %q: want a workspace edit, got %+v", c.title, action)
				} else if action.Command != nil && (!createsFile(action.Edit) || action.Command.Command != CommandShowDocument) {
					t.Fatalf("action %q: a workspace edit may only be followed by %s after creating a file, got %+v", c.title, CommandShowDocument, action.Command)
				}

				if e := ed.run(s, action); e != nil {
					t.Fatalf("%q failed: %d %s", c.title, e.Code, e.Message)
				}

				for rel, want := range c.want {
					got, open := ed.text(abs(rel))
					if !open {
						data, err := os.ReadFile(abs(rel))
						if err != nil {
							t.Fatal(err)
						}
						got = string(data)
					}
					if got != want {
						t.Errorf("%s after %q:\n%s\nwant:\n%s", rel, c.title, got, want)
					}
				}
				for rel, spec := range c.created {
					data, err := os.ReadFile(abs(rel))
					if err != nil {
						t.Fatalf("%q did not create %s: %v", c.title, rel, err)
					}
					if string(data) != expectedSource(t, rel, spec) {
						t.Errorf("%s holds:\n%s\nwant the %s source", rel, data, spec)
					}
				}
				var shown []string
				ed.mu.Lock()
				shown = append(shown, ed.shown...)
				ed.mu.Unlock()
				for rel := range c.created {
					// The server shows what it created; a client that
					// creates files itself opens them as it likes.
					if !cl.resources && !slices.Contains(shown, abs(rel)) {
						t.Errorf("the editor was not asked to show %s (shown: %v)", rel, shown)
					}
				}
				for _, rel := range c.deleted {
					if _, err := os.Lstat(abs(rel)); !errors.Is(err, fs.ErrNotExist) {
						t.Errorf("%q did not delete %s: %v", c.title, rel, err)
					}
				}

				after := allCodes(s, dir)
				for rel, cs := range after {
					if c.fixes != "" && slices.Contains(cs, c.fixes) {
						t.Errorf("%s still shows %s after %q: %v", rel, c.fixes, c.title, cs)
					}
					left := append([]string(nil), before[rel]...)
					for _, code := range cs {
						i := slices.Index(left, code)
						if i < 0 {
							t.Errorf("%s shows a new %s after %q (before: %v, after: %v)", rel, code, c.title, before[rel], cs)
							continue
						}
						left = slices.Delete(left, i, i+1)
					}
				}
			})
		}
	}
}

func mapValues(m map[string][]string) [][]string {
	out := make([][]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

const noToolsManifest = "# 日本語 😀\nagents:\n  r:\n    tools: [web_search]\n"

// The source eject actions: one per Beeuni tool, on the root file whatever
// the cursor, only with no tools: key, and asked for with only: [source].
func TestSourceEjectActions(t *testing.T) {
	s, ed, dir := startActionSession(t, map[string]string{"beeuni.yaml": noToolsManifest}, true)
	manifest := filepath.Join(dir, "beeuni.yaml")
	ed.open(s, manifest)
	s.idle()
	for _, at := range []string{"# 日本語", "agents", "web_search]"} {
		var got []string
		for _, a := range s.codeActions(manifest, noToolsManifest, at) {
			if a.Kind == "source" {
				got = append(got, a.Title)
			}
		}
		want := []string{"Eject web_search", "Eject image_search", "Eject scrape_webpage", "Eject memory", "Eject show"}
		if !slices.Equal(got, want) {
			t.Errorf("source actions at %q: %v, want %v", at, got, want)
		}
	}
	var only []codeActionJSON
	s.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": string(pathToURI(manifest))},
		"range":        protocol.Range{},
		"context":      map[string]any{"diagnostics": []any{}, "only": []string{"source"}},
	}, &only)
	if len(only) != 5 {
		t.Errorf("only: [source] gives %v, want the five ejects", titles(only))
	}
	for _, a := range only {
		if a.Kind != "source" {
			t.Errorf("only: [source] gives %q of kind %s", a.Title, a.Kind)
		}
	}

	// With a tools: key, the ejects are on the entries, not on the file.
	withTools := "tools:\n  web_search: beeuni:web_search\n" + noToolsManifest
	s.change(manifest, 2, withTools)
	s.idle()
	for _, a := range s.codeActions(manifest, withTools, "agents") {
		if a.Kind == "source" {
			t.Errorf("source action %q offered with a tools: key", a.Title)
		}
	}
	entry := s.codeActions(manifest, withTools, "web_search: beeuni")
	n := 0
	for _, a := range entry {
		if a.Title == "Eject web_search" {
			n++
			if a.Kind != "refactor.rewrite" {
				t.Errorf("eject on the entry has kind %s", a.Kind)
			}
		}
	}
	if n != 1 {
		t.Errorf("the entry offers Eject web_search %d times: %v", n, titles(entry))
	}
}

func TestApplyChangeIsAdvertised(t *testing.T) {
	s := startSession(t, vfs.NewMem(), nil)
	var res struct {
		Capabilities struct {
			ExecuteCommandProvider struct {
				Commands []string `json:"commands"`
			} `json:"executeCommandProvider"`
		} `json:"capabilities"`
	}
	s.call("initialize", initParams(nil), &res)
	if !slices.Contains(res.Capabilities.ExecuteCommandProvider.Commands, CommandApplyChange) {
		t.Errorf("executeCommandProvider.commands %v lacks %s", res.Capabilities.ExecuteCommandProvider.Commands, CommandApplyChange)
	}
}

const returnManifest = "tools:\n  web_search: tools/web_search.ts  # ejected from beeuni:web_search\n"

// returnDeleting is the title of the return of returnManifest's entry that
// deletes its module (still the copy eject wrote).
const returnDeleting = "Return to beeuni:web_search (delete tools/web_search.ts)"

// Refusals of beeuni.applyChange leave the disk as it was.
func TestApplyChangeRefusals(t *testing.T) {
	module, _ := beeunitools.Source("web_search")
	files := map[string]string{
		"beeuni.yaml":                        returnManifest,
		"tools/web_search.ts":                string(module),
		"harnesses/opencode/tools/memory.ts": "export default {}\n",
	}
	call := func(s *session, uri string, at protocol.Position, title string) *wireError {
		arg := map[string]any{"uri": uri, "range": protocol.Range{Start: at, End: at}, "title": title}
		return s.callErr("workspace/executeCommand", map[string]any{"command": CommandApplyChange, "arguments": []any{arg}})
	}

	t.Run("stale title", func(t *testing.T) {
		s, ed, dir := startActionSession(t, files, false)
		manifest := filepath.Join(dir, "beeuni.yaml")
		ed.open(s, manifest)
		s.idle()
		e := call(s, string(pathToURI(manifest)), protocol.Position{Line: 1, Character: 3}, "Return to beeuni:memory")
		if e == nil || e.Code != int(codeRequestFailed) || !strings.Contains(e.Message, "no longer offered") {
			t.Errorf("an action not offered there: %+v, want a request failure that says so", e)
		}
		if _, err := os.Stat(filepath.Join(dir, "tools/web_search.ts")); err != nil {
			t.Errorf("the module is gone after a refusal: %v", err)
		}
	})

	t.Run("editor refuses the edit", func(t *testing.T) {
		s, ed, dir := startActionSession(t, files, false)
		manifest := filepath.Join(dir, "beeuni.yaml")
		ed.open(s, manifest)
		s.idle()
		ed.setReject("the document changed")
		a := findAction(s.codeActions(manifest, returnManifest, "web_search: tools"), returnDeleting)
		if a == nil || a.Command == nil {
			t.Fatalf("no return command")
		}
		e := ed.run(s, a)
		if e == nil || !strings.Contains(e.Message, "the document changed") {
			t.Errorf("return with the edit refused: %+v, want the editor's reason", e)
		}
		if _, err := os.Stat(filepath.Join(dir, "tools/web_search.ts")); err != nil {
			t.Errorf("the module was deleted although the manifest still names it: %v", err)
		}
	})

	t.Run("eject undone when the editor refuses the edit", func(t *testing.T) {
		s, ed, dir := startActionSession(t, map[string]string{"beeuni.yaml": noToolsManifest}, false)
		manifest := filepath.Join(dir, "beeuni.yaml")
		ed.open(s, manifest)
		s.idle()
		ed.setReject("read-only")
		a := findAction(s.codeActions(manifest, noToolsManifest, "agents"), "Eject memory")
		if a == nil || a.Command == nil || a.Command.Command != CommandEject {
			t.Fatalf("no eject command: %+v", a)
		}
		if e := ed.run(s, a); e == nil || !strings.Contains(e.Message, "read-only") {
			t.Errorf("eject with the edit refused: %+v, want the editor's reason", e)
		}
		if _, err := os.Lstat(filepath.Join(dir, "tools/memory.ts")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("tools/memory.ts stays after the manifest edit failed: %v", err)
		}
		ed.setReject("")
		if e := ed.run(s, a); e != nil {
			t.Errorf("eject once the editor accepts: %+v", e)
		}
		if _, err := os.Stat(filepath.Join(dir, "tools/memory.ts")); err != nil {
			t.Errorf("eject did not write the module: %v", err)
		}
	})

	t.Run("unsaved copy is not deleted", func(t *testing.T) {
		manifest := "tools:\n  memory: beeuni:memory\n"
		s, ed, dir := startActionSession(t, map[string]string{"beeuni.yaml": manifest, "harnesses/opencode/tools/memory.ts": "export default {}\n"}, false)
		copyPath := filepath.Join(dir, "harnesses/opencode/tools/memory.ts")
		ed.open(s, filepath.Join(dir, "beeuni.yaml"))
		ed.open(s, copyPath)
		s.change(copyPath, 2, "export default { description: 'mine' }\n")
		s.idle()
		a := findAction(s.codeActions(filepath.Join(dir, "beeuni.yaml"), manifest, "memory: beeuni"), "Delete harnesses/opencode/tools/memory.ts")
		if a == nil || a.Disabled == nil || !strings.Contains(a.Disabled.Reason, "unsaved changes") || a.Edit != nil || a.Command != nil {
			t.Fatalf("the delete of a file with unsaved changes: %+v, want it disabled with the reason", a)
		}
		if e := call(s, string(pathToURI(filepath.Join(dir, "beeuni.yaml"))), protocol.Position{Line: 1, Character: 3}, a.Title); e == nil || !strings.Contains(e.Message, "unsaved changes") {
			t.Errorf("deleting a file with unsaved changes: %+v, want a refusal", e)
		}
		if _, err := os.Stat(copyPath); err != nil {
			t.Errorf("the copy with unsaved changes was deleted: %v", err)
		}
	})

	t.Run("no workspace.applyEdit", func(t *testing.T) {
		dir := t.TempDir()
		vfstest.WriteFiles(t, dir, files)
		s := startSession(t, vfs.NewDisk(), idleHook())
		s.initialize(initParams(map[string]any{"workspaceFolders": []any{map[string]any{"uri": string(pathToURI(dir)), "name": "ws"}}}))
		manifest := filepath.Join(dir, "beeuni.yaml")
		s.open(manifest, returnManifest)
		s.idle()
		e := call(s, string(pathToURI(manifest)), protocol.Position{Line: 1, Character: 3}, returnDeleting)
		if e == nil || !strings.Contains(e.Message, "workspace.applyEdit") {
			t.Errorf("return for a client that cannot apply edits: %+v, want a refusal naming workspace.applyEdit", e)
		}
		if _, err := os.Stat(filepath.Join(dir, "tools/web_search.ts")); err != nil {
			t.Errorf("the module was deleted: %v", err)
		}
	})
}

// createsFile reports whether a decoded workspace edit holds a create
// resource operation.
func createsFile(we *workspaceEditJSON) bool {
	for _, dc := range we.DocumentChanges {
		if m, ok := dc.(map[string]any); ok && m["kind"] == "create" {
			return true
		}
	}
	return false
}
