package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// The workspace folders decide which projects live: a project is kept
// while its root lies in a workspace folder or one of its files is open.
// A client that names no folder at all (a file opened on its own) keeps
// every project it opens.

// setFolders records the workspace folders of initialize.
func (w *workspace) setFolders(folders []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.folders = append([]string(nil), folders...)
	w.foldersSet = w.foldersSet || len(folders) > 0
}

// changeFolders applies a didChangeWorkspaceFolders event.
func (w *workspace) changeFolders(added, removed []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.foldersSet = true
	w.folders = slices.DeleteFunc(w.folders, func(f string) bool { return slices.Contains(removed, f) })
	for _, f := range added {
		if !slices.Contains(w.folders, f) {
			w.folders = append(w.folders, f)
		}
	}
}

// inWorkspace reports whether root lies in a workspace folder (always, for
// a client that named none).
func (w *workspace) inWorkspace(root string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.foldersSet {
		return true
	}
	root = filepath.Clean(root)
	for _, f := range w.folders {
		if vfs.Within(f, root) {
			return true
		}
	}
	return false
}

// dropOutside removes every project outside the workspace folders none of
// whose files is open in v, clearing what it published.
func (w *workspace) dropOutside(v *view) {
	for _, p := range w.allProjects() {
		if w.inWorkspace(p.root) {
			continue
		}
		open := false
		for path := range v.docs {
			if w.owns(p, path) {
				open = true
				break
			}
		}
		if !open {
			w.removeProject(p.root)
		}
	}
}

// isLive reports whether root is a registered project: the publisher
// publishes nothing for a project removed while its analysis ran.
func (w *workspace) isLive(root string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.projects[root] != nil
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
