package lsp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// Once the server is stopping (exit, the input's end), a publish that
// starts or is under way sends nothing more: exit does not wait for a
// file of 100,000s of findings to be converted (docs/guarantees.md, "Exit
// stops the analysis").
func TestPublishStopsWhenTheServerStops(t *testing.T) {
	var b strings.Builder
	b.WriteString("tools:\n")
	for i := range 200 {
		fmt.Fprintf(&b, "  t%d: beeuni:web_serch\n", i)
	}
	text := b.String()
	s := editorSession(t, vfs.MemFromTxtar("/ws", []byte("-- beeuni.yaml --\n"+text)), UTF16, "/ws")
	s.open("/ws/beeuni.yaml", text)
	s.idle()
	snap := s.srv.ws.eng.Latest("/ws")
	if snap == nil || len(snap.Project.Findings) < 100 {
		t.Fatal("the manifest has no findings to publish")
	}
	// halved is the same analysis with half its findings, newer.
	halved := func(gen uint64) *analysis.Snapshot {
		c, p := *snap, *snap.Project
		p.Findings = p.Findings[:len(p.Findings)/2]
		c.Project, c.Gen = &p, gen
		return &c
	}
	published := func() int {
		n := 0
		for _, m := range s.notesSnapshot() {
			if m.Method == "textDocument/publishDiagnostics" {
				n++
			}
		}
		return n
	}
	before := published()
	s.srv.ws.pub.setYAML(s.srv.currentView(), halved(snap.Gen+1))
	s.idle()
	if published() == before {
		t.Fatal("a newer analysis with other findings was not published while the server runs")
	}
	s.srv.stopBg()
	before = published()
	c := *snap
	c.Gen += 2
	s.srv.ws.pub.setYAML(s.srv.currentView(), &c)
	s.srv.ws.pub.publishHeld()
	// An answer comes after every frame queued before it: once it is
	// read, so is any publish the calls above sent.
	_ = s.callErr("beeuni/test.idle", nil)
	if got := published(); got != before {
		t.Errorf("%d publishes sent after the server began stopping, want none", got-before)
	}
}
