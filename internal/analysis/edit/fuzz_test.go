package edit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// FuzzEditManifest runs every action on arbitrary manifest bytes (seeded
// with the golden cases): whatever the input, an offered action leaves
// YAML that parses, and a quick fix removes its finding.
func FuzzEditManifest(f *testing.F) {
	paths, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range txtar.Parse(data).Files {
			if file.Name == "beeuni.yaml" {
				f.Add(file.Data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, manifest []byte) {
		m := vfs.NewMem()
		m.WriteFile(filepath.Join(testRoot, "beeuni.yaml"), manifest)
		checkEveryAction(t, m)
	})
}

// FuzzEditGenerated runs every action on manifests generated from a seed:
// block or flow tools, imports, CRLF, indentation widths, comments, agents
// in every form, a BOM, with or without a final newline.
func FuzzEditGenerated(f *testing.F) {
	for seed := uint64(0); seed < 16; seed++ {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		checkEveryAction(t, generate(seed))
	})
}

func checkEveryAction(t *testing.T, m *vfs.Mem) {
	t.Helper()
	ctx := context.Background()
	p, err := analysis.Load(ctx, m, testRoot)
	if err != nil {
		return
	}
	check := func(what string, c *Change) {
		after, err := Preview(m, c)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		q, err := analysis.Load(ctx, after, testRoot)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		for _, f := range q.Findings {
			if f.Code == analysis.CodeSyntax && !hasSyntaxError(p, f.File) {
				t.Fatalf("%s left YAML that does not parse: %s", what, f.Message)
			}
		}
		if err := Verify(ctx, p, m, c); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	for _, name := range analysis.BeeuniTools() {
		for _, force := range []bool{false, true} {
			c, err := Eject(p, m, name, force)
			if err != nil {
				if strings.Contains(err.Error(), "\n") {
					t.Fatalf("a refusal of more than one line: %q", err)
				}
				continue
			}
			check("eject "+name, c)
		}
		if c, err := ReturnToBeeuni(p, m, name); err == nil {
			check("return "+name, c)
		}
	}
	for _, f := range p.Findings {
		fixes, err := QuickFixes(ctx, p, m, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range fixes {
			check(fmt.Sprintf("%s (%s)", c.Title, f.Code), c)
		}
	}
	for _, c := range SourceActions(p, m) {
		if c.Disabled == "" {
			check(c.Title, c)
		}
	}
}

func hasSyntaxError(p *analysis.Project, file string) bool {
	for _, f := range p.Findings {
		if f.Code == analysis.CodeSyntax && f.File == file {
			return true
		}
	}
	return false
}

// generate builds a project from a seed.
func generate(seed uint64) *vfs.Mem {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	eol := pick("\n", "\r\n")
	ind := strings.Repeat(" ", 2+r.IntN(3))
	names := []string{"web_search", "image_search", "scrape_webpage", "memory", "show", "lookup_order", "LookupOrder", "bash", "sho"}
	value := func(name string) string {
		return pick("beeuni:"+name, "beeuni:memory", "tools/"+name+".ts", `"beeuni:`+name+`"`, "'tools/x.ts'", "42", "~", "beeuni:"+name+"  # maintained by Beeuni")
	}
	toolsBlock := func(flow bool) string {
		var entries []string
		for _, n := range names {
			if r.IntN(3) == 0 {
				entries = append(entries, n+": "+value(n))
			}
		}
		if flow {
			for i, e := range entries {
				entries[i] = strings.SplitN(e, "  #", 2)[0]
			}
			return "tools: {" + strings.Join(entries, ", ") + "}" + pick("", "  # tools")
		}
		if len(entries) == 0 {
			return "tools:" + pick("", " ~", " {}", "  # none yet")
		}
		return "tools:" + pick("", "  # ours") + eol + ind + strings.Join(entries, eol+ind)
	}
	agentsBlock := func() string {
		list := func() []string {
			var out []string
			for _, n := range append(names, "read", "baash") {
				if r.IntN(4) == 0 {
					out = append(out, n)
				}
			}
			return out
		}
		var b strings.Builder
		b.WriteString("agents:")
		for _, a := range []string{"beeuni", "support"} {
			b.WriteString(eol + ind + a + ":" + eol + ind + ind + "tools:")
			items := list()
			switch r.IntN(5) {
			case 0:
				b.WriteString(" [" + strings.Join(items, ", ") + "]")
			case 1:
				if len(items) == 0 {
					b.WriteString(" []")
				}
				for _, it := range items {
					b.WriteString(eol + ind + ind + ind + "- " + it + pick("", "  # why"))
				}
			case 2:
				b.WriteString(" {exclude: [" + strings.Join(items, ", ") + "]}")
			case 3:
				if len(items) == 0 {
					b.WriteString(" {}")
				}
				for _, it := range items {
					b.WriteString(eol + ind + ind + ind + it + ": " + pick("false", "true"))
				}
			default:
				b.WriteString(" " + pick("all", "none"))
			}
		}
		return b.String()
	}
	m := vfs.NewMem()
	var parts []string
	imported := r.IntN(3) == 0
	if imported {
		parts = append(parts, "imports: [imports/tools.yaml]")
	}
	if r.IntN(4) != 0 && !imported {
		parts = append(parts, toolsBlock(r.IntN(3) == 0))
	}
	if r.IntN(2) == 0 {
		parts = append(parts, agentsBlock())
	}
	if r.IntN(3) == 0 {
		parts = append([]string{"# project " + fmt.Sprint(seed)}, parts...)
	}
	root := strings.Join(parts, eol)
	if r.IntN(4) != 0 && root != "" {
		root += eol
	}
	if r.IntN(5) == 0 {
		root = "\ufeff" + root
	}
	m.WriteFile(filepath.Join(testRoot, "beeuni.yaml"), []byte(root))
	if imported {
		m.WriteFile(filepath.Join(testRoot, "imports", "tools.yaml"), []byte(toolsBlock(r.IntN(2) == 0)+eol))
	}
	for _, n := range names {
		if r.IntN(3) == 0 {
			m.WriteFile(filepath.Join(testRoot, "tools", n+".ts"), []byte("export default {}\n"))
		}
		if r.IntN(6) == 0 {
			m.WriteFile(filepath.Join(testRoot, "harnesses", "opencode", "tools", n+".ts"), []byte("export default {}\n"))
		}
	}
	return m
}
