package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
)

// The initialized notification: what the server sets up once the client
// is ready (file watchers, settings, the first scan).

func initialized(ctx context.Context, s *Server, params json.RawMessage) error {
	s.mu.Lock()
	if s.state == stateRunning {
		s.mu.Unlock()
		return nil // a second initialized: nothing more to set up
	}
	s.state = stateRunning
	ci := s.client
	s.mu.Unlock()
	s.ws.setFolders(ci.folders)
	// Calls to the client wait for answers read on this goroutine: run
	// them on another.
	s.ws.scanStarted()
	s.goBackground("initialized", func(ctx context.Context) {
		if ci.watchDynamic {
			s.registerWatchers(ctx)
		}
		if ci.configuration {
			s.fetchSettings(ctx)
		}
		s.firstScan(ctx, ci)
	})
	return nil
}

// watchPatterns are the files whose changes on disk matter: manifests and
// imported YAML files, tool modules, and packages modules import.
var watchPatterns = []string{
	"**/beeuni.yaml",
	"**/*.{yaml,yml}",
	"**/*.{ts,js,mts,mjs,cts,cjs}",
	"**/node_modules/**/package.json",
	"**/.gitignore", // a package resolved only through an ignored node_modules is a finding
}

func (s *Server) registerWatchers(ctx context.Context) {
	var watchers []protocol.FileSystemWatcher
	for _, p := range watchPatterns {
		watchers = append(watchers, protocol.FileSystemWatcher{GlobPattern: p})
	}
	params := &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID:              "beeuni-watch",
		Method:          protocol.MethodWorkspaceDidChangeWatchedFiles,
		RegisterOptions: &protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: watchers},
	}}}
	if err := s.call(ctx, protocol.MethodClientRegisterCapability, params, nil); err != nil {
		s.tracef("file watchers not registered: %v", err)
		return
	}
	// The client now tells of every change: the server may remember what
	// it read from disk. Projects loaded before read through; load them
	// again so that what they read is remembered from now on.
	s.disk.enable()
	s.bumpView()
	s.ws.markAllDirty()
}
