package analysis

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// envModule is a tool module whose execute reads the names given from
// context.env.
func envModule(names ...string) string {
	var reads []string
	for _, n := range names {
		reads = append(reads, "context.env."+n)
	}
	if reads == nil {
		reads = []string{"''"}
	}
	return "export default {\n  description: 'd',\n  parameters: { type: 'object', properties: {} },\n  execute(args, context) { return " + strings.Join(reads, " + ") + " },\n}\n"
}

func loadMem(t *testing.T, files map[string]string) (*Project, *vfs.Mem) {
	t.Helper()
	mem := vfs.NewMem()
	for name, content := range files {
		mem.WriteFile(filepath.Join(testRoot, filepath.FromSlash(name)), []byte(content))
	}
	p, err := Load(context.Background(), mem, testRoot)
	if err != nil {
		t.Fatal(err)
	}
	return p, mem
}

// Each shape of `secrets:` is read as its form, and none is an error (the
// schema is not ours).
func TestReadSecrets(t *testing.T) {
	tests := []struct {
		value string
		form  SecretsForm
		names []string
	}{
		{"", SecretsAbsent, nil},
		{"    secrets: all\n", SecretsAll, nil},
		{"    secrets: 'all'\n", SecretsAll, nil},
		{"    secrets: [A, B]\n", SecretsList, []string{"A", "B"}},
		{"    secrets:\n      - A\n", SecretsList, []string{"A"}},
		{"    secrets: []\n", SecretsList, []string{}},
		{"    secrets: [A, 3]\n", SecretsOther, nil},
		{"    secrets: [A, [B]]\n", SecretsOther, nil},
		{"    secrets: none\n", SecretsOther, nil},
		{"    secrets:\n", SecretsOther, nil},
		{"    secrets: { A: true }\n", SecretsOther, nil},
		{"    secrets: [A]\n    secrets: all\n", SecretsList, []string{"A"}}, // the first counts (T10 reports the second)
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			p, _ := loadMem(t, map[string]string{"beeuni.yaml": "agents:\n  a:\n    tools: all\n" + tc.value})
			for _, f := range p.Findings {
				if f.Code != CodeDuplicateKey {
					t.Errorf("finding %s: %s", f.Code, f.Message)
				}
			}
			s := p.Model.Agents[0].Secrets
			if s.Form != tc.form || !reflect.DeepEqual(s.Names, tc.names) {
				t.Errorf("secrets %+v, want %v %v", s, tc.form, tc.names)
			}
		})
	}
}

// One finding per agent and secret however many tools read it: it names
// the first five, says how many more, and relates each named one's read.
func TestSecretsFindingIsBounded(t *testing.T) {
	files := map[string]string{}
	yaml := "tools:\n"
	const n = 8
	for i := range n {
		name := fmt.Sprintf("tool_%d", i)
		yaml += fmt.Sprintf("  %s: tools/%s.ts\n", name, name)
		files["tools/"+name+".ts"] = envModule("KEY", "OTHER", "KEY")
	}
	files["beeuni.yaml"] = yaml + "agents:\n  a:\n    secrets: [OTHER]\n"
	p, mem := loadMem(t, files)
	insp := InspectModules(context.Background(), p, tsinspect.New(mem, tsinspect.Options{}))
	var got []string
	for _, f := range insp.Findings {
		if f.Code != CodeSecretNotGranted {
			t.Fatalf("finding %s: %s", f.Code, f.Message)
		}
		got = append(got, f.Message)
		if len(f.Related) != maxSecretTools {
			t.Errorf("%d related, want %d", len(f.Related), maxSecretTools)
		}
		for i, r := range f.Related {
			want := filepath.Join(testRoot, "tools", fmt.Sprintf("tool_%d.ts", i))
			if r.File != want || r.Range.Start.Line != 3 || r.Range.Start.Col != 34 || r.Range.End.Col != 49 {
				t.Errorf("related %d: %s %+v, want the first read in %s at 4:35-4:50", i, r.File, r.Range, want)
			}
		}
	}
	want := []string{"agent `a` can call `tool_0`, `tool_1`, `tool_2`, `tool_3`, `tool_4` and 3 more tools, which read `context.env.KEY`, " +
		"but its `secrets:` does not list `KEY`: the agent does not get that secret, and `KEY` may still come from the box's environment; add `KEY` to `secrets:` if the tool needs the secret"}
	if !slices.Equal(got, want) {
		t.Errorf("findings\n%q\nwant\n%q", got, want)
	}
}

// The server makes a keystroke's inspection from the module base of the
// last module pass (InspectionWith): A4 follows an edit of an agent's
// secrets without a module pass, as Inspection does.
func TestSecretsFollowTheAgentsWithTheSameBase(t *testing.T) {
	modules := map[string]string{"tools/w.ts": envModule("W_KEY"), "tools/x.ts": envModule("X_KEY", "W_KEY")}
	with := func(agents string) map[string]string {
		files := map[string]string{"beeuni.yaml": "tools:\n  w: tools/w.ts\n  x: tools/x.ts\nagents:\n" + agents}
		for k, v := range modules {
			files[k] = v
		}
		return files
	}
	first, mem := loadMem(t, with("  a:\n    secrets: [W_KEY]\n"))
	insp := InspectModules(context.Background(), first, tsinspect.New(mem, tsinspect.Options{}))
	base, complete := NewModuleBase(ModulePaths(first, tsinspect.New(mem, tsinspect.Options{})), insp.Results)
	if !complete {
		t.Fatal("incomplete base")
	}
	tm := base.ToolModules(first)
	codes := func(in *Inspection) []string {
		var out []string
		for _, f := range in.Findings {
			out = append(out, f.Code+" "+f.Data["agent"]+" "+f.Data["secret"])
		}
		return out
	}
	for _, tc := range []struct {
		agents string
		want   []string
	}{
		{"  a:\n    secrets: [W_KEY]\n", []string{"A4 a X_KEY"}},
		{"  a:\n    secrets: [W_KEY, X_KEY]\n", nil},
		{"  a:\n    secrets: []\n", []string{"A4 a W_KEY", "A4 a X_KEY"}},
		{"  a:\n    tools: [w]\n    secrets: []\n", []string{"A4 a W_KEY"}},
		{"  a:\n    secrets: all\n", nil},
		{"  b:\n    secrets: [X_KEY]\n  a:\n    secrets: [X_KEY]\n", []string{"A4 b W_KEY", "A4 a W_KEY"}},
	} {
		p, _ := loadMem(t, with(tc.agents))
		if !tm.Same(p) {
			t.Fatalf("%q: not the same modules", tc.agents)
		}
		if got := codes(base.InspectionWith(p, tm)); !slices.Equal(got, tc.want) {
			t.Errorf("%q: InspectionWith says %q, want %q", tc.agents, got, tc.want)
		}
		if got := codes(base.Inspection(p)); !slices.Equal(got, tc.want) {
			t.Errorf("%q: Inspection says %q, want %q", tc.agents, got, tc.want)
		}
	}
}

// SecretGaps, the hover's view: per name the tool's module reads, the
// agents that can call the tool and do not get it.
func TestSecretGaps(t *testing.T) {
	p, mem := loadMem(t, map[string]string{
		"beeuni.yaml": "tools:\n  w: tools/w.ts\n  q: tools/q.ts\nagents:\n" +
			"  z:\n    secrets: []\n  a:\n    secrets: [B_KEY]\n  n:\n    tools: [q]\n    secrets: []\n  all:\n    secrets: all\n  x:\n    tools: none\n    secrets: []\n",
		"tools/w.ts": envModule("B_KEY", "A_KEY"),
		"tools/q.ts": envModule(),
	})
	insp := InspectModules(context.Background(), p, tsinspect.New(mem, tsinspect.Options{}))
	w, _ := p.Model.Tool("w")
	got := SecretGaps(p, w, insp.Results[w.Module])
	want := []SecretGap{{Secret: "A_KEY", Agents: []string{"z", "a"}}, {Secret: "B_KEY", Agents: []string{"z"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SecretGaps(w) = %+v, want %+v", got, want)
	}
	q, _ := p.Model.Tool("q")
	if got := SecretGaps(p, q, insp.Results[q.Module]); got != nil {
		t.Errorf("SecretGaps(q) = %+v, want none", got)
	}
}

// BenchmarkSecretsAfterKeystroke measures a keystroke's inspection
// (InspectionWith) in a 10,000-tool manifest whose every module reads a
// secret, with ten agents whose `secrets:` is a list (half of them see
// every tool, half a list of a hundred): A4 is the whole cost.
func BenchmarkSecretsAfterKeystroke(b *testing.B) {
	p, modules, results := bigInspectionCase(10000)
	for i, m := range modules {
		results[m].EnvReads = []tsinspect.EnvRead{{Name: fmt.Sprintf("KEY_%d", i%7), File: m}}
	}
	var listed []string
	for i := range 100 {
		listed = append(listed, p.Model.Tools[i*97].Name)
	}
	for i := range 10 {
		a := Agent{Name: fmt.Sprintf("agent_%d", i), File: p.Root + "/beeuni.yaml", Secrets: AgentSecrets{Form: SecretsList, Names: []string{"KEY_0"}}}
		if i%2 == 1 {
			a.Form, a.Sees = FormList, listView(listed)
		}
		p.Model.Agents = append(p.Model.Agents, &a)
	}
	base, _ := NewModuleBase(modules, results)
	tm := base.ToolModules(p)
	b.ReportAllocs()
	for b.Loop() {
		base.InspectionWith(p, tm)
	}
}
