package lsp

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// benchSelection is the case: 5,000 tools with their modules and
// 500 agents each naming name, a finding in each: the code actions of
// Select All cover the 500 findings; with atCursor, those of the cursor
// on the last agent's finding.
func benchSelection(b *testing.B, name string, minActions int, atCursor bool) {
	fsys, text := selectionWorkspace(5000, 500, name)
	s := editorSession(b, fsys, UTF16, "/ws")
	s.open("/ws/beeuni.yaml", text)
	s.idle()
	params := selectAgents(text)
	if atCursor {
		at := refPosition([]byte(text), strings.LastIndex(text, name), UTF16)
		params["range"] = protocol.Range{Start: at, End: at}
	}
	var lat latencies
	b.ResetTimer()
	cpu0, cpuOK := processCPUTime()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		var actions []codeActionJSON
		s.call("textDocument/codeAction", params, &actions)
		lat = append(lat, time.Since(start))
		if len(actions) < minActions {
			b.Fatalf("%d actions, want at least %d", len(actions), minActions)
		}
	}
	b.StopTimer()
	if cpu1, _ := processCPUTime(); cpuOK {
		// CPU time beside wall time: on a shared machine wall time
		// mostly measures the other processes.
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
	}
	lat.report(b)
}

// BenchmarkCodeActionSelectAll: the code actions of a selection over 500
// findings of a 5,000-tool manifest, from the request to the answer.
// one-fix: a misspelt name in every agent, one action ("Replace ...");
// distinct-fixes: a Beeuni tool the project does not load in every agent,
// 501 actions (one "Add", 500 "Remove ... from the tools of agent ...").
func BenchmarkCodeActionSelectAll(b *testing.B) {
	b.Run("one-fix", func(b *testing.B) { benchSelection(b, "tool_00001", 1, false) })
	b.Run("distinct-fixes", func(b *testing.B) { benchSelection(b, "show", 501, false) })
}

// BenchmarkCodeActionAtCursor: the code actions at one of those findings
// (the cursor on the last agent's `show`: two fixes, "Add" and
// "Remove"), what an editor asks as the cursor moves.
func BenchmarkCodeActionAtCursor(b *testing.B) { benchSelection(b, "show", 2, true) }

// BenchmarkCodeActionCancel: how long after its $/cancelRequest the
// code action of BenchmarkCodeActionSelectAll's distinct-fixes answers,
// cancelled while it checks its second fix.
func BenchmarkCodeActionCancel(b *testing.B) {
	fsys, text := selectionWorkspace(5000, 500, "show")
	s, counter := countingSession(b, fsys, text)
	params := selectAgents(text)
	var lat latencies
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		held, release := counter.hold(2)
		id := s.start("textDocument/codeAction", params)
		<-held
		start := time.Now()
		s.notify("$/cancelRequest", map[string]any{"id": json.RawMessage(id)})
		release()
		m := s.answer(id)
		lat = append(lat, time.Since(start))
		if m.Error == nil || m.Error.Code != int(codeRequestCancelled) {
			b.Fatalf("cancelled code action answered %+v, want RequestCancelled", m.Error)
		}
	}
	b.StopTimer()
	lat.report(b)
}
