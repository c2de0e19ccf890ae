package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"
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
