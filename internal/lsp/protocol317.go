package lsp

// The LSP 3.17 wire types go.lsp.dev/protocol v0.12.0 lacks or cannot
// express, in one place. v0.12.0 follows LSP 3.16 (and declares a few 3.16
// shapes too narrowly); everything it has right is used from it. Each type
// names the structure of the specification it mirrors
// (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/);
// a type the server only reads holds only the fields it reads. They are
// checked against messages captured from Neovim and built from VS Code's
// client (testdata/clientmessages, protocol317_test.go).

import (
	"encoding/json"

	"go.lsp.dev/protocol"
)

// Methods v0.12.0 does not name.
const (
	methodInlayHint         = "textDocument/inlayHint" // 3.17
	methodCodeActionResolve = "codeAction/resolve"     // 3.16
	methodShowDocument      = "window/showDocument"    // 3.16
)

// initializeParams mirrors InitializeParams, the fields the server reads.
// protocol.InitializeParams would decode every capability, and v0.12.0
// declares some 3.17 ones narrower than clients send them
// (semanticTokens.requests.range is a boolean there, `boolean | {}` in
// 3.17): a client's capability the server ignores must never fail
// initialize.
type initializeParams struct {
	ProcessID             *int32                     `json:"processId"`
	RootURI               string                     `json:"rootUri"`
	RootPath              string                     `json:"rootPath"`
	InitializationOptions json.RawMessage            `json:"initializationOptions"`
	WorkspaceFolders      []protocol.WorkspaceFolder `json:"workspaceFolders"`
	Capabilities          clientCapabilities         `json:"capabilities"`
}

// clientCapabilities mirrors ClientCapabilities, the parts the server
// reads.
type clientCapabilities struct {
	General      *generalClientCapabilities         `json:"general"`
	Workspace    *workspaceClientCapabilities       `json:"workspace"`
	TextDocument *textDocumentClientCapabilities    `json:"textDocument"`
	Window       *protocol.WindowClientCapabilities `json:"window"`
}

// generalClientCapabilities mirrors GeneralClientCapabilities: v0.12.0
// lacks positionEncodings (3.17).
type generalClientCapabilities struct {
	PositionEncodings []string `json:"positionEncodings"`
}

// workspaceClientCapabilities mirrors WorkspaceClientCapabilities, the
// fields the server reads.
type workspaceClientCapabilities struct {
	ApplyEdit             bool                                                       `json:"applyEdit"`
	WorkspaceEdit         *protocol.WorkspaceClientCapabilitiesWorkspaceEdit         `json:"workspaceEdit"`
	DidChangeWatchedFiles *protocol.DidChangeWatchedFilesWorkspaceClientCapabilities `json:"didChangeWatchedFiles"`
	Configuration         bool                                                       `json:"configuration"`
}

// textDocumentClientCapabilities mirrors TextDocumentClientCapabilities,
// the fields the server reads; v0.12.0 lacks inlayHint (3.17).
type textDocumentClientCapabilities struct {
	InlayHint          *inlayHintClientCapabilities                       `json:"inlayHint"`
	CodeLens           *protocol.CodeLensClientCapabilities               `json:"codeLens"`
	PublishDiagnostics *protocol.PublishDiagnosticsClientCapabilities     `json:"publishDiagnostics"`
	Hover              *protocol.HoverTextDocumentClientCapabilities      `json:"hover"`
	Definition         *protocol.DefinitionTextDocumentClientCapabilities `json:"definition"`
	DocumentSymbol     *protocol.DocumentSymbolClientCapabilities         `json:"documentSymbol"`
	CodeAction         *protocol.CodeActionClientCapabilities             `json:"codeAction"`
	Completion         *protocol.CompletionTextDocumentClientCapabilities `json:"completion"`
}

// inlayHintClientCapabilities mirrors InlayHintClientCapabilities (3.17);
// its presence is what the server reads.
type inlayHintClientCapabilities struct {
	DynamicRegistration bool `json:"dynamicRegistration,omitempty"`
}

// serverCapabilities mirrors ServerCapabilities: v0.12.0's type plus
// positionEncoding and inlayHintProvider (3.17).
type serverCapabilities struct {
	protocol.ServerCapabilities
	PositionEncoding  Encoding `json:"positionEncoding"`
	InlayHintProvider bool     `json:"inlayHintProvider,omitempty"`
}

// codeActionOptions mirrors CodeActionOptions: v0.12.0 lacks
// resolveProvider (3.16).
type codeActionOptions struct {
	CodeActionKinds []protocol.CodeActionKind `json:"codeActionKinds"`
	ResolveProvider bool                      `json:"resolveProvider,omitempty"`
}

// initializeResult mirrors InitializeResult with serverCapabilities.
type initializeResult struct {
	Capabilities serverCapabilities   `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

// didChangeTextDocumentParams mirrors DidChangeTextDocumentParams with
// contentChange.
type didChangeTextDocumentParams struct {
	TextDocument protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	Changes      []contentChange                          `json:"contentChanges"`
}

// contentChange mirrors TextDocumentContentChangeEvent. v0.12.0 declares
// its range as a value, which cannot tell a full replacement (no range)
// from an insertion at 0:0; a nil Range here is a full replacement.
type contentChange struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

// didChangeConfigurationParams mirrors DidChangeConfigurationParams with
// the settings kept raw (v0.12.0 decodes them into an interface{}; the
// server merges the JSON into its settings).
type didChangeConfigurationParams struct {
	Settings json.RawMessage `json:"settings"`
}

// executeCommandParams mirrors ExecuteCommandParams with the arguments
// kept raw (each command decodes its own).
type executeCommandParams struct {
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments"`
}

// cancelParams mirrors CancelParams with the id kept raw: the server
// finds the request by the id's JSON.
type cancelParams struct {
	ID json.RawMessage `json:"id"`
}

// workspaceEditJSON mirrors WorkspaceEdit. v0.12.0's documentChanges holds
// only TextDocumentEdits; here it holds protocol.TextDocumentEdit,
// protocol.CreateFile and protocol.DeleteFile values in order.
type workspaceEditJSON struct {
	Changes         map[protocol.DocumentURI][]protocol.TextEdit `json:"changes,omitempty"`
	DocumentChanges []any                                        `json:"documentChanges,omitempty"`
}

// applyWorkspaceEditParams mirrors ApplyWorkspaceEditParams with
// workspaceEditJSON.
type applyWorkspaceEditParams struct {
	Label string             `json:"label"`
	Edit  *workspaceEditJSON `json:"edit"`
}

// codeActionJSON mirrors CodeAction with workspaceEditJSON and the server's own
// data: on an action whose edit is left to codeAction/resolve, where it
// was offered and which it is.
type codeActionJSON struct {
	Title       string                      `json:"title"`
	Kind        string                      `json:"kind,omitempty"`
	Diagnostics []protocol.Diagnostic       `json:"diagnostics,omitempty"`
	IsPreferred bool                        `json:"isPreferred,omitempty"`
	Disabled    *protocol.CodeActionDisable `json:"disabled,omitempty"`
	Edit        *workspaceEditJSON          `json:"edit,omitempty"`
	Command     *protocol.Command           `json:"command,omitempty"`
	Data        *applyChangeArgs            `json:"data,omitempty"`
}

// inlayHintParams mirrors InlayHintParams (3.17).
type inlayHintParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                  `json:"range"`
}

// inlayHintJSON mirrors InlayHint (3.17), with a label that is a string.
type inlayHintJSON struct {
	Position     protocol.Position       `json:"position"`
	Label        string                  `json:"label"`
	Tooltip      *protocol.MarkupContent `json:"tooltip,omitempty"`
	PaddingLeft  bool                    `json:"paddingLeft,omitempty"`
	PaddingRight bool                    `json:"paddingRight,omitempty"`
}

// prepareRenameResult mirrors PrepareRenameResult in its
// `{ range, placeholder }` form (v0.12.0 answers a Range only).
type prepareRenameResult struct {
	Range       protocol.Range `json:"range"`
	Placeholder string         `json:"placeholder"`
}
