package protocol

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs/vfstest"
)

// A session is an initialized server on a workspace in t.TempDir(), with
// one sentinel manifest open whose diagnostics prove the server alive.
type session struct {
	*client
	root     string
	manifest string // the sentinel: root/beeuni.yaml, open in the editor
	version  int    // of the sentinel
	sent     []int  // the sentinel's versions in the order sent
	alive    int    // checks done, for unique names
}

// diagnostic is one entry of textDocument/publishDiagnostics.
type diagnostic struct {
	Range struct {
		Start struct{ Line, Character int } `json:"start"`
		End   struct{ Line, Character int } `json:"end"`
	} `json:"range"`
	Severity int             `json:"severity"`
	Code     json.RawMessage `json:"code"`
	Message  string          `json:"message"`
}

type publishParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

// writeWorkspace writes files (slash paths relative to root) into a new
// temporary folder and returns it.
func writeWorkspace(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	vfstest.WriteFiles(t, root, files)
	return root
}

// writeFile writes a file, creating its folder.
func writeFile(t testing.TB, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const sentinelManifest = "tools:\n  web_search: beeuni:web_search\n"

// newSession starts the server on a fresh workspace, initializes it and
// opens the sentinel manifest, waiting for its first diagnostics.
func newSession(t testing.TB) *session {
	t.Helper()
	root := writeWorkspace(t, map[string]string{"beeuni.yaml": sentinelManifest, "tools/present.ts": presentModule})
	s := &session{client: startServer(t, root), root: root, manifest: filepath.Join(root, "beeuni.yaml")}
	s.initialize()
	s.openSentinel()
	return s
}

const presentModule = "export default { description: 'd', parameters: { type: 'object', properties: {} }, execute() { return '' } }\n"

// initializeParams is what a plain client sends.
func initializeParams(root string) map[string]any {
	return map[string]any{
		"processId":  nil,
		"rootUri":    fileURI(root),
		"clientInfo": map[string]any{"name": "protocol-test"},
		"capabilities": map[string]any{
			"general": map[string]any{"positionEncodings": []string{"utf-16"}},
			"workspace": map[string]any{"configuration": true, "workspaceFolders": true, "applyEdit": true,
				"workspaceEdit": map[string]any{"documentChanges": true}},
			"textDocument": map[string]any{
				"publishDiagnostics": map[string]any{"versionSupport": true, "relatedInformation": true},
				"hover":              map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
				"documentSymbol":     map[string]any{"hierarchicalDocumentSymbolSupport": true},
			},
		},
		"workspaceFolders": []map[string]any{{"uri": fileURI(root), "name": "ws"}},
	}
}

func (s *session) initialize() {
	s.t.Helper()
	m := s.call("initialize", initializeParams(s.root))
	if m.Error != nil {
		s.t.Fatalf("initialize: %+v", m.Error)
	}
	var res struct {
		Capabilities map[string]any        `json:"capabilities"`
		ServerInfo   struct{ Name string } `json:"serverInfo"`
	}
	if err := json.Unmarshal(m.Result, &res); err != nil || res.ServerInfo.Name != "beeuni-lsp" || res.Capabilities["textDocumentSync"] == nil {
		s.t.Fatalf("initialize result %s (%v)", m.Result, err)
	}
	s.notify("initialized", map[string]any{})
}

func (s *session) openSentinel() {
	s.t.Helper()
	s.version = 1
	s.sent = []int{1}
	from := s.notificationCount()
	s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": fileURI(s.manifest), "languageId": "yaml", "version": s.version, "text": sentinelManifest,
	}})
	s.waitDiagnostics(from, s.manifest, s.version, func(ds []diagnostic) bool { return true })
}

// waitDiagnostics waits for diagnostics of path at version (when the
// server reports versions; -1: any version, for files not open) that
// satisfy ok.
func (s *session) waitDiagnostics(from int, path string, version int, ok func([]diagnostic) bool) []diagnostic {
	s.t.Helper()
	uri := fileURI(path)
	var got publishParams
	s.waitNotification(from, fmt.Sprintf("diagnostics of %s at version %d", filepath.Base(path), version), func(m message) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		var p publishParams
		if json.Unmarshal(m.Params, &p) != nil || p.URI != uri {
			return false
		}
		if version >= 0 && p.Version != nil && *p.Version != version {
			return false
		}
		if !ok(p.Diagnostics) {
			return false
		}
		got = p
		return true
	})
	return got.Diagnostics
}

// checkAlive proves the server still works: an edit of the sentinel gets
// its diagnostics (a new wrongly named tool, reported as T1 on its line),
// and a request gets a correct answer (the document's symbols name it).
func (s *session) checkAlive() {
	s.t.Helper()
	s.alive++
	s.version++
	s.sent = append(s.sent, s.version)
	name := fmt.Sprintf("BadName%d", s.alive)
	text := sentinelManifest + "  " + name + ": tools/present.ts\n"
	from := s.notificationCount()
	s.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": fileURI(s.manifest), "version": s.version},
		"contentChanges": []map[string]any{{"text": text}},
	})
	s.waitDiagnostics(from, s.manifest, s.version, func(ds []diagnostic) bool {
		for _, d := range ds {
			if strings.Contains(d.Message, name) && d.Range.Start.Line == 2 && d.Range.Start.Character == 2 &&
				d.Range.End.Line == 2 && d.Range.End.Character == 2+len(name) {
				return true
			}
		}
		return false
	})
	m := s.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": fileURI(s.manifest)}})
	if m.Error != nil || !strings.Contains(string(m.Result), `"`+name+`"`) {
		s.t.Fatalf("documentSymbol after the edit: %s %+v; want a symbol %s", m.Result, m.Error, name)
	}
	s.checkVersionsNeverGoBack(s.manifest)
	stray, ok := s.Answers()["null"]
	if ok {
		s.t.Fatalf("an answer with id null that no malformed message asked for: %+v", stray)
	}
}

// checkVersionsNeverGoBack fails if diagnostics of path were ever published
// for a document version the client sent before one already published:
// stale results never follow fresh ones. The order is the client's order
// of sending (a client that sends versions going backwards gets them in
// that order); every version published must be one the client sent.
func (s *session) checkVersionsNeverGoBack(path string) {
	s.t.Helper()
	uri := fileURI(path)
	order := map[int]int{}
	for i, v := range s.sent {
		order[v] = i
	}
	last, lastVersion := -1, -1
	for _, m := range s.Notes() {
		if m.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p publishParams
		if json.Unmarshal(m.Params, &p) != nil || p.URI != uri || p.Version == nil {
			continue
		}
		at, ok := order[*p.Version]
		if !ok {
			s.t.Fatalf("diagnostics of %s published for version %d, which the client never sent", filepath.Base(path), *p.Version)
		}
		if at < last {
			s.t.Fatalf("diagnostics of %s published for version %d after version %d, which the client sent later", filepath.Base(path), *p.Version, lastVersion)
		}
		last, lastVersion = at, *p.Version
	}
}
