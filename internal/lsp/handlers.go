package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
)

// registerHandlers fills the method tables.
func registerHandlers(s *Server) {
	s.notifies[protocol.MethodInitialized] = initialized
	s.notifies[protocol.MethodTextDocumentDidOpen] = didOpen
	s.notifies[protocol.MethodTextDocumentDidChange] = didChange
	s.notifies[protocol.MethodTextDocumentDidClose] = didClose
	s.notifies[protocol.MethodTextDocumentDidSave] = didSave
}

// addFeatureCapabilities declares the features the server answers.
func addFeatureCapabilities(caps *serverCapabilities, ci clientInfo) {}

func initialized(ctx context.Context, s *Server, params json.RawMessage) error {
	s.mu.Lock()
	s.state = stateRunning
	s.mu.Unlock()
	return nil
}
