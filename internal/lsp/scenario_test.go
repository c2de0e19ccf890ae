package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// codes returns the sorted codes of a file's last diagnostics.
func codes(ds map[string]protocol.PublishDiagnosticsParams, path string) []string {
	var out []string
	for _, d := range ds[path].Diagnostics {
		out = append(out, fmt.Sprint(d.Code))
	}
	slices.Sort(out)
	return out
}

func (s *session) change(path string, version int, text string) {
	s.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": string(pathToURI(path)), "version": version},
		"contentChanges": []any{map[string]any{"text": text}},
	})
}

func (s *session) watched(changes ...any) {
	s.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": changes})
}

func fileEvent(path string, typ int) map[string]any {
	return map[string]any{"uri": string(pathToURI(path)), "type": typ}
}

func TestMultiRootWorkspace(t *testing.T) {
	fsys := vfs.MemFromTxtar("/", []byte(`
-- a/beeuni.yaml --
tools:
  x: tools/missing.ts
-- a/sub/beeuni.yaml --
tools:
  web_search: beeuni:nope
-- b/beeuni.yaml --
agents:
  r:
    tools: [bsh]
-- b/node_modules/dep/beeuni.yaml --
tools:
  x: tools/ignored.ts
`))
	s := editorSession(t, fsys, UTF16, "/a", "/b")
	s.idle()
	ds := s.lastDiagnostics()
	for path, want := range map[string][]string{
		"/a/beeuni.yaml":     {"T6", "T8"},
		"/a/sub/beeuni.yaml": {"T3"},
		"/b/beeuni.yaml":     {"A1"},
	} {
		if got := codes(ds, path); !slices.Equal(got, want) {
			t.Errorf("%s: codes %v, want %v", path, got, want)
		}
	}
	if _, ok := ds["/b/node_modules/dep/beeuni.yaml"]; ok {
		t.Errorf("a beeuni.yaml inside node_modules was analysed")
	}
	// Nor when it is created there later.
	fsys.WriteFile("/b/node_modules/other/beeuni.yaml", []byte("tools:\n  Bad: x.ts\n"))
	s.watched(fileEvent("/b/node_modules/other/beeuni.yaml", 1))
	s.idle()
	if _, ok := s.lastDiagnostics()["/b/node_modules/other/beeuni.yaml"]; ok {
		t.Errorf("a beeuni.yaml created inside node_modules was analysed")
	}
}

func TestLoneFileWithoutFolder(t *testing.T) {
	fsys := vfs.MemFromTxtar("/", []byte(`
-- lone/beeuni.yaml --
tools:
  Bad: tools/bad.ts
`))
	s := editorSession(t, fsys, UTF8)
	s.open("/lone/beeuni.yaml", "tools:\n  Bad: tools/bad.ts\n")
	s.idle()
	if got := codes(s.lastDiagnostics(), "/lone/beeuni.yaml"); !slices.Contains(got, "T1") {
		t.Errorf("lone file: codes %v, want T1 among them", got)
	}
	// A manifest that exists only in the editor, then closed: its
	// diagnostics are cleared.
	s.open("/unsaved/beeuni.yaml", "tools:\n  Bad2: tools/x.ts\n")
	s.idle()
	if got := codes(s.lastDiagnostics(), "/unsaved/beeuni.yaml"); len(got) == 0 {
		t.Fatalf("unsaved manifest has no diagnostics")
	}
	s.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": string(pathToURI("/unsaved/beeuni.yaml"))}})
	s.idle()
	if got := codes(s.lastDiagnostics(), "/unsaved/beeuni.yaml"); len(got) != 0 {
		t.Errorf("closed unsaved manifest still shows %v", got)
	}
}

func TestUnsavedImportedFileChangesRootDiagnostics(t *testing.T) {
	const root = `imports:
  - shared.yaml
tools:
  web_search: beeuni:web_search
agents:
  r:
    tools: [crm_note]
`
	fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+root+`-- shared.yaml --
tools:
  crm_note: tools/crm.ts
-- tools/crm.ts --
export default { description: 'x', parameters: { type: 'object', properties: {} }, execute() { return 'ok' } }
`))
	s := editorSession(t, fsys, UTF16, "/ws")
	s.open("/ws/beeuni.yaml", root)
	s.open("/ws/shared.yaml", "tools:\n  crm_note: tools/crm.ts\n")
	s.idle()
	if got := codes(s.lastDiagnostics(), "/ws/beeuni.yaml"); len(got) != 0 {
		t.Fatalf("root starts with %v, want none", got)
	}
	s.change("/ws/shared.yaml", 2, "tools:\n  crm_notes: tools/crm.ts\n")
	s.idle()
	if got := codes(s.lastDiagnostics(), "/ws/beeuni.yaml"); !slices.Equal(got, []string{"A1"}) {
		t.Errorf("after the unsaved edit of shared.yaml: root codes %v, want [A1]", got)
	}
	s.change("/ws/shared.yaml", 3, "tools:\n  crm_note: tools/crm.ts\n")
	s.idle()
	if got := codes(s.lastDiagnostics(), "/ws/beeuni.yaml"); len(got) != 0 {
		t.Errorf("after undoing: root codes %v, want none", got)
	}
}

func TestModuleCreatedAndDeletedOnDisk(t *testing.T) {
	const manifest = "tools:\n  web_search: beeuni:web_search\n  lookup: tools/lookup.ts\n"
	fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+manifest))
	s := editorSession(t, fsys, UTF16, "/ws")
	s.open("/ws/beeuni.yaml", manifest)
	s.idle()
	// The watchers were registered dynamically.
	var registered string
	for _, r := range s.requests() {
		if r.Method == "client/registerCapability" {
			registered = string(r.Params)
		}
	}
	for _, glob := range watchPatterns {
		if !strings.Contains(registered, fmt.Sprintf("%q", glob)) {
			t.Errorf("watcher %s not registered: %s", glob, registered)
		}
	}
	if got := codes(s.lastDiagnostics(), "/ws/beeuni.yaml"); !slices.Equal(got, []string{"T6"}) {
		t.Fatalf("missing module: codes %v, want [T6]", got)
	}
	fsys.WriteFile("/ws/tools/lookup.ts", []byte("export default { description: 'Look up.', parameters: { type: 'object', properties: {} }, execute() { return 'ok' } }\n"))
	s.watched(fileEvent("/ws/tools/lookup.ts", 1))
	s.idle()
	if got := codes(s.lastDiagnostics(), "/ws/beeuni.yaml"); len(got) != 0 {
		t.Fatalf("module created: codes %v, want none", got)
	}
	fsys.WriteFile("/ws/tools/lookup.ts", []byte("export default {\n"))
	s.watched(fileEvent("/ws/tools/lookup.ts", 2))
	s.idle()
	if got := codes(s.lastDiagnostics(), "/ws/beeuni.yaml"); !slices.Equal(got, []string{"T11"}) {
		t.Fatalf("module broken on disk: codes %v, want [T11]", got)
	}
	if got := s.lastDiagnostics()["/ws/tools/lookup.ts"].Diagnostics; len(got) == 0 {
		t.Errorf("the broken module has no diagnostics of its own")
	}
	fsys.Remove("/ws/tools/lookup.ts")
	s.watched(fileEvent("/ws/tools/lookup.ts", 3))
	s.idle()
	ds := s.lastDiagnostics()
	if got := codes(ds, "/ws/beeuni.yaml"); !slices.Equal(got, []string{"T6"}) {
		t.Errorf("module deleted: codes %v, want [T6]", got)
	}
	if got := ds["/ws/tools/lookup.ts"].Diagnostics; len(got) != 0 {
		t.Errorf("the deleted module keeps diagnostics %v", describeDiags(got))
	}
}

func TestKeystrokeReadsNoDisk(t *testing.T) {
	mem := vfs.MemFromTxtar("/ws", []byte(`-- beeuni.yaml --
imports: [shared.yaml]
tools:
  a: tools/a.ts
  c: tools/c.ts
-- shared.yaml --
tools:
  b: tools/b.ts
-- tools/c.ts --
import { z } from 'zod'
export default { description: 'c', parameters: { type: 'object', properties: {} }, execute() { return z } }
-- tools/a.ts --
export default { description: 'a', parameters: { type: 'object', properties: {} }, execute() { return 'ok' } }
-- tools/b.ts --
export default { description: 'b', parameters: { type: 'object', properties: {} }, execute() { return 'ok' } }
`))
	counter := &countingFS{FS: mem}
	s := startSession(t, counter, idleHook())
	s.initialize(initParams(map[string]any{"capabilities": clientCaps(UTF16), "workspaceFolders": []any{map[string]any{"uri": "file:///ws", "name": "ws"}}}))
	text, _ := mem.ReadFile("/ws/beeuni.yaml")
	s.open("/ws/beeuni.yaml", string(text))
	s.idle()
	before := counter.count()
	counter.mu.Lock()
	counter.log = []string{}
	counter.mu.Unlock()
	for i := 0; i < 5; i++ {
		s.change("/ws/beeuni.yaml", 2+i, string(text)+strings.Repeat("#", i+1)+"\n")
	}
	s.idle()
	if after := counter.count(); after != before {
		t.Errorf("keystrokes read the disk %d times: %v", after-before, counter.log)
	}

	// The broken module's findings (and T11's related location in it)
	// were converted without reading it again; once it changes, they
	// follow its new lines.
	line := func() (own, related uint32) {
		t.Helper()
		ds := s.lastDiagnostics()
		mod := ds["/ws/tools/c.ts"].Diagnostics
		if len(mod) == 0 {
			t.Fatalf("the broken module has no diagnostics: %v", describeDiags(ds["/ws/beeuni.yaml"].Diagnostics))
		}
		for _, d := range ds["/ws/beeuni.yaml"].Diagnostics {
			if d.Code == "T11" && len(d.RelatedInformation) > 0 {
				return mod[0].Range.Start.Line, d.RelatedInformation[0].Location.Range.Start.Line
			}
		}
		t.Fatalf("no T11 with related information: %v", describeDiags(ds["/ws/beeuni.yaml"].Diagnostics))
		return 0, 0
	}
	if own, related := line(); own != 0 || related != 0 {
		t.Fatalf("before the module moves: lines %d and %d, want 0 and 0", own, related)
	}
	mod, _ := mem.ReadFile("/ws/tools/c.ts")
	mem.WriteFile("/ws/tools/c.ts", append([]byte("//\n//\n//\n"), mod...))
	s.watched(fileEvent("/ws/tools/c.ts", 2))
	s.idle()
	if own, related := line(); own != 3 || related != 3 {
		t.Fatalf("after the module moved down three lines: lines %d and %d, want 3 and 3", own, related)
	}
}

// countingFS counts every access to the disk under the server.
type countingFS struct {
	vfs.FS
	mu  sync.Mutex
	n   int
	log []string
}

func (c *countingFS) add(op, p string) {
	c.mu.Lock()
	if c.log != nil {
		c.log = append(c.log, op+" "+p)
	}
	c.n++
	c.mu.Unlock()
}

func (c *countingFS) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func (c *countingFS) ReadFile(p string) ([]byte, error) {
	c.add("ReadFile", p)
	return c.FS.ReadFile(p)
}
func (c *countingFS) Stat(p string) (fs.FileInfo, error) { c.add("Stat", p); return c.FS.Stat(p) }
func (c *countingFS) ReadDir(p string) ([]fs.DirEntry, error) {
	c.add("ReadDir", p)
	return c.FS.ReadDir(p)
}
func (c *countingFS) EvalSymlinks(p string) (string, error) {
	c.add("EvalSymlinks", p)
	return c.FS.EvalSymlinks(p)
}

func TestBurstOfChangesEndsWithOneCurrentSet(t *testing.T) {
	fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\ntools:\n  web_search: beeuni:web_search\n"))
	s := editorSession(t, fsys, UTF16, "/ws")
	text := "tools:\n  web_search: beeuni:web_search\n"
	s.open("/ws/beeuni.yaml", text)
	for i := 1; i <= 100; i++ {
		// Every other version has an error, so that sets differ.
		if i%2 == 1 {
			text += fmt.Sprintf("  Bad%d: tools/x.ts\n", i)
		} else {
			text += fmt.Sprintf("  ok_%d: beeuni:web_search\n", i)
		}
		s.change("/ws/beeuni.yaml", 1+i, text)
	}
	s.idle()
	versions, last := s.publishedVersions(t, "/ws/beeuni.yaml")
	if !slices.IsSorted(versions) {
		t.Errorf("published versions go backwards: %v", versions)
	}
	if last.Version != 101 {
		t.Fatalf("last published version %d, want 101 (published: %v)", last.Version, versions)
	}
	final := vfs.NewMem()
	final.WriteFile("/ws/beeuni.yaml", []byte(text))
	proj, err := analysis.Load(context.Background(), final, "/ws")
	if err != nil {
		t.Fatal(err)
	}
	if len(last.Diagnostics) != len(proj.Findings) {
		t.Errorf("last set has %d diagnostics, the final text has %d findings", len(last.Diagnostics), len(proj.Findings))
	}
	t.Logf("100 changes, %d publishes", len(versions))
}

func TestModuleInspectionSettings(t *testing.T) {
	const manifest = "tools:\n  web_search: beeuni:web_search\n  broken: tools/broken.ts\n"
	archive := "-- beeuni.yaml --\n" + manifest + "-- tools/broken.ts --\nexport const x = 1\n"
	tests := []struct {
		name    string
		init    map[string]any
		config  any
		wantT11 bool
	}{
		{"default", nil, nil, true},
		{"initializationOptions", map[string]any{"inspectModules": false}, nil, false},
		{"initializationOptions wrapped", map[string]any{"beeuni": map[string]any{"inspectModules": false}}, nil, false},
		{"workspace/configuration", nil, map[string]any{"inspectModules": false}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startSession(t, vfs.MemFromTxtar("/ws", []byte(archive)), idleHook())
			if tt.config != nil {
				s.serverCalls["workspace/configuration"] = func(json.RawMessage) any { return []any{tt.config} }
			}
			params := initParams(map[string]any{"capabilities": clientCaps(UTF16), "workspaceFolders": []any{map[string]any{"uri": "file:///ws", "name": "ws"}}})
			if tt.init != nil {
				params["initializationOptions"] = tt.init
			}
			s.initialize(params)
			s.idle()
			got := codes(s.lastDiagnostics(), "/ws/beeuni.yaml")
			if slices.Contains(got, "T11") != tt.wantT11 {
				t.Errorf("codes %v, want T11: %v", got, tt.wantT11)
			}
		})
	}
}

func TestFirstScanReportsProgress(t *testing.T) {
	fsys := vfs.MemFromTxtar("/ws", []byte("-- a/beeuni.yaml --\ntools: {}\n-- b/beeuni.yaml --\ntools: {}\n"))
	s := editorSession(t, fsys, UTF16, "/ws")
	var kinds []string
	from := 0
	for len(kinds) == 0 || kinds[len(kinds)-1] != "end" {
		var n *wireMsg
		n, from = s.waitNote(from, func(m *wireMsg) bool { return m.Method == "$/progress" })
		var p struct {
			Value struct {
				Kind    string `json:"kind"`
				Message string `json:"message"`
			} `json:"value"`
		}
		_ = json.Unmarshal(n.Params, &p)
		kinds = append(kinds, p.Value.Kind)
		if p.Value.Kind == "end" && !strings.Contains(p.Value.Message, "2 project") {
			t.Errorf("end message %q does not count 2 projects", p.Value.Message)
		}
	}
	if kinds[0] != "begin" {
		t.Errorf("progress kinds %v, want begin first", kinds)
	}
}

func TestCodeLensFallbackForInlayHints(t *testing.T) {
	const manifest = "tools:\n  web_search: beeuni:web_search\n"
	s := startSession(t, vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+manifest)), idleHook())
	caps := clientCaps(UTF16)
	delete(caps["textDocument"].(map[string]any), "inlayHint")
	var res struct {
		Capabilities struct {
			InlayHintProvider bool            `json:"inlayHintProvider"`
			CodeLensProvider  json.RawMessage `json:"codeLensProvider"`
		} `json:"capabilities"`
	}
	s.call("initialize", initParams(map[string]any{"capabilities": caps}), &res)
	s.notify("initialized", map[string]any{})
	if res.Capabilities.InlayHintProvider || len(res.Capabilities.CodeLensProvider) == 0 {
		t.Fatalf("a client without inlay hints should get code lenses: %+v", res.Capabilities)
	}
	s.open("/ws/beeuni.yaml", manifest)
	s.idle()
	var lenses []protocol.CodeLens
	s.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": "file:///ws/beeuni.yaml"}}, &lenses)
	if len(lenses) != 1 || lenses[0].Range.Start.Line != 1 || lenses[0].Command == nil || !strings.Contains(lenses[0].Command.Title, "beeuni") {
		t.Errorf("code lenses %+v, want one on line 1 saying beeuni", lenses)
	}
}

func TestPushedConfigurationAndFolderChanges(t *testing.T) {
	fsys := vfs.MemFromTxtar("/", []byte(`-- a/beeuni.yaml --
tools:
  web_search: beeuni:web_search
  broken: tools/broken.ts
-- a/tools/broken.ts --
export const x = 1
-- b/beeuni.yaml --
tools:
  Bad: tools/x.ts
`))
	s := startSession(t, fsys, idleHook())
	caps := clientCaps(UTF16)
	caps["workspace"].(map[string]any)["configuration"] = false
	s.initialize(initParams(map[string]any{"capabilities": caps, "workspaceFolders": []any{map[string]any{"uri": "file:///a", "name": "a"}}}))
	s.idle()
	if got := codes(s.lastDiagnostics(), "/a/beeuni.yaml"); !slices.Equal(got, []string{"T11"}) {
		t.Fatalf("codes %v, want [T11]", got)
	}
	s.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"beeuni": map[string]any{"inspectModules": false}}})
	s.idle()
	if got := codes(s.lastDiagnostics(), "/a/beeuni.yaml"); len(got) != 0 {
		t.Errorf("inspection turned off: codes %v, want none", got)
	}
	s.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added":   []any{map[string]any{"uri": "file:///b", "name": "b"}},
		"removed": []any{map[string]any{"uri": "file:///a", "name": "a"}},
	}})
	s.idle()
	ds := s.lastDiagnostics()
	if got := codes(ds, "/b/beeuni.yaml"); !slices.Contains(got, "T1") {
		t.Errorf("added folder: codes %v, want T1 among them", got)
	}
}

func TestImportCycleHasTheChainInRelatedInformation(t *testing.T) {
	fsys := vfs.MemFromTxtar("/ws", []byte(`-- beeuni.yaml --
imports: [a.yaml]
tools: {web_search: beeuni:web_search}
-- a.yaml --
imports: [b.yaml]
-- b.yaml --
imports: [a.yaml]
`))
	s := editorSession(t, fsys, UTF8, "/ws")
	s.idle()
	var cycle *protocol.Diagnostic
	for _, p := range s.lastDiagnostics() {
		for i, d := range p.Diagnostics {
			if d.Code == "I6" {
				cycle = &p.Diagnostics[i]
			}
		}
	}
	if cycle == nil {
		t.Fatalf("no import cycle diagnostic: %v", s.lastDiagnostics())
	}
	if len(cycle.RelatedInformation) < 2 {
		t.Fatalf("cycle related information %+v, want the chain", cycle.RelatedInformation)
	}
	var files []string
	for _, r := range cycle.RelatedInformation {
		files = append(files, string(r.Location.URI))
	}
	for _, want := range []string{"file:///ws/a.yaml", "file:///ws/b.yaml"} {
		if !slices.Contains(files, want) {
			t.Errorf("related information %v lacks %s", files, want)
		}
	}
}

func TestManifestUnreadableOrDeletedOnDisk(t *testing.T) {
	const manifest = "tools:\n  Bad: tools/x.ts\n"
	fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+manifest))
	s := editorSession(t, fsys, UTF16, "/ws")
	s.idle()
	if got := codes(s.lastDiagnostics(), "/ws/beeuni.yaml"); len(got) == 0 {
		t.Fatalf("no diagnostics to start with")
	}
	fsys.Remove("/ws/beeuni.yaml")
	fsys.Symlink("/ws/beeuni.yaml", "/ws/beeuni.yaml") // a link loop: unreadable
	s.watched(fileEvent("/ws/beeuni.yaml", 2))
	s.idle()
	if got := codes(s.lastDiagnostics(), "/ws/beeuni.yaml"); len(got) != 0 {
		t.Errorf("unreadable manifest keeps diagnostics %v", got)
	}
	note, _ := s.waitNote(0, func(m *wireMsg) bool { return m.Method == "window/showMessage" })
	if !strings.Contains(string(note.Params), "beeuni.yaml") {
		t.Errorf("the warning does not name the manifest: %s", note.Params)
	}
	fsys.Remove("/ws/beeuni.yaml")
	fsys.WriteFile("/ws/beeuni.yaml", []byte(manifest))
	s.watched(fileEvent("/ws/beeuni.yaml", 1))
	s.idle()
	if got := codes(s.lastDiagnostics(), "/ws/beeuni.yaml"); len(got) == 0 {
		t.Errorf("manifest back on disk: no diagnostics")
	}
	fsys.Remove("/ws/beeuni.yaml")
	s.watched(fileEvent("/ws/beeuni.yaml", 3))
	s.idle()
	if got := codes(s.lastDiagnostics(), "/ws/beeuni.yaml"); len(got) != 0 {
		t.Errorf("deleted manifest keeps diagnostics %v", got)
	}
	s.waitNote(0, func(m *wireMsg) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "no longer exists")
	})
}

func TestHoverFormatFollowsTheClient(t *testing.T) {
	const manifest = "tools:\n  web_search: beeuni:web_search\n"
	for _, format := range []string{"markdown", "plaintext"} {
		t.Run(format, func(t *testing.T) {
			s := startSession(t, vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+manifest)), idleHook())
			caps := clientCaps(UTF16)
			caps["textDocument"].(map[string]any)["hover"] = map[string]any{"contentFormat": []string{format}}
			s.initialize(initParams(map[string]any{"capabilities": caps}))
			s.open("/ws/beeuni.yaml", manifest)
			var h protocol.Hover
			s.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///ws/beeuni.yaml"}, "position": protocol.Position{Line: 1, Character: 4}}, &h)
			if string(h.Contents.Kind) != format {
				t.Errorf("hover kind %q, want %q", h.Contents.Kind, format)
			}
		})
	}
}

// TestUnopenedFileRanges: the findings of a manifest no editor has open
// (found by the scan) and of the file it imports are published at their
// places, converted with the engine's line index of each file (the
// publisher's mapper of a loaded file), UTF-16 columns after a character
// outside the BMP included.
func TestUnopenedFileRanges(t *testing.T) {
	fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n# 😀 top\nimports: [more.yaml]\ntools:\n  web_search: beeuni:web_search\n  \"😀\": beeuni:read\n-- more.yaml --\n\ntools:\n   Bad: beeuni:read\n"))
	s := editorSession(t, fsys, UTF16, "/ws")
	s.notify("initialized", map[string]any{})
	s.idle()
	got := s.lastDiagnostics()
	for _, c := range []struct {
		path              string
		line, col, endCol uint32
	}{
		{"/ws/beeuni.yaml", 4, 2, 6}, // the quoted key: 😀 is two UTF-16 units
		{"/ws/more.yaml", 2, 3, 6},
	} {
		p, ok := got[c.path]
		if !ok || len(p.Diagnostics) == 0 {
			t.Fatalf("no diagnostics published for %s: %+v", c.path, got)
		}
		if r := p.Diagnostics[0].Range; r.Start.Line != c.line || r.Start.Character != c.col || r.End.Line != c.line || r.End.Character != c.endCol {
			t.Errorf("%s: first finding %q at %+v, want line %d, characters %d to %d", c.path, p.Diagnostics[0].Message, r, c.line, c.col, c.endCol)
		}
	}
}

// Folders added one after another start scans that run at once; each has a
// progress token of its own (VS Code refuses to create a token that is in
// use, and other clients end a shared bar at the first scan's end).
func TestConcurrentScansHaveTokensOfTheirOwn(t *testing.T) {
	fsys := vfs.MemFromTxtar("/ws", []byte("-- a/beeuni.yaml --\ntools: {}\n-- b/beeuni.yaml --\ntools: {}\n-- c/beeuni.yaml --\ntools: {}\n"))
	s := editorSession(t, fsys, UTF16, "/ws/a")
	s.idle()
	for _, folder := range []string{"/ws/b", "/ws/c"} {
		s.notify(protocol.MethodWorkspaceDidChangeWorkspaceFolders, map[string]any{"event": map[string]any{
			"added":   []any{map[string]any{"uri": string(pathToURI(folder)), "name": folder}},
			"removed": []any{},
		}})
	}
	s.idle()
	ends := map[string]int{}
	for from, seen := 0, 0; seen < 3; seen++ {
		var n *wireMsg
		n, from = s.waitNote(from, func(m *wireMsg) bool {
			return m.Method == protocol.MethodProgress && strings.Contains(string(m.Params), `"end"`)
		})
		var p struct {
			Token json.RawMessage `json:"token"`
		}
		if err := json.Unmarshal(n.Params, &p); err != nil {
			t.Fatal(err)
		}
		ends[string(p.Token)]++
	}
	var created []string
	for _, r := range s.requests() {
		if r.Method == protocol.MethodWorkDoneProgressCreate {
			created = append(created, string(r.Params))
		}
	}
	if len(created) != 3 || created[0] == created[1] || created[1] == created[2] || created[0] == created[2] {
		t.Errorf("progress tokens created: %v, want 3 different ones", created)
	}
	for token, n := range ends {
		if n != 1 {
			t.Errorf("token %s ended %d times", token, n)
		}
	}
}

// An imported file the user creates in the editor (`:e more.yaml`), not on
// disk yet, counts at once: the root's I4 goes and the new file's own
// findings appear, without an edit of the root or a save.
func TestImportOpenedBeforeItExistsOnDisk(t *testing.T) {
	for _, tt := range []struct{ name, imp string }{
		{"beside the manifest", "more.yaml"},
		{"in a folder not on disk", "conf/more.yaml"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := "imports: [" + tt.imp + "]\ntools:\n  web_search: beeuni:web_search\n"
			s := editorSession(t, vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+root)), UTF16, "/ws")
			s.open("/ws/beeuni.yaml", root)
			s.idle()
			if got := codes(s.lastDiagnostics(), "/ws/beeuni.yaml"); !slices.Contains(got, "I4") {
				t.Fatalf("root codes %v before the import exists, want I4", got)
			}
			imported := "/ws/" + tt.imp
			s.open(imported, "tools:\n  web_search: beeuni:web_serch\n")
			s.idle()
			ds := s.lastDiagnostics()
			if got := codes(ds, "/ws/beeuni.yaml"); slices.Contains(got, "I4") {
				t.Errorf("root codes %v after the import was opened, want no I4", got)
			}
			if got := codes(ds, imported); len(got) == 0 {
				t.Errorf("no findings on the opened import %s, want its own", imported)
			}
		})
	}
}

// A change the file watchers missed (another program wrote the file, the
// watcher dropped the event) is seen once the file is opened, saved or
// closed in the editor: closing it reads the disk again, not what the
// server remembered of it.
func TestMissedDiskChangeSeenAfterOpenSaveOrClose(t *testing.T) {
	const root = "imports: [more.yaml]\ntools:\n  web_search: beeuni:web_search\n"
	const bad, good = "tools:\n  image_search: beeuni:image_serch\n", "tools:\n  image_search: beeuni:image_search\n"
	for _, tt := range []struct {
		name string
		save bool
	}{{"opened and closed", false}, {"edited, saved and closed", true}} {
		t.Run(tt.name, func(t *testing.T) {
			fsys := vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+root+"-- more.yaml --\n"+bad))
			s := editorSession(t, fsys, UTF16, "/ws")
			s.open("/ws/beeuni.yaml", root)
			s.idle()
			if got := codes(s.lastDiagnostics(), "/ws/more.yaml"); len(got) == 0 {
				t.Fatal("no finding on more.yaml before the change")
			}
			uri := string(pathToURI("/ws/more.yaml"))
			if tt.save {
				s.open("/ws/more.yaml", bad)
				s.notify(protocol.MethodTextDocumentDidChange, map[string]any{
					"textDocument":   map[string]any{"uri": uri, "version": 2},
					"contentChanges": []any{map[string]any{"text": good}},
				})
				fsys.WriteFile("/ws/more.yaml", []byte(good)) // saved; the watcher's event is lost
				s.notify(protocol.MethodTextDocumentDidSave, map[string]any{"textDocument": map[string]any{"uri": uri}})
			} else {
				fsys.WriteFile("/ws/more.yaml", []byte(good)) // no watcher event
				s.open("/ws/more.yaml", good)
			}
			s.idle()
			s.notify(protocol.MethodTextDocumentDidClose, map[string]any{"textDocument": map[string]any{"uri": uri}})
			s.idle()
			if got := codes(s.lastDiagnostics(), "/ws/more.yaml"); len(got) != 0 {
				t.Errorf("more.yaml codes %v after it was closed, want none: the disk holds the fixed text", got)
			}
		})
	}
}
