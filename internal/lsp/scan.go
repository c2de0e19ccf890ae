package lsp

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// scanRoots returns every folder under dir holding beeuni.yaml, skipping
// dependencies, hidden folders and symbolic links, at most limit folders
// visited.
func scanRoots(ctx context.Context, fsys vfs.FS, dir string, limit int) []string {
	var roots []string
	queue := []string{dir}
	for visited := 0; len(queue) > 0 && visited < limit; visited++ {
		if ctx.Err() != nil {
			break
		}
		cur := queue[0]
		queue = queue[1:]
		entries, err := fsys.ReadDir(cur)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			switch {
			case e.Type()&fs.ModeSymlink != 0:
			case e.IsDir():
				if name == "node_modules" || strings.HasPrefix(name, ".") {
					continue
				}
				queue = append(queue, filepath.Join(cur, name))
			case name == analysis.ManifestName:
				roots = append(roots, cur)
			}
		}
	}
	return roots
}

// skippedByScan reports whether a path lies in a folder the workspace scan
// skips (dependencies and hidden folders): a manifest there is no project
// of the workspace unless the user opens it.
func skippedByScan(path string) bool {
	for _, part := range strings.Split(filepath.ToSlash(filepath.Dir(path)), "/") {
		if part == "node_modules" || strings.HasPrefix(part, ".") && part != "." && part != ".." {
			return true
		}
	}
	return false
}

// maxScanFolders bounds the first scan of a workspace folder.
const maxScanFolders = 20000

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
	// One token per progress: scans of folders added one after another
	// run at once, and a client refuses a token that is in use.
	token := protocol.NewProgressToken(fmt.Sprintf("beeuni-scan-%d", s.progressTokens.Add(1)))
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
