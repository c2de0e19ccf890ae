package lsp

import (
	"bytes"
	"context"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
)

// codeRequestFailed answers a request that was valid but could not be
// done (a refused rename).
const codeRequestFailed jsonrpc2.Code = -32803

// registerFeatures registers the editor features. All are interactive but
// workspace/executeCommand, which waits for the client's answer to
// workspace/applyEdit (and window/showDocument) while the user waits for
// nothing from the server.
func registerFeatures(s *Server) {
	s.register(protocol.MethodTextDocumentCompletion, interactiveWork, completion)
	s.register(protocol.MethodCompletionItemResolve, interactiveWork, completionResolve)
	s.register(protocol.MethodTextDocumentHover, interactiveWork, hover)
	s.register(protocol.MethodTextDocumentDefinition, interactiveWork, definition)
	s.register(protocol.MethodTextDocumentReferences, interactiveWork, references)
	s.register(protocol.MethodTextDocumentDocumentHighlight, interactiveWork, documentHighlight)
	s.register(protocol.MethodTextDocumentDocumentSymbol, interactiveWork, documentSymbol)
	s.register(protocol.MethodWorkspaceSymbol, interactiveWork, workspaceSymbol)
	s.register(protocol.MethodTextDocumentFoldingRange, interactiveWork, foldingRange)
	s.register(protocol.MethodTextDocumentDocumentLink, interactiveWork, documentLink)
	s.register(protocol.MethodTextDocumentPrepareRename, interactiveWork, prepareRename)
	s.register(protocol.MethodTextDocumentRename, interactiveWork, rename)
	s.register(protocol.MethodTextDocumentPrepareCallHierarchy, interactiveWork, prepareCallHierarchy)
	s.register(protocol.MethodCallHierarchyIncomingCalls, interactiveWork, incomingCalls)
	s.register(protocol.MethodCallHierarchyOutgoingCalls, interactiveWork, outgoingCalls)
	s.register(protocol.MethodWillRenameFiles, interactiveWork, willRenameFiles)
	s.register(methodInlayHint, interactiveWork, inlayHint)
	s.register(protocol.MethodTextDocumentCodeLens, interactiveWork, codeLens)
	s.register(protocol.MethodTextDocumentCodeAction, interactiveWork, codeAction)
	s.register(methodCodeActionResolve, interactiveWork, codeActionResolve)
	s.register(protocol.MethodWorkspaceExecuteCommand, backgroundWork, executeCommand)
}

// addFeatureCapabilities declares the features the server answers.
func addFeatureCapabilities(caps *serverCapabilities, ci clientInfo) {
	caps.CompletionProvider = &protocol.CompletionOptions{TriggerCharacters: []string{":", " ", "/", "-", "["}, ResolveProvider: true}
	caps.HoverProvider = true
	caps.DefinitionProvider = true
	caps.ReferencesProvider = true
	caps.DocumentHighlightProvider = true
	caps.DocumentSymbolProvider = true
	caps.WorkspaceSymbolProvider = true
	caps.FoldingRangeProvider = true
	caps.DocumentLinkProvider = &protocol.DocumentLinkOptions{}
	caps.RenameProvider = &protocol.RenameOptions{PrepareProvider: true}
	caps.CallHierarchyProvider = true
	if caps.Workspace != nil {
		caps.Workspace.FileOperations = &protocol.ServerCapabilitiesWorkspaceFileOperations{WillRename: willRenameFilters()}
	}
	// Code lenses on the agents for every client; the inlay hints as code
	// lenses too for a client without inlay hints (codeLens).
	caps.CodeLensProvider = &protocol.CodeLensOptions{}
	if ci.inlayHints {
		caps.InlayHintProvider = true
	}
	if ci.codeActionLiterals {
		caps.CodeActionProvider = &codeActionOptions{
			CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix, protocol.RefactorRewrite, protocol.Source},
			ResolveProvider: ci.codeActionResolveEdit,
		}
	} else {
		caps.CodeActionProvider = true
	}
}

// at is a position in an open or readable file, with its project.
type at struct {
	path     string
	mapper   *Mapper // the file's content as the editor has it
	offset   int
	p        *project
	snap     *analysis.Snapshot // the project's snapshot of the request's view
	proj     *analysis.Project  // snap's load
	fallback *analysis.Project  // the last load in which the file parsed (snap.Fallback)
	// shifts holds the line matches between the editor's text and another
	// load's copy of the file, made once per request and direction.
	shifts map[shiftKey]*lineShift
}

type shiftKey struct {
	proj     *analysis.Project
	toEditor bool
}

// shift returns the match of the file's lines from proj's copy to the
// editor's text (toEditor), or back.
func (a *at) shift(v *view, proj *analysis.Project, toEditor bool) *lineShift {
	k := shiftKey{proj, toEditor}
	if s := a.shifts[k]; s != nil {
		return s
	}
	from, to := contentIn(v, proj, a.path), a.mapper.Content()
	if !toEditor {
		from, to = to, from
	}
	s := newLineShift(from, to)
	if a.shifts == nil {
		a.shifts = map[shiftKey]*lineShift{}
	}
	a.shifts[k] = s
	return s
}

// locate resolves a document of a project (and a position when pos is
// not nil): a file the project does not hold (a CI workflow under its
// root, a TypeScript file no tool declares) gets no project, so that each
// feature answers it with a complete empty result.
func (s *Server) locate(ctx context.Context, v *view, uri protocol.DocumentURI, pos *protocol.Position) (*at, error) {
	a, err := s.locateUnder(ctx, v, uri, pos)
	if err != nil || a.snap == nil || a.snap.Holds(a.path) {
		return a, err
	}
	a.p, a.snap, a.proj, a.fallback = nil, nil, nil, nil
	return a, nil
}

// locateUnder is locate for any file under a project's root, held or
// not (the commands take any file of the project).
func (s *Server) locateUnder(ctx context.Context, v *view, uri protocol.DocumentURI, pos *protocol.Position) (*at, error) {
	path, err := uriToPath(uri)
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	m := s.mapperFor(v, path)
	if m == nil {
		return nil, errNoDocument(uri)
	}
	a := &at{path: path, mapper: m}
	if pos != nil {
		a.offset = m.Offset(*pos)
	}
	a.p, a.snap = s.ws.snapshotOf(v, path)
	if a.snap != nil {
		a.proj, a.fallback = a.snap.Project, a.snap.Fallback(path)
	}
	return a, nil
}

// mapperIn returns the mapper of path's content as proj has it (the
// editor's mapper when it is the same content).
func (s *Server) mapperIn(v *view, proj *analysis.Project, path string) *Mapper {
	content := contentIn(v, proj, path)
	if d := v.docs[path]; d != nil && bytes.Equal(d.content(), content) {
		return d.mapper
	}
	return NewMapper(content, s.encoding())
}

// offsetIn converts an offset of the editor's text into the same place
// in proj's copy of the file (they differ when proj is the last good
// parse).
func (s *Server) offsetIn(v *view, a *at, proj *analysis.Project) int {
	if proj == a.proj {
		return a.offset
	}
	return a.shift(v, proj, false).offset(a.offset)
}

// rangeBack maps a range of proj's copy of a file into the editor's text.
func (s *Server) rangeBack(v *view, a *at, proj *analysis.Project, start, end int) protocol.Range {
	if proj != a.proj {
		sh := a.shift(v, proj, true)
		start, end = sh.offset(start), sh.offset(end)
	}
	return a.mapper.Range(start, end)
}
