package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"sort"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/features"
)

// codeRequestFailed answers a request that was valid but could not be
// done (a refused rename).
const codeRequestFailed jsonrpc2.Code = -32803

func registerFeatures(s *Server) {
	s.requests[protocol.MethodTextDocumentCompletion] = completion
	s.requests[protocol.MethodCompletionItemResolve] = completionResolve
	s.requests[protocol.MethodTextDocumentHover] = hover
	s.requests[protocol.MethodTextDocumentDefinition] = definition
	s.requests[protocol.MethodTextDocumentReferences] = references
	s.requests[protocol.MethodTextDocumentDocumentHighlight] = documentHighlight
	s.requests[protocol.MethodTextDocumentDocumentSymbol] = documentSymbol
	s.requests[protocol.MethodWorkspaceSymbol] = workspaceSymbol
	s.requests[protocol.MethodTextDocumentFoldingRange] = foldingRange
	s.requests[protocol.MethodTextDocumentDocumentLink] = documentLink
	s.requests[protocol.MethodTextDocumentPrepareRename] = prepareRename
	s.requests[protocol.MethodTextDocumentRename] = rename
	s.requests[methodInlayHint] = inlayHint
	s.requests[protocol.MethodTextDocumentCodeLens] = codeLens
	s.requests[protocol.MethodTextDocumentCodeAction] = codeAction
	s.requests[methodCodeActionResolve] = codeActionResolve
	s.requests[protocol.MethodWorkspaceExecuteCommand] = executeCommand
}

// methodInlayHint is not in protocol v0.12.0.
const methodInlayHint = "textDocument/inlayHint"

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
	if ci.inlayHints {
		caps.InlayHintProvider = true
	} else {
		caps.CodeLensProvider = &protocol.CodeLensOptions{}
	}
	if ci.codeActionLiterals {
		// protocol v0.12.0's CodeActionOptions has no resolveProvider.
		caps.CodeActionProvider = &struct {
			CodeActionKinds []protocol.CodeActionKind `json:"codeActionKinds"`
			ResolveProvider bool                      `json:"resolveProvider,omitempty"`
		}{
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
	proj     *analysis.Project // loaded from the view
	fallback *analysis.Project // the last load in which the file parsed
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
	if err != nil || a.proj == nil || holds(a.proj, a.path) {
		return a, err
	}
	a.p, a.proj, a.fallback = nil, nil, nil
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
	a.p, a.proj, a.fallback = s.ws.load(ctx, v, path)
	return a, nil
}

// mapperIn returns the mapper of path's content as proj has it (the
// editor's mapper when it is the same content).
func (s *Server) mapperIn(v *view, proj *analysis.Project, path string) *Mapper {
	content := contentIn(v, proj, path)
	if d := v.docs[path]; d != nil && sameContent(d.content(), content) {
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

func completion(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.CompletionParams
	if err := decodeParams(protocol.MethodTextDocumentCompletion, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, &p.Position)
	if err != nil {
		return nil, err
	}
	list := &protocol.CompletionList{Items: []protocol.CompletionItem{}}
	if a.p == nil {
		return list, nil
	}
	repo := s.ws.repoFiles(ctx, v, a.p)
	docs := map[string]string{}
	content := a.mapper.Content()
	// Only the items matching the word typed so far are made, at most
	// maxCompletionItems; a list so reduced is incomplete, so the client
	// asks again when the word changes (it would filter a shorter list
	// otherwise).
	items, incomplete := features.CompletionMatching(a.fallback, repo, a.path, content, a.offset, maxCompletionItems)
	list.IsIncomplete = incomplete
	for _, it := range items {
		item := protocol.CompletionItem{
			Label:      it.Label,
			Detail:     it.Detail,
			Kind:       completionKind(it.Kind),
			FilterText: it.FilterText,
			SortText:   it.SortText,
			TextEdit:   &protocol.TextEdit{Range: a.mapper.Range(it.Edit.Start, it.Edit.End), NewText: it.Edit.NewText},
		}
		if it.Documentation != "" {
			// Sent by completionItem/resolve: a list of 1,000 tools with
			// their documentation would cost more to send than to make.
			docs[it.Label] = it.Documentation
			item.Data = map[string]string{"label": it.Label}
		}
		list.Items = append(list.Items, item)
	}
	s.mu.Lock()
	s.completionDocs = docs
	s.mu.Unlock()
	return list, nil
}

// maxCompletionItems caps a completion list (an agent's list in a
// 10,000-tool project offers every tool): the list is then marked
// incomplete, so the editor asks again as the word grows, and the items
// whose name starts with the word come first (features.CompletionMatching).
// 200 is what an editor's list shows usefully (clangd's default is 100);
// 1,000 items cost five times as much to encode, send and decode (p95 13
// against 9 ms at 10,000 tools, docs/performance.md).
const maxCompletionItems = 200

// completionResolve adds the documentation of an item of the last
// completion list.
func completionResolve(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var item protocol.CompletionItem
	if err := decodeParams(protocol.MethodCompletionItemResolve, params, &item); err != nil {
		return nil, err
	}
	var data struct {
		Label string `json:"label"`
	}
	if raw, err := json.Marshal(item.Data); err == nil {
		_ = json.Unmarshal(raw, &data)
	}
	s.mu.Lock()
	doc, ok := s.completionDocs[data.Label]
	s.mu.Unlock()
	if ok && data.Label == item.Label {
		m := s.markup(doc)
		item.Documentation = &m
	}
	return &item, nil
}

func completionKind(k features.ItemKind) protocol.CompletionItemKind {
	switch k {
	case features.ItemBeeuniTool, features.ItemProjectTool:
		return protocol.CompletionItemKindFunction
	case features.ItemHarnessTool:
		return protocol.CompletionItemKindMethod
	case features.ItemModule, features.ItemYAMLFile:
		return protocol.CompletionItemKindFile
	case features.ItemKeyword:
		return protocol.CompletionItemKindKeyword
	case features.ItemKey:
		return protocol.CompletionItemKindProperty
	}
	return protocol.CompletionItemKindText
}

func hover(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.HoverParams
	if err := decodeParams(protocol.MethodTextDocumentHover, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, &p.Position)
	if err != nil || a.p == nil {
		return nil, err
	}
	proj := a.fallback
	h, ok := features.Hover(proj, s.ws.modules(a.p), a.path, s.offsetIn(v, a, proj))
	if !ok {
		return nil, nil
	}
	r := s.rangeBack(v, a, proj, h.Range.Start.Offset, h.Range.End.Offset)
	return &protocol.Hover{Contents: s.markup(h.Markdown), Range: &r}, nil
}

// locations converts feature locations, each mapped in its own file
// (the request's file as the editor has it); an error when ctx ends.
func (s *Server) locations(ctx context.Context, v *view, a *at, proj *analysis.Project, locs []features.Location) ([]protocol.Location, error) {
	out := []protocol.Location{}
	mappers := map[string]*Mapper{}
	for _, l := range locs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if l.File == a.path {
			out = append(out, protocol.Location{URI: pathToURI(l.File), Range: s.rangeBack(v, a, proj, l.Range.Start.Offset, l.Range.End.Offset)})
			continue
		}
		m := mappers[l.File]
		if m == nil {
			m = s.mapperIn(v, proj, l.File)
			mappers[l.File] = m
		}
		out = append(out, protocol.Location{URI: pathToURI(l.File), Range: m.Range(l.Range.Start.Offset, l.Range.End.Offset)})
	}
	return out, nil
}

func definition(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.DefinitionParams
	if err := decodeParams(protocol.MethodTextDocumentDefinition, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, &p.Position)
	if err != nil || a.p == nil {
		return nil, err
	}
	proj := a.fallback
	return s.locations(ctx, v, a, proj, features.Definition(proj, s.ws.modules(a.p), a.path, s.offsetIn(v, a, proj)))
}

func references(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.ReferenceParams
	if err := decodeParams(protocol.MethodTextDocumentReferences, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, &p.Position)
	if err != nil || a.p == nil {
		return nil, err
	}
	proj := a.fallback
	return s.locations(ctx, v, a, proj, features.References(proj, a.path, s.offsetIn(v, a, proj), p.Context.IncludeDeclaration))
}

func documentHighlight(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.DocumentHighlightParams
	if err := decodeParams(protocol.MethodTextDocumentDocumentHighlight, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, &p.Position)
	if err != nil || a.p == nil {
		return nil, err
	}
	proj := a.fallback
	out := []protocol.DocumentHighlight{}
	for _, h := range features.DocumentHighlights(proj, a.path, s.offsetIn(v, a, proj)) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		kind := protocol.DocumentHighlightKindRead
		if h.Write {
			kind = protocol.DocumentHighlightKindWrite
		}
		out = append(out, protocol.DocumentHighlight{Range: s.rangeBack(v, a, proj, h.Range.Start.Offset, h.Range.End.Offset), Kind: kind})
	}
	return out, nil
}

func symbolKind(k features.SymbolKind) protocol.SymbolKind {
	switch k {
	case features.SymbolSection:
		return protocol.SymbolKindNamespace
	case features.SymbolTool:
		return protocol.SymbolKindFunction
	case features.SymbolAgent:
		return protocol.SymbolKindClass
	case features.SymbolImport:
		return protocol.SymbolKindFile
	}
	return protocol.SymbolKindVariable
}

func documentSymbol(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.DocumentSymbolParams
	if err := decodeParams(protocol.MethodTextDocumentDocumentSymbol, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, nil)
	if err != nil {
		return nil, err
	}
	if a.p == nil {
		return []protocol.DocumentSymbol{}, nil
	}
	proj := a.fallback
	rng := func(r diag.Range) protocol.Range { return s.rangeBack(v, a, proj, r.Start.Offset, r.End.Offset) }
	syms := features.DocumentSymbols(proj, a.path)
	s.mu.Lock()
	hierarchical := s.client.hierarchicalSymbols
	s.mu.Unlock()
	if !hierarchical {
		out := []protocol.SymbolInformation{}
		var flatten func(container string, list []features.Symbol)
		flatten = func(container string, list []features.Symbol) {
			for _, sym := range list {
				if ctx.Err() != nil {
					return
				}
				out = append(out, protocol.SymbolInformation{
					Name: sym.Name, Kind: symbolKind(sym.Kind), ContainerName: container,
					Location: protocol.Location{URI: pathToURI(a.path), Range: rng(sym.Range)},
				})
				flatten(sym.Name, sym.Children)
			}
		}
		flatten("", syms)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return out, nil
	}
	var convert func(list []features.Symbol) []protocol.DocumentSymbol
	convert = func(list []features.Symbol) []protocol.DocumentSymbol {
		out := []protocol.DocumentSymbol{}
		for _, sym := range list {
			if ctx.Err() != nil {
				return nil
			}
			out = append(out, protocol.DocumentSymbol{
				Name:           sym.Name,
				Detail:         sym.Detail,
				Kind:           symbolKind(sym.Kind),
				Range:          rng(sym.Range),
				SelectionRange: rng(sym.Selection),
				Children:       convert(sym.Children),
			})
		}
		return out
	}
	out := convert(syms)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func workspaceSymbol(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.WorkspaceSymbolParams
	if err := decodeParams(protocol.MethodWorkspaceSymbol, params, &p); err != nil {
		return nil, err
	}
	var projects []*analysis.Project
	for _, pr := range s.ws.allProjects() {
		if proj, _ := pr.latest(); proj != nil {
			projects = append(projects, proj)
		}
	}
	out := []protocol.SymbolInformation{}
	mappers := map[string]*Mapper{}
	byRoot := map[string]*analysis.Project{}
	for _, proj := range projects {
		byRoot[proj.Root] = proj
	}
	for _, sym := range features.WorkspaceSymbols(projects, p.Query) {
		m := mappers[sym.File]
		if m == nil {
			var owner *analysis.Project
			for _, proj := range projects {
				if proj.File(sym.File) != nil {
					owner = proj
					break
				}
			}
			m = s.mapperIn(v, owner, sym.File)
			mappers[sym.File] = m
		}
		out = append(out, protocol.SymbolInformation{
			Name: sym.Name, Kind: symbolKind(sym.Kind), ContainerName: sym.Container,
			Location: protocol.Location{URI: pathToURI(sym.File), Range: m.Range(sym.Selection.Start.Offset, sym.Selection.End.Offset)},
		})
	}
	return out, nil
}

func foldingRange(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.FoldingRangeParams
	if err := decodeParams(protocol.MethodTextDocumentFoldingRange, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, nil)
	if err != nil {
		return nil, err
	}
	out := []protocol.FoldingRange{}
	if a.p == nil {
		return out, nil
	}
	for _, f := range features.FoldingRanges(a.fallback, a.path) {
		out = append(out, protocol.FoldingRange{StartLine: uint32(f.StartLine), EndLine: uint32(f.EndLine)})
	}
	return out, nil
}

func documentLink(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.DocumentLinkParams
	if err := decodeParams(protocol.MethodTextDocumentDocumentLink, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, nil)
	if err != nil {
		return nil, err
	}
	out := []protocol.DocumentLink{}
	if a.p == nil {
		return out, nil
	}
	for _, l := range features.DocumentLinks(a.fallback, a.path) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out = append(out, protocol.DocumentLink{Range: s.rangeBack(v, a, a.fallback, l.Range.Start.Offset, l.Range.End.Offset), Target: pathToURI(l.Target)})
	}
	return out, nil
}

func prepareRename(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.PrepareRenameParams
	if err := decodeParams(protocol.MethodTextDocumentPrepareRename, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, &p.Position)
	if err != nil || a.p == nil {
		return nil, err
	}
	r, name, err := features.PrepareRename(a.proj, a.path, a.offset)
	if err != nil {
		return nil, renameError(err)
	}
	m := s.mapperIn(v, a.proj, a.path)
	return map[string]any{"range": m.Range(r.Start.Offset, r.End.Offset), "placeholder": name}, nil
}

func renameError(err error) error {
	var re *features.RenameError
	if errors.As(err, &re) {
		return jsonrpc2.NewError(codeRequestFailed, re.Reason)
	}
	return err
}

func rename(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.RenameParams
	if err := decodeParams(protocol.MethodTextDocumentRename, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, &p.Position)
	if err != nil || a.p == nil {
		return nil, err
	}
	edits, err := features.Rename(a.proj, a.path, a.offset, p.NewName)
	if err != nil {
		return nil, renameError(err)
	}
	te := &textEdits{}
	mappers := map[string]*Mapper{}
	for _, e := range edits {
		m := mappers[e.File]
		if m == nil {
			m = s.mapperIn(v, a.proj, e.File)
			mappers[e.File] = m
		}
		te.add(e.File, protocol.TextEdit{Range: m.Range(e.Start, e.End), NewText: e.NewText})
	}
	s.mu.Lock()
	ci := s.client
	s.mu.Unlock()
	we, err := s.versionedEdit(v, a.proj, ci, te)
	if err != nil {
		return nil, jsonrpc2.NewError(codeContentModified, "rename: "+err.Error()+": try again")
	}
	return we, nil
}

// inlayHintJSON is the protocol's InlayHint (absent from v0.12.0).
type inlayHintJSON struct {
	Position     protocol.Position       `json:"position"`
	Label        string                  `json:"label"`
	Tooltip      *protocol.MarkupContent `json:"tooltip,omitempty"`
	PaddingLeft  bool                    `json:"paddingLeft,omitempty"`
	PaddingRight bool                    `json:"paddingRight,omitempty"`
}

// hintsOf returns the inlay hints of a document with their mapper.
func (s *Server) hintsOf(ctx context.Context, v *view, uri protocol.DocumentURI) ([]features.InlayHint, *Mapper, error) {
	a, err := s.locate(ctx, v, uri, nil)
	if err != nil || a.p == nil {
		return nil, nil, err
	}
	hints := features.InlayHints(a.proj, s.ws.modules(a.p), a.path)
	sort.SliceStable(hints, func(i, j int) bool { return hints[i].Offset < hints[j].Offset })
	return hints, s.mapperIn(v, a.proj, a.path), nil
}

func inlayHint(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p struct {
		TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
		Range        protocol.Range                  `json:"range"`
	}
	if err := decodeParams(methodInlayHint, params, &p); err != nil {
		return nil, err
	}
	hints, m, err := s.hintsOf(ctx, v, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []inlayHintJSON{}
	if m == nil {
		return out, nil
	}
	start, end := m.Offsets(p.Range)
	for _, h := range hints {
		if h.Offset < start || h.Offset > end {
			continue
		}
		hj := inlayHintJSON{Position: m.Position(h.Offset), Label: h.Label, PaddingLeft: h.PaddingLeft}
		if h.Tooltip != "" {
			m := s.markup(h.Tooltip)
			hj.Tooltip = &m
		}
		out = append(out, hj)
	}
	return out, nil
}

// codeLens shows the inlay hints as code lenses for clients that lack
// inlay hints.
func codeLens(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.CodeLensParams
	if err := decodeParams(protocol.MethodTextDocumentCodeLens, params, &p); err != nil {
		return nil, err
	}
	hints, m, err := s.hintsOf(ctx, v, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []protocol.CodeLens{}
	for _, h := range hints {
		pos := m.Position(h.Offset)
		out = append(out, protocol.CodeLens{
			Range:   protocol.Range{Start: protocol.Position{Line: pos.Line}, End: protocol.Position{Line: pos.Line}},
			Command: &protocol.Command{Title: h.Label, Command: ""},
		})
	}
	return out, nil
}

// markup is markdown for clients that show it, else the same text as
// plain text (still readable: the markdown is light).
func (s *Server) markup(md string) protocol.MarkupContent {
	s.mu.Lock()
	markdown := s.client.markdownHover
	s.mu.Unlock()
	if !markdown {
		return protocol.MarkupContent{Kind: protocol.PlainText, Value: md}
	}
	return protocol.MarkupContent{Kind: protocol.Markdown, Value: md}
}
