package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/analysis/edit"
)

// CommandApplyChange carries out a code action that creates or deletes
// files for a client that cannot do it through a workspace edit (a
// contract with the editor clients, like the commands in initialize.go).
const CommandApplyChange = "beeuni.applyChange"

// applyChangeArgs are the arguments of beeuni.applyChange: the place the
// code actions were asked for and the title of the one to run. The server
// computes the actions again there, so that a stale action is refused
// rather than applied to text that moved.
type applyChangeArgs struct {
	URI   protocol.DocumentURI `json:"uri"`
	Range protocol.Range       `json:"range"`
	Title string               `json:"title"`
}

// changesAt returns every action offered on [start, end] of a's file: the
// quick fixes of the findings the range touches, the refactors at start
// (eject, return to beeuni:, legacy map to exclude:) and, in the root
// manifest, the file's source actions (eject with no tools: key). Titles
// are unique: beeuni.applyChange finds an action by its title.
func (s *Server) changesAt(v *view, a *at, start, end int) []*edit.Change {
	return s.changesAtChecked(v, a, start, end, true)
}

// changesAtChecked is changesAt; verify false leaves the ejects' edits
// unchecked (edit.RefactorsUnverified), for a code action list whose edits
// are resolved when picked.
func (s *Server) changesAtChecked(v *view, a *at, start, end int, verify bool) []*edit.Change {
	proj := a.proj
	content := contentIn(v, proj, a.path)
	var changes []*edit.Change
	for _, f := range s.findingsFor(proj, a.path, content) {
		if f.Range.Start.Offset <= end && start <= f.Range.End.Offset {
			changes = append(changes, edit.QuickFixes(proj, v.fs, f)...)
		}
	}
	refactors, sourceActions := edit.Refactors, edit.SourceActions
	if !verify {
		refactors, sourceActions = edit.RefactorsUnverified, edit.SourceActionsUnverified
	}
	changes = append(changes, refactors(proj, v.fs, a.path, start)...)
	if len(proj.Files) > 0 && proj.Files[0].Path == a.path {
		changes = append(changes, sourceActions(proj, v.fs)...)
	}
	seen := map[string]bool{}
	out := changes[:0]
	for _, c := range changes {
		if seen[c.Title] {
			continue
		}
		seen[c.Title] = true
		out = append(out, c)
	}
	return out
}

// applyChange runs beeuni.applyChange.
func (s *Server) applyChange(ctx context.Context, v *view, raw json.RawMessage) error {
	var arg applyChangeArgs
	if err := json.Unmarshal(raw, &arg); err != nil {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s: invalid argument: %v", CommandApplyChange, err))
	}
	if arg.Title == "" {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s: the argument needs a title", CommandApplyChange))
	}
	a, err := s.locate(ctx, v, arg.URI, &arg.Range.Start)
	if err != nil {
		return err
	}
	if a.p == nil || a.proj == nil {
		return jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s belongs to no Beeuni project (no beeuni.yaml above it)", arg.URI))
	}
	start, end := a.mapper.Offsets(arg.Range)
	for _, c := range s.changesAt(v, a, start, end) {
		if c.Title != arg.Title {
			continue
		}
		if c.Disabled != "" {
			return jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s: %s", c.Title, c.Disabled))
		}
		return s.carryOut(ctx, v, a.proj, c, "")
	}
	return jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%q is no longer offered there (the project changed): ask for the code actions again", arg.Title))
}

// carryOut makes a change happen in the editor and on disk, the one path
// for every action run as a command (beeuni.eject, beeuni.applyChange).
//
// A client that creates (and, when needed, deletes) files in workspace
// edits gets the whole change through workspace/applyEdit. Otherwise the
// server creates the files itself (edit.Apply: inside the repository only,
// never through a symbolic link out of it), the client applies the text
// edits through workspace/applyEdit (so that open documents keep their
// unsaved text and undo history), and the server deletes files last, once
// nothing names them; a file open with unsaved changes is not deleted.
// When the client does not apply the text edits, the files just created
// are removed again. Then the client is asked to show c.Show.
// hint ends the error given when the client cannot apply edits at all.
func (s *Server) carryOut(ctx context.Context, v *view, proj *analysis.Project, c *edit.Change, hint string) error {
	s.mu.Lock()
	ci := s.client
	s.mu.Unlock()
	fail := func(format string, args ...any) error {
		return jsonrpc2.NewError(codeRequestFailed, c.Title+": "+fmt.Sprintf(format, args...))
	}
	if len(c.Edits) > 0 && !ci.applyEdit {
		return fail("the editor cannot apply workspace edits (workspace.applyEdit)%s", hint)
	}
	if ci.applyEdit && ci.supportsResourceOps(len(c.Delete) > 0) {
		if err := s.sendEdit(ctx, c.Title, s.workspaceEdit(v, proj, c, true)); err != nil {
			return fail("%v", err)
		}
		s.show(ctx, ci, c.Show)
		return nil
	}
	for _, del := range c.Delete {
		if err := unsavedIn(v, del); err != nil {
			return fail("%s: %v", proj.Rel(del), err)
		}
	}
	var fresh []string // created here, removed again if the edit fails
	if len(c.Create) > 0 {
		for _, nf := range c.Create {
			if _, err := os.Lstat(nf.Path); errors.Is(err, fs.ErrNotExist) {
				fresh = append(fresh, nf.Path)
			}
		}
		if err := edit.Apply(ctx, proj.Root, &edit.Change{Title: c.Title, Kind: c.Kind, Create: c.Create}); err != nil {
			return fail("%v", err)
		}
		var created []string
		for _, nf := range c.Create {
			created = append(created, nf.Path)
		}
		s.filesChanged(created, changeCreated)
	}
	if len(c.Edits) > 0 {
		if err := s.sendEdit(ctx, c.Title, s.workspaceEdit(v, proj, c, false)); err != nil {
			if len(fresh) > 0 {
				if rerr := edit.Apply(context.WithoutCancel(ctx), proj.Root, &edit.Change{Title: c.Title, Delete: fresh}); rerr != nil {
					s.tracef("%s: removing the files created for an edit the editor did not apply: %v", c.Title, rerr)
				}
				s.filesChanged(fresh, changeDeleted)
			}
			return fail("%v", err)
		}
	}
	if len(c.Delete) > 0 {
		if err := edit.Apply(ctx, proj.Root, &edit.Change{Title: c.Title, Kind: c.Kind, Delete: c.Delete}); err != nil {
			return fail("%v", err)
		}
		s.filesChanged(c.Delete, changeDeleted)
	}
	s.show(ctx, ci, c.Show)
	return nil
}

// unsavedIn refuses to delete a file open in the editor with text that
// differs from the disk: deleting it would lose the user's edits.
func unsavedIn(v *view, path string) error {
	d := v.docs[path]
	if d == nil {
		return nil
	}
	disk, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot compare it with the open document: %w", err)
	}
	if err == nil && bytes.Equal(disk, d.content()) {
		return nil
	}
	return errors.New("open in the editor with unsaved changes: save or close it, then try again")
}

// filesChanged tells the server about files it created or deleted itself,
// as the client's file watchers would.
func (s *Server) filesChanged(paths []string, kind changeKind) {
	for _, p := range paths {
		s.disk.forget(p)
	}
	s.bumpView()
	s.ws.changed(paths, kind)
}

// sendEdit asks the client to apply we; an edit the client does not apply
// is an error with its reason.
func (s *Server) sendEdit(ctx context.Context, label string, we *workspaceEditJSON) error {
	var res struct {
		Applied       bool   `json:"applied"`
		FailureReason string `json:"failureReason"`
	}
	if err := s.call(ctx, protocol.MethodWorkspaceApplyEdit, map[string]any{"label": label, "edit": we}, &res); err != nil {
		return err
	}
	if !res.Applied {
		if res.FailureReason == "" {
			return errors.New("the editor did not apply the edit")
		}
		return errors.New(res.FailureReason)
	}
	return nil
}

// show asks the client to open path (a file a change created), when it
// can.
func (s *Server) show(ctx context.Context, ci clientInfo, path string) {
	if path == "" || !ci.showDocument {
		return
	}
	var shown struct {
		Success bool `json:"success"`
	}
	if err := s.call(ctx, "window/showDocument", map[string]any{"uri": pathToURI(path), "takeFocus": true}, &shown); err != nil {
		s.tracef("showDocument: %v", err)
	}
}
