package lsp

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/beeunitools"
)

// FuzzEjectWhileTyping interleaves, as the input says, the user typing in
// the manifest (a comment line inserted at a line start), beeuni.eject and
// beeuni.applyChange (return to beeuni:) started without waiting for their
// answers, and typing while the editor holds an edit the server sent. The
// editor checks versions, as editors that take documentChanges do, with
// and without resource operations; it sends its didChange at once. At the
// end the manifest is the starting one or the ejected one with every typed
// line kept and nothing else changed, tools/memory.ts is on disk (with the
// Beeuni source) exactly when the manifest names it, and no request ended
// in an internal error.
func FuzzEjectWhileTyping(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0})                   // eject, then type at once
	f.Add([]byte{1, 3, 2, 1, 4, 2, 0, 1})       // type while the editor holds the edit
	f.Add([]byte{0, 1, 4, 2, 1, 2, 0, 0, 2})    // eject, return, typing between
	f.Add([]byte{1, 1, 1, 0, 3, 3, 1, 2, 0, 5}) // two ejects racing, then a return
	f.Fuzz(func(t *testing.T, input []byte) {
		if len(input) < 1 || len(input) > 24 {
			return
		}
		wsEdit := map[string]any{"documentChanges": true}
		if input[0]%2 == 0 {
			wsEdit["resourceOperations"] = []string{"create", "delete"}
		}
		s, ed, dir := startEditSession(t, map[string]string{"beeuni.yaml": typingManifest}, wsEdit, nil)
		ed.immediate = true
		manifest := filepath.Join(dir, "beeuni.yaml")
		module := filepath.Join(dir, "tools", "memory.ts")
		ed.open(s, manifest)
		s.idle()

		typed := 0
		typeLine := func(at byte) {
			text, _ := ed.text(manifest)
			ed.typeAt(s, manifest, int(at)%(strings.Count(text, "\n")+1), fmt.Sprintf("# t%d\n", typed))
			typed++
		}
		var holdTyping []byte // typed in the next applyEdit, before the editor looks at it
		ed.beforeApply = func() {
			ed.mu.Lock()
			hold := holdTyping
			holdTyping = nil
			ed.mu.Unlock()
			for _, at := range hold {
				typeLine(at)
			}
		}
		var pending []string
		ops := input[1:]
		for i := 0; i < len(ops); i++ {
			next := func() byte {
				if i+1 < len(ops) {
					i++
					return ops[i]
				}
				return 0
			}
			switch ops[i] % 4 {
			case 0:
				typeLine(next())
			case 1:
				pending = append(pending, s.start("workspace/executeCommand", ejectCommand(pathToURI(manifest), "memory")))
			case 2:
				text, _ := ed.text(manifest)
				line := strings.Count(text[:max(0, strings.Index(text, "  memory:"))], "\n")
				at := protocol.Position{Line: uint32(line), Character: 3}
				arg := map[string]any{"uri": string(pathToURI(manifest)), "range": protocol.Range{Start: at, End: at}, "title": "Return to beeuni:memory (delete tools/memory.ts)"}
				pending = append(pending, s.start("workspace/executeCommand", map[string]any{"command": CommandApplyChange, "arguments": []any{arg}}))
			case 3:
				n := next()%3 + 1
				ed.mu.Lock()
				for k := byte(0); k < n; k++ {
					holdTyping = append(holdTyping, next())
				}
				ed.mu.Unlock()
			}
		}
		for _, id := range pending {
			if m := s.answer(id); m.Error != nil && m.Error.Code == int(jsonrpc2.InternalError) {
				t.Errorf("internal error: %s", m.Error.Message)
			}
		}
		s.idle()

		text, _ := ed.text(manifest)
		var rest []string
		seen := 0
		for _, line := range strings.SplitAfter(text, "\n") {
			if strings.HasPrefix(line, "# t") {
				seen++
				continue
			}
			rest = append(rest, line)
		}
		if seen != typed {
			t.Errorf("%d typed lines in the manifest, %d typed:\n%s", seen, typed, text)
		}
		ejected := false
		switch strings.Join(rest, "") {
		case typingManifest:
		case typingEjected:
			ejected = true
		default:
			t.Fatalf("the manifest is corrupted:\n%s", text)
		}
		data, err := os.ReadFile(module)
		switch {
		case ejected && err != nil:
			t.Errorf("the manifest names tools/memory.ts, which is not on disk: %v", err)
		case ejected:
			if src, _ := beeunitools.Source("memory"); string(data) != string(src) {
				t.Errorf("tools/memory.ts is not the Beeuni source:\n%s", data)
			}
		case !errors.Is(err, fs.ErrNotExist):
			t.Errorf("tools/memory.ts is on disk, the manifest does not name it (%v):\n%s", err, text)
		}
	})
}
