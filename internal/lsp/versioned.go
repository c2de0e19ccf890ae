package lsp

import (
	"bytes"
	"errors"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/analysis/edit"
)

// textEdits are protocol text edits by file, in the order files came.
type textEdits struct {
	order []string
	edits map[string][]protocol.TextEdit
}

func (te *textEdits) add(file string, e protocol.TextEdit) {
	if te.edits == nil {
		te.edits = map[string][]protocol.TextEdit{}
	}
	if _, ok := te.edits[file]; !ok {
		te.order = append(te.order, file)
	}
	te.edits[file] = append(te.edits[file], e)
}

// errDocumentMoved says that an open document an edit was computed on has
// changed since: the edit must be planned again on the current text.
var errDocumentMoved = errors.New("the document changed while the edit was prepared")

// versionedEdit is the WorkspaceEdit of te, edits computed on proj as
// loaded from v. A client that takes documentChanges gets one
// TextDocumentEdit per file naming the version of the open document the
// edits were computed on (null for a file that is not open: it is edited
// as it is on disk), so that it refuses them once the user has typed.
// A client that takes only `changes` gets those: nothing in them names a
// version, so the server checks that the documents have not moved before
// it sends an edit of its own (carryOut) and once the client applied it
// (checkApplied).
//
// It fails with errDocumentMoved when proj's text of an edited file is not
// the open document's in v (the edit would name a version it was not
// computed on).
func (s *Server) versionedEdit(v *view, proj *analysis.Project, ci clientInfo, te *textEdits) (*workspaceEditJSON, error) {
	we := &workspaceEditJSON{}
	if !ci.documentChanges {
		we.Changes = map[protocol.DocumentURI][]protocol.TextEdit{}
		for _, file := range te.order {
			we.Changes[s.uriOf(v, file)] = te.edits[file]
		}
		return we, nil
	}
	for _, file := range te.order {
		tde := protocol.TextDocumentEdit{Edits: te.edits[file]}
		tde.TextDocument.URI = s.uriOf(v, file)
		if d := v.docs[file]; d != nil {
			if !bytes.Equal(d.content(), contentIn(v, proj, file)) {
				return nil, fmt.Errorf("%s: %w", file, errDocumentMoved)
			}
			version := d.version
			tde.TextDocument.Version = &version
		}
		we.DocumentChanges = append(we.DocumentChanges, tde)
	}
	return we, nil
}

// uriOf is the URI of path as the client spelled it when the file is open
// in v (file://localhost/..., lower-case escapes...), so that a client
// that compares URI strings finds its document; else the server's own
// spelling.
func (s *Server) uriOf(v *view, path string) protocol.DocumentURI {
	if d := v.docs[path]; d != nil && d.uri != "" {
		return d.uri
	}
	return pathToURI(path)
}

// movedSince returns a file c edits whose open document is no longer the
// one v holds (edited, opened or closed since), or "".
func (s *Server) movedSince(v *view, c *edit.Change) string {
	cur := s.currentView()
	for _, file := range c.Files() {
		if len(c.EditsOf(file)) > 0 && v.docs[file] != cur.docs[file] {
			return file
		}
	}
	return ""
}

// checkApplied runs after a client without documentChanges applied c's
// text edits, computed on v: an open document that now holds neither its
// text in v (the client's didChange may still be on its way) nor that text
// with the edits applied changed under the edit, which may have landed at
// the wrong place; the user is told to look.
func (s *Server) checkApplied(v *view, proj *analysis.Project, c *edit.Change) {
	cur := s.currentView()
	for _, file := range c.Files() {
		edits := c.EditsOf(file)
		old, now := v.docs[file], cur.docs[file]
		if len(edits) == 0 || old == nil || now == nil || old == now {
			continue
		}
		want, err := edit.ApplyText(contentIn(v, proj, file), edits)
		if err == nil && bytes.Equal(now.content(), want) {
			continue
		}
		s.showMessage(protocol.MessageTypeWarning, fmt.Sprintf("Beeuni: %s: %s changed while the editor applied the edit (this editor does not check document versions): check it, and undo the edit if it landed in the wrong place", c.Title, proj.Rel(file)))
	}
}

// showMessage sends window/showMessage.
func (s *Server) showMessage(typ protocol.MessageType, msg string) {
	s.notify(protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: typ, Message: msg})
}
