package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/features"
)

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
	repo := &lazyRepo{ctx: ctx, w: s.ws, v: v, p: a.p}
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

// lazyRepo scans the project's files only when the completion offers
// files: the first completion of a fresh server in an agent's list does not
// wait for a scan of a 10,000-module repository.
type lazyRepo struct {
	ctx context.Context
	w   *workspace
	v   *view
	p   *project
}

func (l *lazyRepo) Files() *features.RepoFiles { return l.w.repoFiles(l.ctx, l.v, l.p) }

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
