package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/analysis/edit"
)

// textDocument/codeAction and codeAction/resolve: the actions offered at a
// range of the request's snapshot, and their workspace edits.

func codeAction(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.CodeActionParams
	if err := decodeParams(protocol.MethodTextDocumentCodeAction, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, &p.Range.Start)
	if err != nil {
		return nil, err
	}
	out := []codeActionJSON{}
	if a.p == nil || a.proj == nil {
		return out, nil
	}
	start, end := a.mapper.Offsets(p.Range)
	s.mu.Lock()
	ci := s.client
	s.mu.Unlock()
	// A client that resolves the edit when the user picks an action gets
	// the ejects unchecked (the check parses the whole manifest twice, tens
	// of milliseconds at 10,000 tools, on every cursor move over a beeuni:
	// entry); codeAction/resolve plans the picked one again, checked.
	lazy := ci.codeActionResolveEdit
	changes, err := s.changesAtChecked(ctx, v, a, start, end, !lazy, p.Context.Only)
	if err != nil {
		return nil, err
	}
	for _, c := range changes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ca := s.codeActionOf(v, a, c, ci, p.Range)
		if c.Unverified && ca.Edit != nil {
			ca.Edit = nil
			ca.Data = &applyChangeArgs{URI: p.TextDocument.URI, Range: p.Range, Title: c.Title}
		}
		out = append(out, ca)
	}
	return out, nil
}

// codeActionOf converts a change offered at rng of a's file.
func (s *Server) codeActionOf(v *view, a *at, c *edit.Change, ci clientInfo, rng protocol.Range) codeActionJSON {
	proj := a.proj
	ca := codeActionJSON{Title: c.Title, Kind: c.Kind, IsPreferred: c.Preferred}
	if c.Fixes != nil {
		ca.Diagnostics = []protocol.Diagnostic{s.toDiagnostic(v, s.mapperIn(v, proj, c.Fixes.File), *c.Fixes)}
	}
	disable := func(reason string) {
		ca.Disabled = &protocol.CodeActionDisable{Reason: reason}
	}
	editOf := func(resources bool) *workspaceEditJSON {
		we, err := s.workspaceEdit(v, proj, c, ci, resources)
		if err != nil {
			disable(err.Error() + ": ask for the code actions again")
		}
		return we
	}
	switch {
	case c.Disabled != "":
		disable(c.Disabled)
	case len(c.Create) > 0 || len(c.Delete) > 0:
		if ci.supportsResourceOps(len(c.Delete) > 0) {
			ca.Edit = editOf(true)
			if c.Show != "" && ci.showDocument {
				// The client applies the edit, then runs the command: the
				// server asks it to open the file the edit created.
				arg, _ := json.Marshal(showArgs{URI: pathToURI(c.Show)})
				ca.Command = &protocol.Command{Title: "Show " + proj.Rel(c.Show), Command: CommandShowDocument, Arguments: []any{json.RawMessage(arg)}}
			}
		} else if name, force, ok := ejectOf(c, proj); ok {
			arg, _ := json.Marshal(ejectArgs{URI: pathToURI(a.path), Name: name, Force: force})
			ca.Command = &protocol.Command{Title: c.Title, Command: CommandEject, Arguments: []any{json.RawMessage(arg)}}
		} else {
			// The server creates and deletes the files itself.
			arg, _ := json.Marshal(applyChangeArgs{URI: pathToURI(a.path), Range: rng, Title: c.Title})
			ca.Command = &protocol.Command{Title: c.Title, Command: CommandApplyChange, Arguments: []any{json.RawMessage(arg)}}
		}
	default:
		ca.Edit = editOf(false)
	}
	return ca
}

// codeActionResolve fills in the edit of an action codeAction left
// unchecked: the actions are planned again where it was offered, checked,
// and the one with its title answers (disabled, with the reason, when the
// check refuses it now). An action without data is returned as it came.
func codeActionResolve(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var ca codeActionJSON
	if err := decodeParams(methodCodeActionResolve, params, &ca); err != nil {
		return nil, err
	}
	if ca.Data == nil {
		return ca, nil
	}
	arg := *ca.Data
	a, err := s.locate(ctx, v, arg.URI, &arg.Range.Start)
	if err != nil {
		return nil, err
	}
	if a.p == nil || a.proj == nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s belongs to no Beeuni project (no beeuni.yaml above it)", arg.URI))
	}
	s.mu.Lock()
	ci := s.client
	s.mu.Unlock()
	start, end := a.mapper.Offsets(arg.Range)
	// Only the actions of its kind are planned again: resolving an eject
	// offered over a selection does not check the selection's quick fixes.
	var only []protocol.CodeActionKind
	if ca.Kind != "" {
		only = []protocol.CodeActionKind{protocol.CodeActionKind(ca.Kind)}
	}
	changes, err := s.changesAtChecked(ctx, v, a, start, end, true, only)
	if err != nil {
		return nil, err
	}
	for _, c := range changes {
		if c.Title == arg.Title {
			return s.codeActionOf(v, a, c, ci, arg.Range), nil
		}
	}
	return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s: no longer offered here (the file changed): ask for the code actions again", arg.Title))
}

// ejectOf recognises an eject change, for clients that cannot create
// files in a workspace edit: the command does it on the server.
func ejectOf(c *edit.Change, proj *analysis.Project) (name string, force bool, ok bool) {
	if len(c.Create) != 1 || len(c.Delete) != 0 {
		return "", false, false
	}
	for _, n := range analysis.BeeuniTools() {
		if c.Create[0].Path == joinRoot(proj.Root, edit.EjectedPath(n)) {
			return n, c.Create[0].Overwrite, true
		}
	}
	return "", false, false
}

func kindWanted(kind string, only []protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if kind == string(o) || strings.HasPrefix(kind, string(o)+".") {
			return true
		}
	}
	return false
}

// workspaceEdit converts a change planned on proj as loaded from v. With
// resources, files are created and deleted by the client; otherwise only
// the text edits are in it. Every text edit names the document version it
// was computed on (documentChanges) when the client takes documentChanges,
// so that it rejects an edit the user's typing made stale; a client that
// takes only `changes` gets those (see versionedEdit).
func (s *Server) workspaceEdit(v *view, proj *analysis.Project, c *edit.Change, ci clientInfo, resources bool) (*workspaceEditJSON, error) {
	te := &textEdits{}
	for _, file := range c.Files() {
		m := s.mapperIn(v, proj, file)
		for _, e := range c.EditsOf(file) {
			te.add(file, protocol.TextEdit{Range: m.Range(e.Start, e.End), NewText: e.NewText})
		}
	}
	if !resources {
		return s.versionedEdit(v, proj, ci, te)
	}
	we := &workspaceEditJSON{}
	for _, nf := range c.Create {
		cf := protocol.CreateFile{Kind: protocol.CreateResourceOperation, URI: pathToURI(nf.Path)}
		if nf.Overwrite {
			cf.Options = &protocol.CreateFileOptions{Overwrite: true}
		}
		we.DocumentChanges = append(we.DocumentChanges, cf)
		if len(nf.Content) > 0 {
			te := protocol.TextDocumentEdit{Edits: []protocol.TextEdit{{NewText: string(nf.Content)}}}
			te.TextDocument.URI = pathToURI(nf.Path)
			we.DocumentChanges = append(we.DocumentChanges, te)
		}
	}
	texts, err := s.versionedEdit(v, proj, clientInfo{documentChanges: true}, te)
	if err != nil {
		return nil, err
	}
	we.DocumentChanges = append(we.DocumentChanges, texts.DocumentChanges...)
	for _, del := range c.Delete {
		if d := v.docs[del]; d != nil {
			// An empty edit naming the version of the open file: a
			// client that checks versions refuses the whole edit, delete
			// included, once the user has typed in the file.
			te := protocol.TextDocumentEdit{Edits: []protocol.TextEdit{}}
			te.TextDocument.URI = d.uri
			version := d.version
			te.TextDocument.Version = &version
			we.DocumentChanges = append(we.DocumentChanges, te)
		}
		we.DocumentChanges = append(we.DocumentChanges, protocol.DeleteFile{Kind: protocol.DeleteResourceOperation, URI: s.uriOf(v, del)})
	}
	return we, nil
}

// changesAt returns every action offered on [start, end] of a's file: the
// quick fixes of the findings the range touches, the refactors at start
// (eject, return to beeuni:, legacy map to exclude:) and, in the root
// manifest, the file's source actions (eject with no tools: key). Titles
// are unique: beeuni.applyChange finds an action by its title. The error
// is ctx's, when it ends before the actions are planned.
func (s *Server) changesAt(ctx context.Context, v *view, a *at, start, end int) ([]*edit.Change, error) {
	return s.changesAtChecked(ctx, v, a, start, end, true, nil)
}

// changesAtChecked is changesAt for the kinds only asks for (all when
// empty, as the request's context.only): the others are not planned at
// all. verify false leaves the ejects' edits unchecked
// (edit.RefactorsUnverified), for a code action list whose edits are
// resolved when picked.
//
// A selection over many findings costs what it offers: one
// edit.QuickFixer plans the fixes of all of them, checking each distinct
// fix once, and the planning stops at the first sign of ctx ending.
func (s *Server) changesAtChecked(ctx context.Context, v *view, a *at, start, end int, verify bool, only []protocol.CodeActionKind) ([]*edit.Change, error) {
	proj := a.proj
	var changes []*edit.Change
	if kindWanted(edit.KindQuickFix, only) {
		fixer := edit.NewQuickFixer(proj, v.fs)
		// The findings of the snapshot the request was asked against,
		// module ones included: what the user sees at this version.
		for _, f := range a.snap.Findings(a.path) {
			if f.Range.Start.Offset <= end && start <= f.Range.End.Offset {
				fixes, err := fixer.Fixes(ctx, f)
				if err != nil {
					return nil, err
				}
				changes = append(changes, fixes...)
			}
		}
	}
	refactors, sourceActions := edit.Refactors, edit.SourceActions
	if !verify {
		refactors, sourceActions = edit.RefactorsUnverified, edit.SourceActionsUnverified
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if kindWanted(edit.KindRefactor, only) {
		changes = append(changes, refactors(proj, v.fs, a.path, start)...)
	}
	if kindWanted(edit.KindSource, only) && len(proj.Files) > 0 && proj.Files[0].Path == a.path {
		changes = append(changes, sourceActions(proj, v.fs)...)
	}
	seen := map[string]bool{}
	out := changes[:0]
	for _, c := range changes {
		if seen[c.Title] {
			continue
		}
		seen[c.Title] = true
		if !kindWanted(c.Kind, only) {
			continue
		}
		if c.Disabled == "" {
			// Never offered enabled: a client with resource operations
			// would delete the buffer's unsaved text with the file, or
			// leave an open buffer over the file an eject overwrites.
			if path, err := unsafeForOpenFiles(v, c); err != nil {
				c.Disabled = fmt.Sprintf("%s: %v", proj.Rel(path), err)
			}
		}
		out = append(out, c)
	}
	return out, nil
}
