package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

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

// watchPatterns are the files whose changes on disk matter: manifests and
// imported YAML files, tool modules, and packages modules import.
var watchPatterns = []string{
	"**/beeuni.yaml",
	"**/*.{yaml,yml}",
	"**/*.{ts,js,mts,mjs,cts,cjs}",
	"**/node_modules/**/package.json",
	"**/.gitignore", // a package resolved only through an ignored node_modules is a finding
}

// maxScanFolders bounds the first scan of a workspace folder.
const maxScanFolders = 20000

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

// fetchSettings asks the client for the "beeuni" section.
func (s *Server) fetchSettings(ctx context.Context) {
	var result []json.RawMessage
	params := &protocol.ConfigurationParams{Items: []protocol.ConfigurationItem{{Section: "beeuni"}}}
	if err := s.call(ctx, protocol.MethodWorkspaceConfiguration, params, &result); err != nil {
		s.tracef("workspace/configuration: %v", err)
		return
	}
	if len(result) == 0 || !present(result[0]) {
		return
	}
	s.applySettings(result[0])
}

func (s *Server) applySettings(raw json.RawMessage) {
	s.mu.Lock()
	before := s.settings
	err := s.settings.merge(raw)
	after := s.settings
	s.mu.Unlock()
	if err != nil {
		s.logToClient(protocol.MessageTypeWarning, "beeuni-lsp: "+err.Error())
		return
	}
	if before != after {
		s.ws.markAllDirty()
	}
}

func (s *Server) currentSettings() Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings
}

// firstScan finds every beeuni.yaml of the workspace folders and analyses
// them, under a work-done progress when the client shows one.
func (s *Server) firstScan(ctx context.Context, ci clientInfo) {
	scanned := sync.OnceFunc(s.ws.scanDone)
	defer scanned()
	prog := s.beginProgress(ctx, ci, "Beeuni: scanning the workspace")
	v := s.currentView()
	var roots []string
	for _, folder := range ci.folders {
		roots = append(roots, scanRoots(ctx, v.fs, folder, maxScanFolders)...)
	}
	prog.report(fmt.Sprintf("%d project(s) found", len(roots)))
	for _, root := range roots {
		if s.ws.inWorkspace(root) { // not removed while the scan ran
			s.ws.addProject(root)
		}
	}
	scanned()
	if err := s.ws.waitIdle(ctx, false); err != nil {
		prog.end("cancelled")
		return
	}
	if s.currentSettings().InspectModules && prog.s != nil {
		prog.report(fmt.Sprintf("%d project(s) checked; inspecting tool modules", len(roots)))
		if err := s.ws.waitIdle(ctx, true); err != nil {
			prog.end("cancelled")
			return
		}
	}
	prog.end(fmt.Sprintf("%d project(s) checked", len(roots)))
}

// progress is one work-done progress; a zero progress reports nothing.
type progress struct {
	s     *Server
	token *protocol.ProgressToken
}

func (s *Server) beginProgress(ctx context.Context, ci clientInfo, title string) progress {
	if !ci.workDoneProgress {
		return progress{}
	}
	token := protocol.NewProgressToken("beeuni-scan")
	if err := s.call(ctx, protocol.MethodWorkDoneProgressCreate, &protocol.WorkDoneProgressCreateParams{Token: *token}, nil); err != nil {
		return progress{}
	}
	p := progress{s: s, token: token}
	p.send(&protocol.WorkDoneProgressBegin{Kind: protocol.WorkDoneProgressKindBegin, Title: title})
	return p
}

// send notifies value, a protocol.WorkDoneProgressBegin, Report or End.
// The params go by pointer: ProgressToken encodes itself through a pointer
// method, and as a value it would be written {}.
func (p progress) send(value any) {
	if p.s == nil {
		return
	}
	p.s.notify(protocol.MethodProgress, &protocol.ProgressParams{Token: *p.token, Value: value})
}

func (p progress) report(msg string) {
	p.send(&protocol.WorkDoneProgressReport{Kind: protocol.WorkDoneProgressKindReport, Message: msg})
}

func (p progress) end(msg string) {
	p.send(&protocol.WorkDoneProgressEnd{Kind: protocol.WorkDoneProgressKindEnd, Message: msg})
}

func didChangeWatchedFiles(ctx context.Context, s *Server, params json.RawMessage) error {
	var p protocol.DidChangeWatchedFilesParams
	if err := decodeParams(protocol.MethodWorkspaceDidChangeWatchedFiles, params, &p); err != nil {
		return err
	}
	byKind := map[changeKind][]string{}
	for _, c := range p.Changes {
		if c == nil {
			continue
		}
		path, err := uriToPath(c.URI)
		if err != nil {
			continue
		}
		kind := changeDisk
		switch c.Type {
		case protocol.FileChangeTypeCreated:
			kind = changeCreated
		case protocol.FileChangeTypeDeleted:
			kind = changeDeleted
		}
		// Forget before the new view exists, so that it reads afresh.
		s.disk.forget(path)
		byKind[kind] = append(byKind[kind], path)
	}
	s.bumpView()
	for _, kind := range []changeKind{changeCreated, changeDisk, changeDeleted} {
		if len(byKind[kind]) > 0 {
			s.ws.changed(byKind[kind], kind)
		}
	}
	return nil
}

func didChangeConfiguration(ctx context.Context, s *Server, params json.RawMessage) error {
	var p didChangeConfigurationParams
	if err := decodeParams(protocol.MethodWorkspaceDidChangeConfiguration, params, &p); err != nil {
		return err
	}
	s.mu.Lock()
	pull := s.client.configuration
	s.mu.Unlock()
	if pull {
		// The settings in the notification may be partial or absent: ask.
		s.goBackground("configuration", s.fetchSettings)
		return nil
	}
	if present(p.Settings) {
		s.applySettings(p.Settings)
	}
	return nil
}

func didChangeWorkspaceFolders(ctx context.Context, s *Server, params json.RawMessage) error {
	var p protocol.DidChangeWorkspaceFoldersParams
	if err := decodeParams(protocol.MethodWorkspaceDidChangeWorkspaceFolders, params, &p); err != nil {
		return err
	}
	var added []string
	for _, f := range p.Event.Added {
		if path, err := uriToPath(protocol.DocumentURI(f.URI)); err == nil {
			added = append(added, path)
		}
	}
	var removed []string
	for _, f := range p.Event.Removed {
		if path, err := uriToPath(protocol.DocumentURI(f.URI)); err == nil {
			removed = append(removed, path)
		}
	}
	s.ws.changeFolders(added, removed)
	s.ws.dropOutside(s.currentView())
	if len(added) > 0 {
		s.ws.scanStarted()
		s.goBackground("scan added folders", func(ctx context.Context) {
			s.mu.Lock()
			ci := s.client
			s.mu.Unlock()
			ci.folders = added
			s.firstScan(ctx, ci)
		})
	}
	return nil
}
