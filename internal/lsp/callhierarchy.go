package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/features"
)

// The call hierarchy: agents call the tools they get
// (internal/features/callhierarchy.go). An item carries its kind and name
// in data; incoming and outgoing calls find it again by name in the
// snapshot of the request's view, so an item the user kept open across
// edits follows the project as it is now.

// callItemData is a call hierarchy item's data.
type callItemData struct {
	Kind string `json:"beeuniKind"` // "agent" or "tool"
	Name string `json:"name"`
}

func prepareCallHierarchy(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.CallHierarchyPrepareParams
	if err := decodeParams(protocol.MethodTextDocumentPrepareCallHierarchy, params, &p); err != nil {
		return nil, err
	}
	a, err := s.locate(ctx, v, p.TextDocument.URI, &p.Position)
	if err != nil || a.p == nil {
		return nil, err
	}
	proj := a.fallback
	items := features.PrepareCallHierarchy(proj, a.snap.Modules(), a.path, s.offsetIn(v, a, proj))
	if len(items) == 0 {
		return nil, nil
	}
	out := make([]protocol.CallHierarchyItem, 0, len(items))
	for _, it := range items {
		out = append(out, s.callItem(v, a, proj, it))
	}
	return out, nil
}

func incomingCalls(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.CallHierarchyIncomingCallsParams
	if err := decodeParams(protocol.MethodCallHierarchyIncomingCalls, params, &p); err != nil {
		return nil, err
	}
	a, proj, item, err := s.callItemOf(ctx, v, p.Item)
	if err != nil || a == nil {
		return nil, err
	}
	out := []protocol.CallHierarchyIncomingCall{}
	for _, c := range features.IncomingCalls(proj, item) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out = append(out, protocol.CallHierarchyIncomingCall{From: s.callItem(v, a, proj, c.Item), FromRanges: s.rangesIn(v, a, proj, c.FromFile, c.FromRanges)})
	}
	return out, nil
}

func outgoingCalls(ctx context.Context, s *Server, v *view, params json.RawMessage) (any, error) {
	var p protocol.CallHierarchyOutgoingCallsParams
	if err := decodeParams(protocol.MethodCallHierarchyOutgoingCalls, params, &p); err != nil {
		return nil, err
	}
	a, proj, item, err := s.callItemOf(ctx, v, p.Item)
	if err != nil || a == nil {
		return nil, err
	}
	out := []protocol.CallHierarchyOutgoingCall{}
	for _, c := range features.OutgoingCalls(proj, item) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out = append(out, protocol.CallHierarchyOutgoingCall{To: s.callItem(v, a, proj, c.Item), FromRanges: s.rangesIn(v, a, proj, c.FromFile, c.FromRanges)})
	}
	return out, nil
}

// callItemOf finds a client's item again: its project by its URI, the
// agent or tool by the name in its data. An item of another server, or of
// a file no project holds, has no calls (nil, nil).
func (s *Server) callItemOf(ctx context.Context, v *view, it protocol.CallHierarchyItem) (*at, *analysis.Project, features.CallItem, error) {
	var d callItemData
	raw, err := json.Marshal(it.Data)
	if err != nil || json.Unmarshal(raw, &d) != nil || d.Name == "" || d.Kind != "agent" && d.Kind != "tool" {
		return nil, nil, features.CallItem{}, nil
	}
	a, err := s.locate(ctx, v, it.URI, nil)
	if err != nil || a.p == nil {
		return nil, nil, features.CallItem{}, err
	}
	item := features.CallItem{Kind: features.CallTool, Name: d.Name}
	if d.Kind == "agent" {
		item.Kind = features.CallAgent
	}
	return a, a.fallback, item, nil
}

// callItem converts an item for the client.
func (s *Server) callItem(v *view, a *at, proj *analysis.Project, it features.CallItem) protocol.CallHierarchyItem {
	kind, data := protocol.SymbolKindFunction, callItemData{Kind: "tool", Name: it.Name}
	if it.Kind == features.CallAgent {
		kind, data = protocol.SymbolKindClass, callItemData{Kind: "agent", Name: it.Name}
	}
	rs := s.rangesIn(v, a, proj, it.File, []diag.Range{it.Range, it.Selection})
	return protocol.CallHierarchyItem{Name: it.Name, Kind: kind, Detail: it.Detail, URI: pathToURI(it.File), Range: rs[0], SelectionRange: rs[1], Data: data}
}

// rangesIn converts ranges of proj's copy of file into the editor's
// positions (the request's file as the editor has it).
func (s *Server) rangesIn(v *view, a *at, proj *analysis.Project, file string, rs []diag.Range) []protocol.Range {
	out := make([]protocol.Range, len(rs))
	if file == a.path {
		for i, r := range rs {
			out[i] = s.rangeBack(v, a, proj, r.Start.Offset, r.End.Offset)
		}
		return out
	}
	m := s.mapperIn(v, proj, file)
	for i, r := range rs {
		out[i] = m.Range(r.Start.Offset, r.End.Offset)
	}
	return out
}
