package lsp

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/beeunitools"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
	"github.com/beeuni/beeuni-lsp/internal/vfs/vfstest"
)

const typingManifest = "tools:\n  web_search: beeuni:web_search\n  memory: beeuni:memory\n"

const typingEjected = "tools:\n  web_search: beeuni:web_search\n  memory: tools/memory.ts  # ejected from beeuni:memory\n"

// editClients are the kinds of client an edit the server sends must be
// safe for: versions checked (documentChanges) with or without resource
// operations, and `changes` only.
var editClients = []struct {
	name     string
	edit     map[string]any // capabilities.workspace.workspaceEdit
	versions bool
}{
	{"documentChanges and resource operations", map[string]any{"documentChanges": true, "resourceOperations": []string{"create", "delete"}}, true},
	{"documentChanges only", map[string]any{"documentChanges": true}, true},
	{"changes only", map[string]any{}, false},
}

// startEditSession starts a server over fsys (the disk when nil) on files
// written under a temporary folder, with a client whose workspaceEdit
// capability is wsEdit.
func startEditSession(t *testing.T, files map[string]string, wsEdit map[string]any, fsys func(vfs.FS) vfs.FS) (*session, *testEditor, string) {
	t.Helper()
	dir := t.TempDir()
	vfstest.WriteFiles(t, dir, files)
	var base vfs.FS = vfs.NewDisk()
	if fsys != nil {
		base = fsys(base)
	}
	s := startSession(t, base, idleHook())
	ed := newTestEditor(t, s)
	caps := clientCaps(UTF16)
	caps["workspace"].(map[string]any)["workspaceEdit"] = wsEdit
	s.initialize(initParams(map[string]any{"capabilities": caps, "workspaceFolders": []any{map[string]any{"uri": string(pathToURI(dir)), "name": "ws"}}}))
	return s, ed, dir
}

func ejectCommand(uri protocol.DocumentURI, name string) map[string]any {
	return map[string]any{"command": CommandEject, "arguments": []any{map[string]any{"uri": string(uri), "name": name}}}
}

// The user types while the server prepares the eject's edit (issue: the
// edit, ranged on version 1, landed in version 2 and corrupted line 3): a
// client that checks versions refuses the edit, the server says so, and
// the module is not on disk, neither while the edit is in flight nor after.
func TestEjectEditNamesTheVersionItWasComputedOn(t *testing.T) {
	for _, cl := range editClients {
		if !cl.versions {
			continue // nothing names a version: see TestEjectPlannedAgainWhenTheUserTyped
		}
		t.Run(cl.name, func(t *testing.T) {
			s, ed, dir := startEditSession(t, map[string]string{"beeuni.yaml": typingManifest}, cl.edit, nil)
			manifest := filepath.Join(dir, "beeuni.yaml")
			module := filepath.Join(dir, "tools", "memory.ts")
			ed.open(s, manifest)
			s.idle()
			var once sync.Once
			ed.beforeApply = func() {
				once.Do(func() {
					if _, err := os.Lstat(module); !errors.Is(err, fs.ErrNotExist) {
						t.Errorf("tools/memory.ts is on disk before the editor applied the manifest edit: %v", err)
					}
					ed.typeAt(s, manifest, 0, "# typed\n")
				})
			}
			e := s.callErr("workspace/executeCommand", ejectCommand(pathToURI(manifest), "memory"))
			if e == nil || !strings.Contains(e.Message, "version") {
				t.Errorf("eject after the user typed: %+v, want the editor's refusal", e)
			}
			ed.flush(s)
			s.idle()
			if got, _ := ed.text(manifest); got != "# typed\n"+typingManifest {
				t.Errorf("the manifest after a refused eject:\n%s\nwant:\n# typed\n%s", got, typingManifest)
			}
			if _, err := os.Lstat(module); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("tools/memory.ts is on disk after the editor refused the edit: %v", err)
			}
			// The message comes before the command's answer.
			if msgs := shownMessages(s); len(msgs) != 1 || !strings.Contains(msgs[0], "did not apply") || !strings.Contains(msgs[0], "version") {
				t.Errorf("window/showMessage %q, want the refusal with the editor's reason", msgs)
			}

			ed.beforeApply = nil
			if e := s.callErr("workspace/executeCommand", ejectCommand(pathToURI(manifest), "memory")); e != nil {
				t.Fatalf("eject again: %+v", e)
			}
			ed.flush(s)
			s.idle()
			if got, _ := ed.text(manifest); got != "# typed\n"+typingEjected {
				t.Errorf("the manifest after the eject:\n%s\nwant:\n# typed\n%s", got, typingEjected)
			}
			src, _ := beeunitools.Source("memory")
			if data, err := os.ReadFile(module); err != nil || string(data) != string(src) {
				t.Errorf("tools/memory.ts after the eject: %v, want the Beeuni source", err)
			}
		})
	}
}

// gateFS stops the first Stat of a path ending in suffix until release is
// closed, after closing reached: a test acts while a request is half way.
type gateFS struct {
	vfs.FS
	suffix  string
	once    sync.Once
	reached chan struct{}
	release chan struct{}
}

func (g *gateFS) Stat(p string) (fs.FileInfo, error) {
	if strings.HasSuffix(filepath.ToSlash(p), g.suffix) {
		g.once.Do(func() {
			close(g.reached)
			<-g.release
		})
	}
	return g.FS.Stat(p)
}

// A didChange that arrives while the eject is being planned (the request's
// view is version 1, the document is at version 2 when the edit is ready)
// makes the server plan the eject again on version 2, for every client:
// one that takes only `changes` would otherwise apply ranges of version 1
// to version 2.
func TestEjectPlannedAgainWhenTheUserTyped(t *testing.T) {
	for _, cl := range editClients {
		t.Run(cl.name, func(t *testing.T) {
			gate := &gateFS{suffix: "tools/memory.ts", reached: make(chan struct{}), release: make(chan struct{})}
			s, ed, dir := startEditSession(t, map[string]string{"beeuni.yaml": typingManifest}, cl.edit, func(base vfs.FS) vfs.FS {
				gate.FS = base
				return gate
			})
			manifest := filepath.Join(dir, "beeuni.yaml")
			ed.open(s, manifest)
			s.idle()
			id := s.start("workspace/executeCommand", ejectCommand(pathToURI(manifest), "memory"))
			<-gate.reached
			ed.typeAt(s, manifest, 0, "# typed\n")
			s.idle() // the didChange is in
			close(gate.release)
			if m := s.answer(id); m.Error != nil {
				t.Fatalf("eject while typing: %+v", m.Error)
			}
			ed.flush(s)
			s.idle()
			if got, _ := ed.text(manifest); got != "# typed\n"+typingEjected {
				t.Errorf("the manifest after an eject while typing:\n%s\nwant:\n# typed\n%s", got, typingEjected)
			}
		})
	}
}

// Quick fixes and rename name the version of the document they were
// computed on, for a client that takes documentChanges.
func TestCodeActionAndRenameEditsNameTheVersion(t *testing.T) {
	text := "tools:\n  web_search: beeuni:web_search\n  my_tool: tools/my_tool.ts\nagents:\n  r:\n    tools: [web_serch, my_tool]\n"
	s, ed, dir := startEditSession(t, map[string]string{"beeuni.yaml": "tools: {}\n", "tools/my_tool.ts": "export default {}\n"}, map[string]any{"documentChanges": true}, nil)
	manifest := filepath.Join(dir, "beeuni.yaml")
	ed.open(s, manifest)
	s.change(manifest, 7, text)
	s.idle()
	uri := pathToURI(manifest)

	fix := findAction(s.codeActions(manifest, text, "web_serch,"), "Replace web_serch")
	if fix == nil || fix.Edit == nil {
		t.Fatalf("no quick fix for the typo")
	}
	_, versions := textEditsOf(t, fix.Edit)
	if v := versions[uri]; v == nil || *v != 7 {
		t.Errorf("the quick fix's edit names version %v, want 7 (%+v)", v, fix.Edit)
	}

	off := strings.Index(text, "my_tool:")
	var we json.RawMessage
	s.call("textDocument/rename", map[string]any{
		"textDocument": map[string]any{"uri": string(uri)},
		"position":     refPosition([]byte(text), off, UTF16),
		"newName":      "our_tool",
	}, &we)
	edits, versions := textEditsOf(t, we)
	if len(edits[uri]) != 2 {
		t.Errorf("rename edits %s, want the key and the agent's entry", we)
	}
	if v := versions[uri]; v == nil || *v != 7 {
		t.Errorf("the rename's edit names version %v, want 7: %s", v, we)
	}
}

// shownMessages returns the window/showMessage texts received so far.
func shownMessages(s *session) []string {
	var out []string
	for _, n := range s.notesSnapshot() {
		if n.Method != "window/showMessage" {
			continue
		}
		var p protocol.ShowMessageParams
		if err := json.Unmarshal(n.Params, &p); err == nil {
			out = append(out, p.Message)
		}
	}
	return out
}

// The case: a module overriding a Beeuni tool without the eject's
// marker, imported by another tool. Return keeps it (only "keep the
// file" is offered), and the other tool still loads.
func TestReturnKeepsAModuleThatIsNoEjectedCopy(t *testing.T) {
	module := "export default {\n  description: 'Search.',\n  parameters: { type: 'object', properties: {} },\n  async execute() { return 'ok' },\n}\nexport const search = () => 1\n"
	crm := "import { search } from './ws.ts'\nexport default {\n  description: 'CRM.',\n  parameters: { type: 'object', properties: {} },\n  async execute() { return search() },\n}\n"
	manifest := "tools:\n  web_search: integrations/ws.ts\n  crm: integrations/crm.ts\n"
	files := map[string]string{"beeuni.yaml": manifest, "integrations/ws.ts": module, "integrations/crm.ts": crm}
	for _, cl := range actionClients {
		t.Run(cl.name, func(t *testing.T) {
			s, ed, dir := startActionSession(t, files, cl.resources)
			path := filepath.Join(dir, "beeuni.yaml")
			ed.open(s, path)
			s.idle()
			actions := s.codeActions(path, manifest, "web_search: integrations")
			for _, a := range actions {
				if strings.HasPrefix(a.Title, "Return to beeuni:web_search (delete") {
					t.Errorf("a return that deletes integrations/ws.ts is offered: %+v", a)
				}
			}
			a := findAction(actions, "Return to beeuni:web_search (keep the file)")
			if a == nil || a.Disabled != nil {
				t.Fatalf("no return keeping the file: %v", titles(actions))
			}
			if e := ed.run(s, a); e != nil {
				t.Fatalf("%s: %+v", a.Title, e)
			}
			if got, _ := ed.text(path); got != "tools:\n  web_search: beeuni:web_search\n  crm: integrations/crm.ts\n" {
				t.Errorf("the manifest after the return:\n%s", got)
			}
			if _, err := os.Stat(filepath.Join(dir, "integrations/ws.ts")); err != nil {
				t.Errorf("integrations/ws.ts is gone: %v", err)
			}
			if cs := allCodes(s, dir); len(cs) != 0 {
				t.Errorf("findings after the return: %v", cs)
			}
		})
	}
}

// A module open with unsaved changes is never deleted: with resource
// operations the return that deletes it is disabled (its edit would carry
// {"kind":"delete"}), and the one keeping it is offered. Here the buffer
// holds the copy eject wrote (the user typed its first line back) and the
// disk does not: unsaved changes all the same. A buffer the user edited
// away from that copy gets no deleting return at all.
func TestReturnNeverDeletesAModuleWithUnsavedChanges(t *testing.T) {
	src, _ := beeunitools.Source("web_search")
	first, rest, _ := strings.Cut(string(src), "\n")
	for _, cl := range actionClients {
		t.Run(cl.name, func(t *testing.T) {
			s, ed, dir := startActionSession(t, map[string]string{"beeuni.yaml": returnManifest, "tools/web_search.ts": rest}, cl.resources)
			path := filepath.Join(dir, "beeuni.yaml")
			modPath := filepath.Join(dir, "tools/web_search.ts")
			ed.open(s, path)
			ed.open(s, modPath)
			ed.typeAt(s, modPath, 0, first+"\n")
			s.idle()
			if got, _ := ed.text(modPath); got != string(src) {
				t.Fatalf("the buffer is not the copy eject wrote:\n%s", got)
			}
			actions := s.codeActions(path, returnManifest, "web_search: tools")
			del := findAction(actions, returnDeleting)
			if del == nil || del.Title != returnDeleting {
				t.Fatalf("no return action: %v", titles(actions))
			}
			data, _ := json.Marshal(del)
			if del.Disabled == nil || !strings.Contains(del.Disabled.Reason, "unsaved changes") || strings.Contains(string(data), `"delete"`) {
				t.Errorf("the return deleting a module with unsaved changes: %s, want it disabled, with no delete in it", data)
			}
			ed.typeAt(s, modPath, 0, "// my unsaved notes\n")
			s.idle()
			actions = s.codeActions(path, returnManifest, "web_search: tools")
			if del := findAction(actions, "(delete"); del != nil {
				t.Errorf("a return deleting a copy the user edited is offered: %v", titles(actions))
			}
			keep := findAction(actions, "(keep the file)")
			if keep == nil || keep.Disabled != nil {
				t.Fatalf("no return keeping the file: %v", titles(actions))
			}
			if e := ed.run(s, keep); e != nil {
				t.Fatalf("%s: %+v", keep.Title, e)
			}
			if got, _ := ed.text(path); got != "tools:\n  web_search: beeuni:web_search\n" {
				t.Errorf("the manifest after the return:\n%s", got)
			}
			if _, err := os.Stat(modPath); err != nil {
				t.Errorf("the module with unsaved changes is gone: %v", err)
			}
		})
	}
}

// The residual window of a client that takes only `changes`: the user
// types after the server checked the document and before the editor
// applies the edit. Nothing names a version, so the edit lands where the
// editor puts it; the server sees the document hold neither its old text
// nor the edited one, and tells the user to check it.
func TestChangesOnlyClientIsWarnedWhenTheEditLandedOnMovedText(t *testing.T) {
	s, ed, dir := startEditSession(t, map[string]string{"beeuni.yaml": typingManifest}, map[string]any{}, nil)
	manifest := filepath.Join(dir, "beeuni.yaml")
	ed.open(s, manifest)
	s.idle()
	var once sync.Once
	ed.beforeApply = func() { once.Do(func() { ed.typeAt(s, manifest, 0, "# typed\n") }) }
	_ = s.callErr("workspace/executeCommand", ejectCommand(pathToURI(manifest), "memory"))
	msgs := shownMessages(s)
	if len(msgs) != 1 || !strings.Contains(msgs[0], "changed while the editor applied the edit") {
		t.Errorf("window/showMessage %q, want a warning to check beeuni.yaml", msgs)
	}
}
