package lsp

import (
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

const foldersWorkspace = `-- a/beeuni.yaml --
tools:
  web_search: beeuni:web_search
-- b/beeuni.yaml --
tools:
  Bad: tools/x.ts
agents:
  r:
    tools: [nope]
`

// shownUnder returns the files under dir whose last publication holds
// diagnostics.
func shownUnder(s *session, dir string) []string {
	var out []string
	for path, p := range s.lastDiagnostics() {
		if strings.HasPrefix(path, dir) && len(p.Diagnostics) > 0 {
			out = append(out, path)
		}
	}
	return out
}

func folderEvent(added, removed []string) map[string]any {
	list := func(paths []string) []any {
		out := []any{}
		for _, p := range paths {
			out = append(out, map[string]any{"uri": string(pathToURI(p)), "name": p})
		}
		return out
	}
	return map[string]any{"event": map[string]any{"added": list(added), "removed": list(removed)}}
}

// A folder added and removed at once leaves nothing published, and a
// later disk event in it publishes nothing either.
func TestFolderAddedAndRemovedAtOnceLeavesNothing(t *testing.T) {
	s := editorSession(t, vfs.MemFromTxtar("/", []byte(foldersWorkspace)), UTF16, "/a")
	s.idle()
	s.notify("workspace/didChangeWorkspaceFolders", folderEvent([]string{"/b"}, nil))
	s.notify("workspace/didChangeWorkspaceFolders", folderEvent(nil, []string{"/b"}))
	s.idle()
	if got := shownUnder(s, "/b/"); len(got) != 0 {
		t.Errorf("diagnostics of a removed folder: %v", got)
	}
	s.watched(fileEvent("/b/beeuni.yaml", 2))
	s.idle()
	if got := shownUnder(s, "/b/"); len(got) != 0 {
		t.Errorf("diagnostics of a removed folder after a disk event in it: %v", got)
	}
}

// A removed folder's project lives while one of its files is open; once
// the file closes, everything it published is cleared.
func TestRemovedFolderClearedWhenItsLastFileCloses(t *testing.T) {
	s := editorSession(t, vfs.MemFromTxtar("/", []byte(foldersWorkspace)), UTF16, "/a", "/b")
	s.idle()
	text := "tools:\n  Bad: tools/x.ts\nagents:\n  r:\n    tools: [nope]\n"
	s.open("/b/beeuni.yaml", text)
	s.idle()
	if got := shownUnder(s, "/b/"); len(got) == 0 {
		t.Fatalf("no diagnostics for b before the removal")
	}
	s.notify("workspace/didChangeWorkspaceFolders", folderEvent(nil, []string{"/b"}))
	s.idle()
	if got := shownUnder(s, "/b/"); len(got) == 0 {
		t.Errorf("the open file lost its diagnostics while open")
	}
	s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": string(pathToURI("/b/beeuni.yaml"))}})
	s.idle()
	if got := shownUnder(s, "/b/"); len(got) != 0 {
		t.Errorf("diagnostics of a removed folder after its last file closed: %v", got)
	}
	s.watched(fileEvent("/b/beeuni.yaml", 2))
	s.idle()
	if got := shownUnder(s, "/b/"); len(got) != 0 {
		t.Errorf("diagnostics of a removed folder after a disk event in it: %v", got)
	}
	if got := shownUnder(s, "/a/"); len(got) != 0 {
		t.Errorf("the clean project a shows %v", got)
	}
}
