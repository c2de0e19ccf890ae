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
// contract with the editor clients, like the commands in commands.go).
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

// applyChange runs beeuni.applyChange.
func (s *Server) applyChange(ctx context.Context, v *view, raw json.RawMessage) error {
	var arg applyChangeArgs
	if err := json.Unmarshal(raw, &arg); err != nil {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s: invalid argument: %v", CommandApplyChange, err))
	}
	if arg.Title == "" {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s: the argument needs a title", CommandApplyChange))
	}
	return s.planAndCarryOut(ctx, v, func(v *view) (*analysis.Project, *edit.Change, string, error) {
		a, err := s.locate(ctx, v, arg.URI, &arg.Range.Start)
		if err != nil {
			return nil, nil, "", err
		}
		if a.p == nil || a.proj == nil {
			return nil, nil, "", jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s belongs to no Beeuni project (no beeuni.yaml above it)", arg.URI))
		}
		start, end := a.mapper.Offsets(arg.Range)
		changes, err := s.changesAt(ctx, v, a, start, end)
		if err != nil {
			return nil, nil, "", err
		}
		for _, c := range changes {
			if c.Title != arg.Title {
				continue
			}
			if c.Disabled != "" {
				return nil, nil, "", jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s: %s", c.Title, c.Disabled))
			}
			return a.proj, c, "", nil
		}
		return nil, nil, "", jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%q is no longer offered there (the project changed): ask for the code actions again", arg.Title))
	})
}

// maxReplans bounds how often a command plans its change again because the
// user typed in a document it edits while it was being prepared.
const maxReplans = 3

// planAndCarryOut plans a change on v and carries it out; when an open
// document the change edits moved on before the edit was sent (the user
// typed meanwhile), the change is planned again on the current documents,
// a few times at most. plan returns the project, the change and carryOut's
// hint. Commands carry out their changes one at a time: a return planned
// while an eject's module is not written yet would delete nothing, and the
// eject would then write the module the manifest no longer names.
func (s *Server) planAndCarryOut(ctx context.Context, v *view, plan func(v *view) (*analysis.Project, *edit.Change, string, error)) error {
	select {
	case s.changing <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.changing }()
	for attempt := 1; ; attempt++ {
		proj, c, hint, err := plan(v)
		if err != nil {
			return err
		}
		err = s.carryOut(ctx, v, proj, c, hint)
		if !errors.Is(err, errDocumentMoved) {
			return err
		}
		if attempt == maxReplans {
			return jsonrpc2.NewError(codeContentModified, fmt.Sprintf("%s: %v, %d times: try again when the typing stops", c.Title, errDocumentMoved, attempt))
		}
		v = s.currentView()
	}
}

// carryOut makes a change planned on proj (loaded from v) happen in the
// editor and on disk, the one path for every action run as a command
// (beeuni.eject, beeuni.applyChange).
//
// Every text edit names the version of the document it was computed on
// (versionedEdit). Before anything is sent, a change that would delete a
// file open with unsaved changes or overwrite a file open in the editor
// is refused (unsafeForOpenFiles), and an edited document that moved on
// since v gives errDocumentMoved (planAndCarryOut plans again). Once the
// edit is sent, cancelling the request no longer stops the change: the
// rest runs under a context only the server's shutdown cancels. A client
// that creates (and, when needed, deletes) files in workspace edits gets
// the whole change in one workspace/applyEdit: it applies all of it or
// none. Otherwise the client first applies the text edits, and only once
// it has applied them does the server write the new files (edit.Apply:
// inside the repository only, never through a symbolic link out of it)
// and delete files (checked again for unsaved changes): an edit the
// client rejects leaves the disk untouched. A rejected edit is shown to
// the user (window/showMessage, with the client's reason) and fails the
// command. Then the client is asked to show c.Show. hint ends the error
// given when the client cannot apply edits at all.
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
	if path, err := unsafeForOpenFiles(v, c); err != nil {
		return fail("%s: %v", proj.Rel(path), err)
	}
	// Once the edit is sent, the editor may apply it whatever happens to
	// the request: from then on, the change is carried out to its end
	// (the files the edit needs written) under a context only the
	// server's shutdown cancels, never left half done by a cancellation.
	commit, release := s.detached(ctx)
	defer release()
	after := ctx // the context of what follows: commit once the edit is sent
	send := func(resources bool) error {
		we, err := s.workspaceEdit(v, proj, c, ci, resources)
		if err != nil {
			return err
		}
		if moved := s.movedSince(v, c); moved != "" {
			return fmt.Errorf("%s: %w", proj.Rel(moved), errDocumentMoved)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		after = commit
		if err := s.sendEdit(commit, c.Title, we); err != nil {
			if errors.Is(err, errNoAnswer) {
				s.showMessage(protocol.MessageTypeError, fmt.Sprintf("Beeuni: %s: %v: the editor may have applied it; look at the files before running the action again.", c.Title, err))
			} else {
				s.showMessage(protocol.MessageTypeError, fmt.Sprintf("Beeuni: %s: the editor did not apply the edit: %v. Nothing was changed on disk.", c.Title, err))
			}
			return fail("%v", err)
		}
		return nil
	}
	if ci.applyEdit && ci.supportsResourceOps(len(c.Delete) > 0) {
		if err := send(true); err != nil {
			return err
		}
		s.show(after, ci, c.Show)
		return nil
	}
	for _, nf := range c.Create {
		if _, err := os.Lstat(nf.Path); err == nil && !nf.Overwrite {
			return fail("%s exists: not overwriting it", proj.Rel(nf.Path))
		}
	}
	if len(c.Edits) > 0 {
		if err := send(false); err != nil {
			return err
		}
		if !ci.documentChanges {
			s.checkApplied(v, proj, c)
		}
	}
	if len(c.Create) > 0 {
		if err := edit.Apply(after, proj.Root, &edit.Change{Title: c.Title, Kind: c.Kind, Create: c.Create}); err != nil {
			if len(c.Edits) > 0 {
				s.showMessage(protocol.MessageTypeError, fmt.Sprintf("Beeuni: %s: the editor applied the edit, but writing the new file failed: %v. Undo the edit, or fix the cause and run the action again.", c.Title, err))
			}
			return fail("%v", err)
		}
		var created []string
		for _, nf := range c.Create {
			created = append(created, nf.Path)
		}
		s.filesChanged(created, changeCreated)
	}
	if len(c.Delete) > 0 {
		cur := s.currentView()
		for _, del := range c.Delete {
			if err := unsavedIn(cur, del); err != nil {
				return fail("%s: %v (the file is kept)", proj.Rel(del), err)
			}
		}
		if err := edit.Apply(after, proj.Root, &edit.Change{Title: c.Title, Kind: c.Kind, Delete: c.Delete}); err != nil {
			return fail("%v", err)
		}
		s.filesChanged(c.Delete, changeDeleted)
	}
	s.show(after, ci, c.Show)
	return nil
}

// unsafeForOpenFiles refuses a change that would lose what an open
// document holds: deleting a file open with unsaved changes, or
// overwriting a file open in the editor at all (its buffer would keep
// the old text, or the user's unsaved text, over the new file, and
// saving it would undo the overwrite). It returns the file and why.
func unsafeForOpenFiles(v *view, c *edit.Change) (string, error) {
	for _, del := range c.Delete {
		if err := unsavedIn(v, del); err != nil {
			return del, err
		}
	}
	for _, nf := range c.Create {
		if !nf.Overwrite || v.docs[nf.Path] == nil {
			continue
		}
		if err := unsavedIn(v, nf.Path); err != nil {
			return nf.Path, err
		}
		return nf.Path, errors.New("open in the editor: close it, then run the action again (its buffer would keep the old text over the overwritten file)")
	}
	return "", nil
}

// detached returns a context that keeps ctx's values but not its
// cancellation: only the server's shutdown (s.bg) cancels it. release
// frees it.
func (s *Server) detached(ctx context.Context) (context.Context, context.CancelFunc) {
	c, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(s.bg, cancel)
	return c, func() {
		stop()
		cancel()
	}
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

// errNoAnswer is sendEdit's error when the client gave no answer (the
// call failed): whether it applied the edit is unknown.
var errNoAnswer = errors.New("no answer from the editor to the edit")

// sendEdit asks the client to apply we; an edit the client does not apply
// is an error with its reason, one it did not answer wraps errNoAnswer.
func (s *Server) sendEdit(ctx context.Context, label string, we *workspaceEditJSON) error {
	var res protocol.ApplyWorkspaceEditResponse
	if err := s.call(ctx, protocol.MethodWorkspaceApplyEdit, &applyWorkspaceEditParams{Label: label, Edit: we}, &res); err != nil {
		return fmt.Errorf("%w (%v)", errNoAnswer, err)
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
	var shown protocol.ShowDocumentResult
	if err := s.call(ctx, methodShowDocument, &protocol.ShowDocumentParams{URI: pathToURI(path), TakeFocus: true}, &shown); err != nil {
		s.tracef("showDocument: %v", err)
	}
}
