package analysis

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/tsinspect"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

var updateInspect = flag.Bool("update-inspect", false, "rewrite the want sections of testdata/inspect/*.txtar")

// TestInspectModules checks T11 on the manifest's path values and the
// module findings, against the want section of each fixture.
func TestInspectModules(t *testing.T) {
	files, err := filepath.Glob("testdata/inspect/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			ar := txtar.Parse(data)
			const root = "/repo"
			src := &txtar.Archive{}
			wantAt := -1
			for i, f := range ar.Files {
				if f.Name == "want" {
					wantAt = i
					continue
				}
				src.Files = append(src.Files, f)
			}
			mem := vfs.MemFromTxtar(root, txtar.Format(src))
			p, err := Load(context.Background(), mem, root)
			if err != nil {
				t.Fatal(err)
			}
			insp := InspectModules(context.Background(), p, tsinspect.New(mem, tsinspect.Options{}))
			got := renderInspection(p, mem, insp)
			if *updateInspect {
				if wantAt < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "want"})
					wantAt = len(ar.Files) - 1
				}
				ar.Files[wantAt].Data = []byte(got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if wantAt < 0 || string(ar.Files[wantAt].Data) != got {
				want := ""
				if wantAt >= 0 {
					want = string(ar.Files[wantAt].Data)
				}
				t.Errorf("inspection differs (go test -update-inspect to accept)\n--- got\n%s--- want\n%s", got, want)
			}
		})
	}
}

func renderInspection(p *Project, fsys vfs.FS, in *Inspection) string {
	var b strings.Builder
	for _, f := range in.Findings {
		content, _ := fsys.ReadFile(f.File)
		l := diag.NewLines(content)
		text := string(content[f.Range.Start.Offset:f.Range.End.Offset])
		fmt.Fprintf(&b, "%s:%d:%d %s %s %q: %s", p.Rel(f.File), f.Range.Start.Line+1, l.CharColumn(f.Range.Start)+1, f.Severity, f.Code, text, f.Message)
		if f.Data != nil {
			fmt.Fprintf(&b, " data=%v", f.Data)
		}
		b.WriteString("\n")
	}
	var mods []string
	for m := range in.Results {
		mods = append(mods, p.Rel(m))
	}
	sort.Strings(mods)
	fmt.Fprintf(&b, "inspected: %s\n", strings.Join(mods, " "))
	return b.String()
}

// TestInspectModulesNil covers a project without a model and a nil
// inspector: no findings, no panic.
func TestInspectModulesNil(t *testing.T) {
	if got := InspectModules(context.Background(), &Project{}, nil); len(got.Findings) != 0 || len(got.Results) != 0 {
		t.Fatalf("got %+v", got)
	}
}

// TestInspectModulesCancelled: a cancelled context yields no verdicts.
func TestInspectModulesCancelled(t *testing.T) {
	mem := vfs.MemFromTxtar("/repo", []byte("-- beeuni.yaml --\ntools:\n  a: tools/a.ts\n-- tools/a.ts --\nexport default 1\n"))
	p, err := Load(context.Background(), mem, "/repo")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := InspectModules(ctx, p, tsinspect.New(mem, tsinspect.Options{}))
	if len(got.Findings) != 0 {
		t.Fatalf("cancelled inspection reported %v", got.Findings)
	}
}

// inspectionFromReference is InspectionFrom as it was before ModuleBase:
// every call gathers the module findings and sorts everything. The
// differential test holds the ModuleBase path to its answers.
func inspectionFromReference(p *Project, modules []string, results map[string]*tsinspect.Result) (*Inspection, bool) {
	out := &Inspection{Results: make(map[string]*tsinspect.Result, len(modules))}
	complete := true
	type shared struct {
		file, code, message string
		start, end          int
	}
	seen := map[shared]bool{}
	for _, m := range modules {
		r := results[m]
		if r == nil {
			complete = false
			continue
		}
		out.Results[m] = r
		for _, f := range r.Findings {
			if f.File != m {
				k := shared{f.File, f.Code, f.Message, f.Range.Start.Offset, f.Range.End.Offset}
				if seen[k] {
					continue
				}
				seen[k] = true
			}
			out.Findings = append(out.Findings, f)
		}
	}
	if p == nil || p.Model == nil {
		diag.Sort(out.Findings)
		return out, complete
	}
	for _, t := range p.Model.Tools {
		r := out.Results[t.Module]
		if t.Module == "" || r == nil || r.Loads || t.File == "" {
			continue
		}
		rel := p.Rel(t.Module)
		f := diag.Finding{
			File:     t.File,
			Range:    p.File(t.File).Range(t.Value),
			Severity: diag.Error,
			Code:     CodeModuleLoad,
			Message:  referenceModuleLoadMessage(t.Name, rel, r),
			Data:     map[string]string{"name": t.Name, "module": rel},
		}
		if !r.ReasonRange.IsZero() || r.Reason != "" {
			f.Related = []diag.Related{{File: t.Module, Range: r.ReasonRange, Message: r.Reason}}
		}
		out.Findings = append(out.Findings, f)
	}
	diag.Sort(out.Findings)
	return out, complete
}

// referenceModuleLoadMessage is T11's text as first written.
func referenceModuleLoadMessage(name, rel string, r *tsinspect.Result) string {
	where := rel
	if !r.ReasonRange.IsZero() {
		where = fmt.Sprintf("%s:%d:%d", rel, r.ReasonRange.Start.Line+1, CharColumn(r.Lines, r.ReasonRange.Start)+1)
	}
	return fmt.Sprintf("%s will not load: %s (%s). The daemon skips it, so sessions get no %s tool.", rel, r.Reason, where, name)
}

// randomInspectionCase makes a project of random tools over a few modules
// and results for them: modules that load or not, findings in the module,
// in a shared file, and in the manifest itself (so that module findings
// and T11 tie in sort order), tools without a module or file, modules
// declared twice, and modules without a result.
func randomInspectionCase(rng *rand.Rand) (*Project, []string, map[string]*tsinspect.Result) {
	const root = "/repo"
	manifest := root + "/beeuni.yaml"
	files := []string{manifest, root + "/more.yaml", root + "/schema.ts"}
	nMods := 1 + rng.Intn(8)
	var mods []string
	for i := range nMods {
		mods = append(mods, fmt.Sprintf("%s/tools/m%d.ts", root, i))
	}
	pos := func(o int) diag.Pos { return diag.Pos{Offset: o, Line: o / 10, Col: o % 10} }
	rangeAt := func() diag.Range {
		s := rng.Intn(6)
		return diag.Range{Start: pos(s), End: pos(s + rng.Intn(3))}
	}
	results := map[string]*tsinspect.Result{}
	for _, m := range mods {
		if rng.Intn(6) == 0 {
			continue // no result: incomplete
		}
		r := &tsinspect.Result{Module: m, Loads: rng.Intn(2) == 0, Lines: diag.NewLines([]byte("export default 1\nline two\n"))}
		if !r.Loads {
			r.Reason = []string{"", "Cannot find package 'zod'"}[rng.Intn(2)]
			if rng.Intn(2) == 0 {
				r.ReasonRange = diag.Range{Start: diag.Pos{Offset: 3, Line: 0, Col: 3}, End: diag.Pos{Offset: 5, Line: 0, Col: 5}}
			}
		}
		for range rng.Intn(4) {
			file := m
			if rng.Intn(2) == 0 {
				file = files[rng.Intn(len(files))]
			}
			r.Findings = append(r.Findings, diag.Finding{
				File: file, Range: rangeAt(), Severity: diag.Error,
				Code: []string{"T11", "M1", "M2"}[rng.Intn(3)], Message: []string{"a", "b"}[rng.Intn(2)],
			})
		}
		results[m] = r
	}
	// Lines of ten bytes, as pos counts them.
	tenByTen := diag.NewLines([]byte(strings.Repeat("123456789\n", 10)))
	p := &Project{Root: root, Model: &Model{}, Files: []*File{{Path: files[0], Lines: tenByTen}, {Path: files[1], Lines: tenByTen}}}
	for i := range rng.Intn(12) {
		t := Tool{Name: fmt.Sprintf("tool_%d", i), File: files[rng.Intn(2)], Value: spanOf(rangeAt())}
		if rng.Intn(5) > 0 {
			t.Module = mods[rng.Intn(len(mods))]
		}
		if rng.Intn(8) == 0 {
			t.File = ""
		}
		p.Model.Tools = append(p.Model.Tools, &t)
	}
	// The module list as ModulePaths makes it: each module once, in
	// declaration order.
	var modules []string
	seen := map[string]bool{}
	for _, t := range p.Model.Tools {
		if t.Module != "" && !seen[t.Module] {
			seen[t.Module] = true
			modules = append(modules, t.Module)
		}
	}
	return p, modules, results
}

// TestInspectionFromMatchesReference holds InspectionFrom and a ModuleBase
// reused for another project (the same modules, tools moved and renamed:
// a keystroke) to the reference computation, on random cases.
func TestInspectionFromMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for i := range 5000 {
		p, modules, results := randomInspectionCase(rng)
		want, wantComplete := inspectionFromReference(p, modules, results)
		got, complete := InspectionFrom(p, modules, results)
		if complete != wantComplete || !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: InspectionFrom = %v %+v\nwant %v %+v", i, complete, got, wantComplete, want)
		}
		base, _ := NewModuleBase(modules, results)
		// Another keystroke: the same tools, renamed and moved.
		next := &Project{Root: p.Root, Model: &Model{Tools: slices.Clone(p.Model.Tools)}, Files: p.Files}
		for j := range next.Model.Tools {
			if rng.Intn(2) == 0 {
				tl := *next.Model.Tools[j] // p's tools are shared: never written
				tl.Name += "x"
				tl.Value.StartCol += rng.Intn(5)
				tl.Value.EndCol += rng.Intn(5)
				next.Model.Tools[j] = &tl
			}
		}
		want, _ = inspectionFromReference(next, modules, results)
		if got := base.Inspection(next); !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: reused base = %+v\nwant %+v", i, got, want)
		}
		tm := base.ToolModules(p)
		if !tm.Same(next) {
			t.Fatalf("case %d: ToolModules.Same is false for the same modules", i)
		}
		if got := base.InspectionWith(next, tm); !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: InspectionWith = %+v\nwant %+v", i, got, want)
		}
		if n := len(next.Model.Tools); n > 0 {
			moved := &Project{Root: p.Root, Model: &Model{Tools: slices.Clone(next.Model.Tools)}}
			moved.Model.Tools[rng.Intn(n)].Module += "x"
			if tm.Same(moved) {
				t.Fatalf("case %d: ToolModules.Same is true after a module changed", i)
			}
			if tm.Same(&Project{Root: p.Root, Model: &Model{Tools: next.Model.Tools[:n-1]}}) {
				t.Fatalf("case %d: ToolModules.Same is true after a tool went", i)
			}
		}
		if base.Len() != len(base.Modules()) {
			t.Fatalf("case %d: Len %d, Modules %v", i, base.Len(), base.Modules())
		}
		for k, m := range base.Modules() {
			if at, ok := base.Position(m); !ok || at != k {
				t.Fatalf("case %d: Position(%s) = %d %v, want %d", i, m, at, ok, k)
			}
		}
	}
}

// bigInspectionCase is a project of n tools, each with its own module, one
// in a hundred of which will not load, and the results of a module pass.
func bigInspectionCase(n int) (*Project, []string, map[string]*tsinspect.Result) {
	const root = "/repo"
	// The manifest: three lines, then a line of 40 bytes per tool.
	manifest := diag.NewLines([]byte("# tools\ntools:\n  web_search: beeuni:web_search\n" + strings.Repeat(strings.Repeat("x", 39)+"\n", n)))
	p := &Project{Root: root, Model: &Model{}, Files: []*File{{Path: root + "/beeuni.yaml", Lines: manifest}}}
	results := map[string]*tsinspect.Result{}
	var modules []string
	lines := diag.NewLines([]byte("import { z } from 'zod'\nexport default {}\n"))
	for i := range n {
		m := fmt.Sprintf("%s/tools/tool_%05d.ts", root, i)
		p.Model.Tools = append(p.Model.Tools, &Tool{Name: fmt.Sprintf("tool_%05d", i), Module: m, File: root + "/beeuni.yaml",
			Value: Span{StartLine: i + 3, StartCol: 14, EndLine: i + 3, EndCol: 39}})
		r := &tsinspect.Result{Module: m, Loads: i%100 != 7, Lines: lines}
		if !r.Loads {
			r.Reason = "Cannot find package 'zod'"
			r.ReasonRange = diag.Range{Start: diag.Pos{Offset: 18, Col: 18}, End: diag.Pos{Offset: 23, Col: 23}}
			r.Findings = []diag.Finding{{File: m, Range: r.ReasonRange, Severity: diag.Error, Code: "M2", Message: r.Reason}}
		}
		results[m] = r
		modules = append(modules, m)
	}
	return p, modules, results
}

// BenchmarkInspectionAfterKeystroke measures the module inspection of a
// keystroke in a 10,000-tool manifest whose modules did not change: as it
// was made before ModuleBase (reference), from the results with a new base
// (InspectionFrom), and from the base and tool modules kept since the last
// keystroke (InspectionWith, what the server does).
func BenchmarkInspectionAfterKeystroke(b *testing.B) {
	p, modules, results := bigInspectionCase(10000)
	b.Run("reference", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			inspectionFromReference(p, modules, results)
		}
	})
	b.Run("InspectionFrom", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			InspectionFrom(p, modules, results)
		}
	})
	b.Run("InspectionWith", func(b *testing.B) {
		base, _ := NewModuleBase(modules, results)
		tm := base.ToolModules(p)
		b.ReportAllocs()
		for b.Loop() {
			if !tm.Same(p) {
				b.Fatal("not the same modules")
			}
			base.InspectionWith(p, tm)
		}
	})
}
