package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

const agentViewManifest = `tools:
  web_search: beeuni:web_search
  a: tools/a.ts
agents:
  one:
    tools: [read, web_search, a]
  bad:
    tools: 3
`

func loadAgentViewProject(t *testing.T) *Project {
	t.Helper()
	mem := vfs.MemFromTxtar("/repo", []byte("-- beeuni.yaml --\n"+agentViewManifest+"-- tools/a.ts --\nexport default {}\n"))
	p, err := Load(context.Background(), mem, "/repo")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAgentViewUnknownMarks: every value the definitions do not give is
// marked with why, never filled in; a module that will not load is left
// out of the tools and named in NotLoaded.
func TestAgentViewUnknownMarks(t *testing.T) {
	p := loadAgentViewProject(t)
	desc := "Does a."
	known := &tsinspect.Result{Loads: true, Description: desc, DescriptionKnown: true, Parameters: json.RawMessage(`{"type": "object"}`)}
	beeuni := map[string]*tsinspect.Result{"web_search": known}
	cases := []struct {
		name      string
		defs      ToolDefs
		wantA     []UnknownPart // the unknown parts of tool a
		notLoaded bool          // a is left out
	}{
		{"inspection off", ToolDefs{Beeuni: beeuni}, []UnknownPart{{"description", whyNoInspection}, {"parameters", whyNoInspection}}, false},
		{"not inspected yet", ToolDefs{Beeuni: beeuni, Modules: map[string]*tsinspect.Result{}}, []UnknownPart{{"description", whyNotInspected}, {"parameters", whyNotInspected}}, false},
		{"inspection cut short", ToolDefs{Beeuni: beeuni, Modules: map[string]*tsinspect.Result{"/repo/tools/a.ts": {Loads: true, Incomplete: true}}}, []UnknownPart{{"description", whyIncomplete}, {"parameters", whyIncomplete}}, false},
		{"values not static", ToolDefs{Beeuni: beeuni, Modules: map[string]*tsinspect.Result{"/repo/tools/a.ts": {Loads: true, Undecided: true, Parameters: json.RawMessage(`{"type":"object"}`), ParametersUnknown: []tsinspect.UnknownValue{{Path: "properties.x", Why: "computed"}}}}}, []UnknownPart{{"description", whyNotStatic}, {"parameters.properties.x", "computed"}}, false},
		{"parameters not static", ToolDefs{Beeuni: beeuni, Modules: map[string]*tsinspect.Result{"/repo/tools/a.ts": {Loads: true, Description: desc, DescriptionKnown: true, ParametersUnknown: []tsinspect.UnknownValue{{Path: "", Why: "a call"}}}}}, []UnknownPart{{"parameters", whyNotStatic}}, false},
		{"known", ToolDefs{Beeuni: beeuni, Modules: map[string]*tsinspect.Result{"/repo/tools/a.ts": known}}, []UnknownPart{}, false},
		{"will not load", ToolDefs{Beeuni: beeuni, Modules: map[string]*tsinspect.Result{"/repo/tools/a.ts": {Loads: false, Reason: "no default export"}}}, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := NewAgentViewer(p, c.defs, nil).View("one")
			if err != nil {
				t.Fatal(err)
			}
			names := []string{}
			for _, tool := range v.Tools {
				names = append(names, tool.Name)
			}
			if c.notLoaded {
				if want := []string{"read", "web_search"}; !reflect.DeepEqual(names, want) {
					t.Errorf("tools %v, want %v", names, want)
				}
				if len(v.NotLoaded) != 1 || v.NotLoaded[0].Name != "a" || v.NotLoaded[0].Code != CodeModuleLoad || v.NotLoaded[0].Message != "no default export" {
					t.Errorf("not loaded %+v, want a with T11's reason", v.NotLoaded)
				}
				return
			}
			if want := []string{"read", "web_search", "a"}; !reflect.DeepEqual(names, want) {
				t.Fatalf("tools %v, want %v", names, want)
			}
			if got := v.Tools[2].Unknown; !reflect.DeepEqual(got, c.wantA) {
				t.Errorf("a's unknown parts %+v, want %+v", got, c.wantA)
			}
			for _, u := range v.Tools[2].Unknown {
				if u.Path == "description" && v.Tools[2].Description != nil {
					t.Errorf("description %q given while marked unknown", *v.Tools[2].Description)
				}
			}
			if got := v.Tools[0].Unknown; len(got) != 2 || got[0].Why != whyHarness {
				t.Errorf("read's unknown parts %+v, want description and parameters from the harness", got)
			}
			if v.Complete {
				t.Error("complete with a harness tool")
			}
		})
	}
}

// TestAgentViewNotLoadedByFindings: a tool NotLoadedTools names (T6 here)
// is left out, whatever the definitions hold.
func TestAgentViewNotLoadedByFindings(t *testing.T) {
	p := loadAgentViewProject(t)
	v, err := NewAgentViewer(p, ToolDefs{}, []NotLoaded{{Name: "a", Source: "tools/a.ts", Code: CodeMissing, Message: "missing"}}).View("one")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Tools) != 2 || len(v.NotLoaded) != 1 || v.NotLoaded[0].Code != CodeMissing {
		t.Errorf("tools %+v, not loaded %+v: want a left out", v.Tools, v.NotLoaded)
	}
}

// TestAgentViewSize: a tool's size is its definition as compact JSON with
// the known values only, < > & unescaped; the estimate is bytes / 4
// rounded up.
func TestAgentViewSize(t *testing.T) {
	desc := "x < y & z"
	cases := []struct {
		tool AgentViewTool
		want string
	}{
		{AgentViewTool{Name: "read"}, `{"name":"read"}`},
		{AgentViewTool{Name: "a", Description: &desc, Parameters: json.RawMessage("{\n  \"type\": \"object\"\n}")}, `{"name":"a","description":"x < y & z","parameters":{"type":"object"}}`},
		{AgentViewTool{Name: "q", Description: new(string)}, `{"name":"q","description":""}`},
	}
	var scratch bytes.Buffer
	for _, c := range cases {
		if got := definitionSize(&scratch, c.tool); got != len(c.want) {
			t.Errorf("size of %s: %d, want %d (%s)", c.tool.Name, got, len(c.want), c.want)
		}
	}
	for bytes, want := range map[int]int{0: 0, 1: 1, 4: 1, 5: 2, 3141: 786} {
		if got := estimateTokens(bytes); got != want {
			t.Errorf("estimateTokens(%d) = %d, want %d", bytes, got, want)
		}
	}
	for n, want := range map[int]string{0: "≈0", 999: "≈999", 1000: "≈1.0k", 3141: "≈3.1k"} {
		if got := approxTokens(n); got != want {
			t.Errorf("approxTokens(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestAgentViewErrors: an unknown agent names the agents there are; an
// agent whose tools value has no form (A3) has no view.
func TestAgentViewErrors(t *testing.T) {
	p := loadAgentViewProject(t)
	_, err := NewAgentViewer(p, ToolDefs{}, nil).View("nobody")
	var unknown *UnknownAgentError
	if !errors.As(err, &unknown) || !reflect.DeepEqual(unknown.Agents, []string{"one", "bad"}) || !strings.Contains(err.Error(), "one, bad") {
		t.Errorf("error %v, want one naming the agents one, bad", err)
	}
	if _, err := NewAgentViewer(p, ToolDefs{}, nil).View("bad"); !errors.Is(err, ErrNoView) {
		t.Errorf("error %v, want ErrNoView", err)
	}
}

// TestAgentViewSummary is the code lens's title.
func TestAgentViewSummary(t *testing.T) {
	desc := "d"
	v := &AgentView{Tools: []AgentViewTool{{Name: "a", Description: &desc, Parameters: json.RawMessage(`{}`), Unknown: []UnknownPart{}}}, TokensEstimate: 3141}
	if got, want := AgentViewSummary(v), "1 tool · ≈3.1k tokens"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	v.Tools = append(v.Tools, AgentViewTool{Name: "read", Unknown: []UnknownPart{{"description", whyHarness}}})
	if got, want := AgentViewSummary(v), "2 tools · ≈3.1k tokens + 1 tool not known"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

// TestInspectBeeuniTools: the five Beeuni tools' definitions are known in
// full from their embedded sources.
func TestInspectBeeuniTools(t *testing.T) {
	defs := InspectBeeuniTools(context.Background())
	for _, name := range BeeuniTools() {
		r := defs[name]
		if r == nil || !r.Loads || !r.DescriptionKnown || r.Parameters == nil || len(r.ParametersUnknown) > 0 {
			t.Errorf("%s: %+v, want a loading module with known description and parameters", name, r)
		}
	}
}

// TestAgentViewerReadsEachToolOnce: the titles of every agent (a code
// lens request) read and size each tool once, and sum the universe once
// for all the agents that see it less a few names (bounded work: not
// agents × tools).
func TestAgentViewerReadsEachToolOnce(t *testing.T) {
	manifest, _ := generatedManifest(100) // 11 agents: 3 all, 2 lists, 2 exclude, 2 legacy, 2 none
	p, err := Load(context.Background(), vfs.MemFromTxtar("/repo", []byte("-- beeuni.yaml --\n"+manifest)), "/repo")
	if err != nil {
		t.Fatal(err)
	}
	vw := NewAgentViewer(p, ToolDefs{}, nil)
	for _, a := range p.Model.Agents {
		if _, err := vw.Summary(a.Name); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := len(vw.made), len(HarnessTools())+len(p.Model.Tools); got != want {
		t.Errorf("%d tools read, want each of the %d once", got, want)
	}
	if got := len(vw.totals); got != 3 {
		t.Errorf("%d lists of names summed, want 3: the universe once, and the two lists", got)
	}
}

// TestAgentViewerSummaryIsTheViews: a code lens's title (Summary, which
// shares the universe's totals among the agents that see it less a few
// names) is the title of the agent's whole view, for every form of the
// generated manifest, with tools not loading and values not known.
func TestAgentViewerSummaryIsTheViews(t *testing.T) {
	manifest, modules := generatedManifest(60)
	mem := vfs.NewMem()
	mem.WriteFile("/repo/beeuni.yaml", []byte(manifest))
	defs := ToolDefs{Modules: map[string]*tsinspect.Result{}, Beeuni: InspectBeeuniTools(context.Background())}
	for i, m := range modules {
		abs := "/repo/" + m
		mem.WriteFile(abs, []byte("export default {}\n"))
		switch i % 4 {
		case 0:
			defs.Modules[abs] = &tsinspect.Result{Loads: true, Description: strings.Repeat("d", i), DescriptionKnown: true, Parameters: json.RawMessage(`{"type":"object"}`)}
		case 1:
			defs.Modules[abs] = &tsinspect.Result{Loads: false, Reason: "no default export"}
		case 2:
			defs.Modules[abs] = &tsinspect.Result{Loads: true, Parameters: json.RawMessage(`{}`)}
		} // case 3: not inspected yet
	}
	p, err := Load(context.Background(), mem, "/repo")
	if err != nil {
		t.Fatal(err)
	}
	notLoaded := []NotLoaded{{Name: "tool_00010", Source: "tools/tool_00010.ts", Code: CodeMissing}}
	summaries, views := NewAgentViewer(p, defs, notLoaded), NewAgentViewer(p, defs, notLoaded)
	for _, a := range p.Model.Agents {
		got, err := summaries.Summary(a.Name)
		if err != nil {
			t.Fatal(err)
		}
		v, err := views.View(a.Name)
		if err != nil {
			t.Fatal(err)
		}
		if want := AgentViewSummary(v); got != want {
			t.Errorf("agent %s (form %d): summary %q, its view's %q", a.Name, a.Form, got, want)
		}
	}
}
