package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/version"
)

// clientInfo is what the server needs of the client's capabilities. It is
// decoded from the initialize params (initializeParams).
type clientInfo struct {
	encoding            Encoding
	configuration       bool // workspace/configuration
	watchDynamic        bool // dynamic registration of didChangeWatchedFiles
	applyEdit           bool
	documentChanges     bool
	resourceOps         []string // create, rename, delete
	workDoneProgress    bool
	showDocument        bool
	inlayHints          bool
	codeLens            bool
	diagnosticVersions  bool
	relatedInformation  bool
	markdownHover       bool
	definitionLinks     bool
	hierarchicalSymbols bool
	codeActionLiterals  bool
	// codeActionResolveEdit: the client asks for a code action's edit with
	// codeAction/resolve when the user picks it.
	codeActionResolveEdit bool
	snippets              bool
	folders               []string // workspace folders (absolute paths)
}

func present(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// parseClientInfo reads the capabilities and workspace folders. The
// encoding is UTF-8 when the client offers it, else UTF-16.
func parseClientInfo(p *initializeParams) clientInfo {
	ci := clientInfo{encoding: UTF16}
	caps := p.Capabilities
	if caps.General != nil && slices.Contains(caps.General.PositionEncodings, string(UTF8)) {
		ci.encoding = UTF8
	}
	if w := caps.Workspace; w != nil {
		ci.applyEdit = w.ApplyEdit
		ci.configuration = w.Configuration
		if w.WorkspaceEdit != nil {
			ci.documentChanges = w.WorkspaceEdit.DocumentChanges
			ci.resourceOps = w.WorkspaceEdit.ResourceOperations
		}
		if w.DidChangeWatchedFiles != nil {
			ci.watchDynamic = w.DidChangeWatchedFiles.DynamicRegistration
		}
	}
	if td := caps.TextDocument; td != nil {
		ci.inlayHints = td.InlayHint != nil
		ci.codeLens = td.CodeLens != nil
		if td.PublishDiagnostics != nil {
			ci.diagnosticVersions = td.PublishDiagnostics.VersionSupport
			ci.relatedInformation = td.PublishDiagnostics.RelatedInformation
		}
		if td.Hover != nil {
			ci.markdownHover = len(td.Hover.ContentFormat) == 0 || slices.Contains(td.Hover.ContentFormat, protocol.Markdown)
		}
		if td.Definition != nil {
			ci.definitionLinks = td.Definition.LinkSupport
		}
		if td.DocumentSymbol != nil {
			ci.hierarchicalSymbols = td.DocumentSymbol.HierarchicalDocumentSymbolSupport
		}
		if td.CodeAction != nil {
			ci.codeActionLiterals = td.CodeAction.CodeActionLiteralSupport != nil
			if rs := td.CodeAction.ResolveSupport; rs != nil {
				ci.codeActionResolveEdit = slices.Contains(rs.Properties, "edit")
			}
		}
		if td.Completion != nil && td.Completion.CompletionItem != nil {
			ci.snippets = td.Completion.CompletionItem.SnippetSupport
		}
	} else {
		ci.markdownHover = true
	}
	if w := caps.Window; w != nil {
		ci.workDoneProgress = w.WorkDoneProgress
		ci.showDocument = w.ShowDocument != nil && w.ShowDocument.Support
	}
	for _, f := range p.WorkspaceFolders {
		if path, err := uriToPath(protocol.DocumentURI(f.URI)); err == nil {
			ci.folders = append(ci.folders, path)
		}
	}
	if len(ci.folders) == 0 {
		switch {
		case p.RootURI != "":
			if path, err := uriToPath(protocol.DocumentURI(p.RootURI)); err == nil {
				ci.folders = append(ci.folders, path)
			}
		case p.RootPath != "" && filepath.IsAbs(p.RootPath):
			ci.folders = append(ci.folders, filepath.Clean(p.RootPath))
		}
	}
	return ci
}

// supportsResourceOps reports whether the client applies file creations
// (and deletions when del) inside a workspace edit.
func (ci clientInfo) supportsResourceOps(del bool) bool {
	if !ci.documentChanges || !slices.Contains(ci.resourceOps, "create") {
		return false
	}
	return !del || slices.Contains(ci.resourceOps, "delete")
}

func (s *Server) initialize(ctx context.Context, params json.RawMessage) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != stateNew {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize: the server is already initialized")
	}
	var p initializeParams
	if err := decodeParams(protocol.MethodInitialize, params, &p); err != nil {
		return nil, err
	}
	s.client = parseClientInfo(&p)
	if present(p.InitializationOptions) {
		if err := s.settings.merge(p.InitializationOptions); err != nil {
			s.tracef("initializationOptions: %v", err)
		}
	}
	s.state = stateInitializing
	caps := protocol.ServerCapabilities{
		TextDocumentSync: &protocol.TextDocumentSyncOptions{
			OpenClose: true,
			Change:    protocol.TextDocumentSyncKindIncremental,
			Save:      &protocol.SaveOptions{},
		},
		Workspace: &protocol.ServerCapabilitiesWorkspace{
			WorkspaceFolders: &protocol.ServerCapabilitiesWorkspaceFolders{
				Supported:           true,
				ChangeNotifications: true,
			},
		},
		ExecuteCommandProvider: &protocol.ExecuteCommandOptions{
			Commands: []string{CommandEject, CommandSessionTools, CommandEjectableTools, CommandApplyChange, CommandShowDocument, CommandAgentTools},
		},
	}
	result := &initializeResult{
		Capabilities: serverCapabilities{ServerCapabilities: caps, PositionEncoding: s.client.encoding},
		ServerInfo:   &protocol.ServerInfo{Name: "beeuni-lsp", Version: version.String()},
	}
	addFeatureCapabilities(&result.Capabilities, s.client)
	return result, nil
}
