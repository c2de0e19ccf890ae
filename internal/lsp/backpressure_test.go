package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// throttle is the client's end of a pipe as a reader that reads only what
// the test allows: nothing (an editor whose UI thread stalls), a few KB
// at a time (a slow one), or everything (allowance < 0).
type throttle struct {
	r         io.Reader
	mu        sync.Mutex
	cond      *sync.Cond
	allowance int
}

func newThrottle(r io.Reader, allowance int) *throttle {
	th := &throttle{r: r, allowance: allowance}
	th.cond = sync.NewCond(&th.mu)
	return th
}

// allow sets how many more bytes the client may read (< 0: any).
func (th *throttle) allow(n int) {
	th.mu.Lock()
	th.allowance = n
	th.cond.Broadcast()
	th.mu.Unlock()
}

func (th *throttle) Read(p []byte) (int, error) {
	th.mu.Lock()
	for th.allowance == 0 {
		th.cond.Wait()
	}
	if th.allowance > 0 && len(p) > th.allowance {
		p = p[:th.allowance]
	}
	th.mu.Unlock()
	n, err := th.r.Read(p)
	th.mu.Lock()
	if th.allowance > 0 {
		th.allowance -= n
	}
	th.mu.Unlock()
	return n, err
}

// throttledSession is startSession with the output budget given and the
// client reading through a throttle (reading everything at first).
func throttledSession(t *testing.T, fsys vfs.FS, budget int) (*session, *throttle) {
	t.Helper()
	serverEnd, clientEnd := net.Pipe()
	srv := New(Options{FS: fsys, Log: testLog{t}, extraRequests: idleHook(), outputBudget: budget})
	done := make(chan int, 2)
	go func() { done <- srv.Run(context.Background(), serverEnd) }()
	r := newThrottle(clientEnd, -1)
	s := &session{client: newClient(t, r, clientEnd), srv: srv, done: done, conn: clientEnd}
	t.Cleanup(func() {
		r.allow(-1)
		clientEnd.Close()
		<-done
	})
	return s, r
}

// backpressureManifest has a T1 finding on each of its tools.
func backpressureManifest(tools int, comment string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\ntools:\n", comment)
	for i := range tools {
		fmt.Fprintf(&b, "  Tool%04d: tools/present.ts\n", i)
	}
	return b.String()
}

// TestOutputQueueBoundedWhileTheClientDoesNotRead types thousands of
// keystrokes, round the manifests of many projects (each with a finding
// per tool), while the client reads nothing, or reads 2 KB per keystroke:
// the bytes queued for it stay within the output budget plus one publish
// and the answers (they grew by a publish per keystroke: 17 → 278 MB in
// 12 s in the measurement, a 600-tool manifest). The budget is
// lowered to 256 KB so that a small workspace reaches it: one publish
// per file still waiting makes about 360 KB. Every request sent meanwhile is
// answered once the client reads again, and each file's last diagnostics
// are the engine's findings for its final text, at its final version; no
// file is published an older version after a newer one.
func TestOutputQueueBoundedWhileTheClientDoesNotRead(t *testing.T) {
	const (
		budget     = 256 << 10
		projects   = 24
		tools      = 40
		keystrokes = 2000
		answers    = 16 << 10 // the hovers' answers: never held back
	)
	cases := []struct {
		name         string
		perKeystroke int // bytes the client reads per keystroke
	}{
		{"a client that does not read", 0},
		{"a client that reads 2 KB per keystroke", 2 << 10},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fsys := vfs.NewMem()
			manifests := make([]string, projects)
			texts := make([]string, projects)
			for p := range projects {
				root := fmt.Sprintf("/ws/p%02d", p)
				manifests[p] = root + "/beeuni.yaml"
				texts[p] = backpressureManifest(tools, "notes")
				fsys.WriteFile(manifests[p], []byte(texts[p]))
				fsys.WriteFile(root+"/tools/present.ts", []byte("export default {}\n"))
			}
			s, th := throttledSession(t, fsys, budget)
			s.initialize(initParams(map[string]any{
				"rootUri":               string(pathToURI("/ws")),
				"initializationOptions": map[string]any{"inspectModules": false},
				"capabilities":          map[string]any{"textDocument": map[string]any{"publishDiagnostics": map[string]any{"versionSupport": true}}},
			}))
			for p := range projects {
				s.open(manifests[p], texts[p])
			}
			s.idle()
			frame := 0 // the largest publish frame so far
			for _, n := range s.notesSnapshot() {
				frame = max(frame, len(n.Params)+200)
			}
			th.allow(tc.perKeystroke)

			pb := s.srv.ws.pub
			analysed := func(path string, version int32) bool {
				pb.mu.Lock()
				defer pb.mu.Unlock()
				st := pb.files[path]
				if st == nil {
					return false
				}
				set := st.sets[setKey{root: pathDir(path), src: sourceYAML}]
				return set != nil && set.version >= version
			}
			versions := make([]int32, projects)
			for p := range versions {
				versions[p] = 1
			}
			var requests []string
			peak := 0
			for i := range keystrokes {
				p := i % projects
				versions[p]++
				texts[p] = "# x" + texts[p][2:]
				s.notify("textDocument/didChange", map[string]any{
					"textDocument": map[string]any{"uri": string(pathToURI(manifests[p])), "version": versions[p]},
					"contentChanges": []map[string]any{{
						"range": map[string]any{"start": map[string]any{"line": 0, "character": 2}, "end": map[string]any{"line": 0, "character": 2}},
						"text":  "x",
					}},
				})
				if i%100 == 0 {
					requests = append(requests, s.start("textDocument/hover", map[string]any{
						"textDocument": map[string]any{"uri": string(pathToURI(manifests[p]))},
						"position":     map[string]any{"line": 2, "character": 4},
					}))
				}
				for deadline := time.Now().Add(30 * time.Second); !analysed(manifests[p], versions[p]); {
					if time.Now().After(deadline) {
						t.Fatalf("keystroke %d: version %d of %s not analysed", i, versions[p], manifests[p])
					}
					runtime.Gosched()
					time.Sleep(50 * time.Microsecond)
				}
				peak = max(peak, s.srv.out.queuedBytes())
				if tc.perKeystroke > 0 {
					th.allow(tc.perKeystroke)
				}
			}
			if bound := budget + frame + answers; peak > bound {
				t.Errorf("%d bytes queued for the client at the peak, want at most the budget, one publish and the answers: %d", peak, bound)
			}
			t.Logf("%d keystrokes, %d-byte publishes: at most %d bytes queued", keystrokes, frame, peak)

			th.allow(-1)
			for _, id := range requests {
				if m := s.answer(id); m.Error != nil {
					t.Errorf("request %s: error %d %s", id, m.Error.Code, m.Error.Message)
				}
			}
			final := vfs.NewOverlay(fsys)
			for p := range projects {
				final.Set(manifests[p], []byte(texts[p]))
			}
			want := map[protocol.DocumentURI]string{}
			for p := range projects {
				proj, err := analysis.Load(context.Background(), final, pathDir(manifests[p]))
				if err != nil {
					t.Fatal(err)
				}
				want[pathToURI(manifests[p])] = engineDiagnostics(proj, manifests[p], versions[p])
			}
			eventually(t, "every file shows its final diagnostics", func() bool {
				got := lastPublished(t, s)
				for uri, w := range want {
					if got[uri] != w {
						return false
					}
				}
				return true
			})
			checkVersionsNeverGoBack(t, s)
		})
	}
}

// pathDir is the folder of a slash path.
func pathDir(path string) string { return path[:strings.LastIndexByte(path, '/')] }

// engineDiagnostics is what the last publish of path must say: version
// and findings (ASCII text: UTF-16 columns are byte columns).
func engineDiagnostics(p *analysis.Project, path string, version int32) string {
	var out []string
	for _, f := range p.Findings {
		if f.File == path {
			out = append(out, fmt.Sprintf("%d:%d-%d:%d %s %s", f.Range.Start.Line, f.Range.Start.Col, f.Range.End.Line, f.Range.End.Col, f.Code, f.Message))
		}
	}
	slices.Sort(out)
	return fmt.Sprintf("v%d %d findings: %s", version, len(out), strings.Join(out, " | "))
}

// lastPublished is each URI's last publish in engineDiagnostics' form.
func lastPublished(t *testing.T, s *session) map[protocol.DocumentURI]string {
	t.Helper()
	out := map[protocol.DocumentURI]string{}
	notes := s.notesSnapshot()
	for i := len(notes) - 1; i >= 0; i-- {
		if notes[i].Method != protocol.MethodTextDocumentPublishDiagnostics {
			continue
		}
		var p protocol.PublishDiagnosticsParams
		if err := json.Unmarshal(notes[i].Params, &p); err != nil {
			t.Fatal(err)
		}
		if _, later := out[p.URI]; later {
			continue
		}
		var ds []string
		for _, d := range p.Diagnostics {
			ds = append(ds, fmt.Sprintf("%d:%d-%d:%d %v %s", d.Range.Start.Line, d.Range.Start.Character, d.Range.End.Line, d.Range.End.Character, d.Code, d.Message))
		}
		slices.Sort(ds)
		out[p.URI] = fmt.Sprintf("v%d %d findings: %s", p.Version, len(ds), strings.Join(ds, " | "))
	}
	return out
}

// checkVersionsNeverGoBack: no file is published an older version after
// a newer one.
func checkVersionsNeverGoBack(t *testing.T, s *session) {
	t.Helper()
	last := map[protocol.DocumentURI]uint32{}
	for _, n := range s.notesSnapshot() {
		if n.Method != protocol.MethodTextDocumentPublishDiagnostics {
			continue
		}
		var p protocol.PublishDiagnosticsParams
		if err := json.Unmarshal(n.Params, &p); err != nil {
			t.Fatal(err)
		}
		if p.Version < last[p.URI] {
			t.Errorf("%s: version %d published after version %d", p.URI, p.Version, last[p.URI])
		}
		last[p.URI] = p.Version
	}
}
