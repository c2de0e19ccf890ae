package lsp

import (
	"fmt"

	"go.lsp.dev/protocol"
)

// registerHandlers fills the method tables.
func registerHandlers(s *Server) {
	s.notifies[protocol.MethodInitialized] = initialized
	s.notifies[protocol.MethodTextDocumentDidOpen] = didOpen
	s.notifies[protocol.MethodTextDocumentDidChange] = didChange
	s.notifies[protocol.MethodTextDocumentDidClose] = didClose
	s.notifies[protocol.MethodTextDocumentDidSave] = didSave
	s.notifies[protocol.MethodWorkspaceDidChangeWatchedFiles] = didChangeWatchedFiles
	s.notifies[protocol.MethodWorkspaceDidChangeConfiguration] = didChangeConfiguration
	s.notifies[protocol.MethodWorkspaceDidChangeWorkspaceFolders] = didChangeWorkspaceFolders
	s.register(methodDebugMemory, backgroundWork, debugMemory) // debug.go: the benchmark's heap probe
	registerFeatures(s)
}

// register routes a request method to its handler, with whether a user
// waits for its answer (workClass): every request says so where it is
// registered, and the interactive gate (Server.handle) reads it here.
func (s *Server) register(method string, class workClass, h requestHandler) {
	if class != interactiveWork && class != backgroundWork {
		panic(fmt.Sprintf("request %s registered without a work class", method))
	}
	s.requests[method] = requestRoute{handler: h, class: class}
}
