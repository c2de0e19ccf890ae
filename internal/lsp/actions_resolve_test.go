package lsp

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// resolvingSession is editorSession with a client that resolves a code
// action's edit when it is picked (codeAction.resolveSupport: edit).
func resolvingSession(t *testing.T, fsys vfs.FS) *session {
	t.Helper()
	s := startSession(t, fsys, idleHook())
	caps := clientCaps(UTF16)
	td := caps["textDocument"].(map[string]any)
	ca := td["codeAction"].(map[string]any)
	ca["resolveSupport"] = map[string]any{"properties": []string{"edit"}}
	var res struct {
		Capabilities struct {
			CodeActionProvider struct {
				ResolveProvider bool `json:"resolveProvider"`
			} `json:"codeActionProvider"`
		} `json:"capabilities"`
	}
	s.call("initialize", initParams(map[string]any{"capabilities": caps, "workspaceFolders": []any{map[string]any{"uri": string(pathToURI("/ws")), "name": "ws"}}}), &res)
	s.notify("initialized", map[string]any{})
	if !res.Capabilities.CodeActionProvider.ResolveProvider {
		t.Fatal("a client that resolves code action edits is not told resolveProvider")
	}
	return s
}

// TestEjectEditResolvedWhenPicked: a client that resolves edits gets the
// eject action without its edit, and codeAction/resolve gives exactly the
// edit a client that does not resolve gets at once.
func TestEjectEditResolvedWhenPicked(t *testing.T) {
	fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+actionsManifest))
	eager := editorSession(t, fsys, UTF16, "/ws")
	eager.open("/ws/beeuni.yaml", actionsManifest)
	eager.idle()
	want := findAction(eager.codeActions("/ws/beeuni.yaml", actionsManifest, "web_search: beeuni"), "web_search")
	if want == nil || want.Edit == nil || want.Data != nil {
		t.Fatalf("eager client: eject action %+v, want one with its edit", want)
	}

	s := resolvingSession(t, fsys)
	s.open("/ws/beeuni.yaml", actionsManifest)
	s.idle()
	actions := s.codeActions("/ws/beeuni.yaml", actionsManifest, "web_search: beeuni")
	lazy := findAction(actions, "web_search")
	if lazy == nil || lazy.Edit != nil || lazy.Data == nil || lazy.Title != want.Title || lazy.Kind != want.Kind {
		t.Fatalf("resolving client: eject action %+v, want %q without its edit and with data", lazy, want.Title)
	}
	// The quick fix of the typo is cheap: it comes with its edit.
	if fix := findAction(s.codeActions("/ws/beeuni.yaml", actionsManifest, "web_serch]"), "web_search"); fix == nil || fix.Edit == nil || fix.Data != nil {
		t.Errorf("quick fix %+v, want it with its edit", fix)
	}

	var resolved codeActionJSON
	s.call("codeAction/resolve", lazy, &resolved)
	if resolved.Edit == nil {
		t.Fatalf("codeAction/resolve gave no edit: %+v", resolved)
	}
	got, _ := json.Marshal(resolved.Edit)
	exp, _ := json.Marshal(want.Edit)
	if string(got) != string(exp) {
		t.Errorf("resolved edit\n%s\nwant the eager client's\n%s", got, exp)
	}
	resolved.Edit, resolved.Data = nil, nil
	w := *want
	w.Edit = nil
	if !reflect.DeepEqual(resolved, w) {
		t.Errorf("resolved action %+v, want %+v", resolved, w)
	}

	// Once the text changed, the action is no longer offered there.
	edited := "# moved\n" + actionsManifest[len("# 日本語 😀\n"):]
	s.change("/ws/beeuni.yaml", 2, edited)
	s.idle()
	stale := *lazy
	stale.Data.Title = "Eject nothing"
	if err := s.callErr("codeAction/resolve", stale); err == nil {
		t.Error("resolving an action no longer offered: no error")
	}
	// An action without data comes back as it was.
	var plain codeActionJSON
	s.call("codeAction/resolve", codeActionJSON{Title: "x", Kind: "quickfix"}, &plain)
	if plain.Title != "x" || plain.Edit != nil {
		t.Errorf("action without data resolved to %+v", plain)
	}
}
