package lsp

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"

	"github.com/beeuni/beeuni-lsp/internal/analysis/edit"
	"github.com/beeuni/beeuni-lsp/internal/beeunitools"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
	"github.com/beeuni/beeuni-lsp/internal/vfs/vfstest"
)

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
