package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis/edit"
	"github.com/beeuni/beeuni-lsp/internal/beeunitools"
)

// A forced eject never overwrites a file open in the editor: with unsaved
// changes (the overwrite would lose them) or without (the buffer would
// keep the old text over the new file, and saving it would undo the
// overwrite). The action is offered disabled with the reason, for a
// client with resource operations (CreateFile overwrite + insert) and one
// without (the server writes the file), and both commands refuse it.
func TestForcedEjectNeverOverwritesAnOpenModule(t *testing.T) {
	manifest := "tools:\n  web_search: beeuni:web_search\n"
	mine := "// mine\nexport default {}\n"
	title := edit.EjectTitle("web_search", true)
	for _, cl := range actionClients {
		for _, unsaved := range []bool{true, false} {
			name := cl.name + "/open"
			want := "open in the editor: close it"
			if unsaved {
				name += " with unsaved changes"
				want = "unsaved changes"
			}
			t.Run(name, func(t *testing.T) {
				s, ed, dir := startActionSession(t, map[string]string{"beeuni.yaml": manifest, "tools/web_search.ts": mine}, cl.resources)
				path := filepath.Join(dir, "beeuni.yaml")
				modPath := filepath.Join(dir, "tools", "web_search.ts")
				ed.open(s, path)
				ed.open(s, modPath)
				buffer := mine
				if unsaved {
					ed.typeAt(s, modPath, 0, "// unsaved\n")
					buffer = "// unsaved\n" + mine
				}
				s.idle()
				actions := s.codeActions(path, manifest, "web_search: beeuni")
				a := findAction(actions, title)
				if a == nil {
					t.Fatalf("no %q: %v", title, titles(actions))
				}
				if a.Disabled == nil || !strings.Contains(a.Disabled.Reason, want) || a.Edit != nil || a.Command != nil {
					t.Errorf("the overwrite of an open module: disabled %+v, edit %v, command %v; want it disabled with %q and nothing to run", a.Disabled, a.Edit != nil, a.Command != nil, want)
				}
				uri := string(pathToURI(path))
				force := map[string]any{"command": CommandEject, "arguments": []any{map[string]any{"uri": uri, "name": "web_search", "force": true}}}
				if e := s.callErr("workspace/executeCommand", force); e == nil || !strings.Contains(e.Message, want) {
					t.Errorf("%s with force: %+v, want a refusal saying %q", CommandEject, e, want)
				}
				at := protocol.Position{Line: 1, Character: 3}
				apply := map[string]any{"command": CommandApplyChange, "arguments": []any{map[string]any{"uri": uri, "range": protocol.Range{Start: at, End: at}, "title": title}}}
				if e := s.callErr("workspace/executeCommand", apply); e == nil || !strings.Contains(e.Message, want) {
					t.Errorf("%s %q: %+v, want a refusal saying %q", CommandApplyChange, title, e, want)
				}
				ed.flush(s)
				s.idle()
				if got, _ := os.ReadFile(modPath); string(got) != mine {
					t.Errorf("tools/web_search.ts on disk:\n%s\nwant it untouched", got)
				}
				if got, _ := ed.text(modPath); got != buffer {
					t.Errorf("the open tools/web_search.ts:\n%s\nwant:\n%s", got, buffer)
				}
				if got, _ := ed.text(path); got != manifest {
					t.Errorf("the manifest:\n%s\nwant it untouched", got)
				}
			})
		}
	}
}

// Cancelling the command once the editor holds the edit does not leave
// the change half done: the editor applies the manifest edit, so the
// server still writes the module it names (it used to stop, the manifest
// naming a tools/memory.ts never written, and to say "Nothing was changed
// on disk").
func TestCancelledEjectStillWritesTheModuleTheEditorWasGiven(t *testing.T) {
	s, ed, dir := startActionSession(t, map[string]string{"beeuni.yaml": typingManifest}, false)
	manifest := filepath.Join(dir, "beeuni.yaml")
	module := filepath.Join(dir, "tools", "memory.ts")
	ed.open(s, manifest)
	s.idle()
	ids := make(chan string, 1)
	var once sync.Once
	ed.mu.Lock()
	ed.beforeApply = func() {
		// The user cancels while the editor holds the edit; the editor
		// then applies it.
		once.Do(func() { s.notify("$/cancelRequest", map[string]any{"id": json.RawMessage(<-ids)}) })
	}
	ed.mu.Unlock()
	id := s.start("workspace/executeCommand", ejectCommand(pathToURI(manifest), "memory"))
	ids <- id
	s.answer(id)
	ed.flush(s)
	s.idle()
	if got, _ := ed.text(manifest); got != typingEjected {
		t.Fatalf("the manifest after the eject:\n%s\nwant:\n%s", got, typingEjected)
	}
	src, _ := beeunitools.Source("memory")
	if data, err := os.ReadFile(module); err != nil || string(data) != string(src) {
		t.Errorf("the manifest names tools/memory.ts, which is not the Beeuni source on disk: %v", err)
	}
	for _, m := range shownMessages(s) {
		if strings.Contains(m, "Nothing was changed") {
			t.Errorf("window/showMessage %q after the editor applied the edit", m)
		}
	}
}
