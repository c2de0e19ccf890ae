package edit_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/analysis/edit"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// FuzzFixesOnGeneratedManifests generates a manifest (and an imported file)
// from a seed, in block or flow style, LF or CRLF, with comments, and runs
// every quick fix of every finding and the eject of every Beeuni tool. The
// check is independent of the package's own verification: the change is
// applied by splicing bytes here, the edited YAML must parse as one
// document with yaml.v3, the finding a quick fix fixes must be gone, an
// ejected tool must be overridden by tools/<name>.ts, and no change may
// touch a file outside the repository. raw, when not empty, is used as the
// manifest instead of the generated one.
func FuzzFixesOnGeneratedManifests(f *testing.F) {
	for seed := range uint64(12) {
		f.Add(seed, []byte(nil))
	}
	f.Add(uint64(0), []byte("tools:\n  webSearch: beeuni:web_search\n  lookup: tools/lookup.ts\nagents:\n  a:\n    tools: [web_serch, show]\n"))
	f.Add(uint64(0), []byte("tools: {x: beeuni:x, memory: beeuni:show}  # flow\nagents: {b: {tools: {exclude: [memroy]}}}\n"))
	f.Fuzz(func(t *testing.T, seed uint64, raw []byte) {
		const root = "/repo"
		manifest, imported := generate(rand.New(rand.NewPCG(seed, 1)))
		if len(raw) > 0 {
			manifest = string(raw)
		}
		fsys := vfs.NewMem()
		fsys.WriteFile(filepath.Join(root, "beeuni.yaml"), []byte(manifest))
		fsys.WriteFile(filepath.Join(root, "lib/more.yaml"), []byte(imported))
		fsys.WriteFile(filepath.Join(root, "tools/present.ts"), []byte(presentModule))
		fsys.WriteFile(filepath.Join(root, "harnesses/opencode/tools/memory.ts"), []byte("export default {}\n"))
		p, err := analysis.Load(context.Background(), fsys, root)
		if err != nil {
			t.Fatal(err)
		}
		if testing.Verbose() {
			t.Logf("manifest:\n%s\nfindings: %d", manifest, len(p.Findings))
		}
		for _, fd := range p.Findings {
			fixes, err := edit.QuickFixes(t.Context(), p, fsys, fd)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range fixes {
				after := applyChange(t, p, fsys, c)
				q := reload(t, p, after, root)
				if n, m := countLike(p, fd), countLike(q, fd); m >= n {
					t.Fatalf("quick fix %q of %s %q leaves it (%d before, %d after); manifest:\n%s\nafter:\n%s",
						c.Title, fd.Code, fd.Message, n, m, manifest, readOr(after, filepath.Join(root, "beeuni.yaml")))
				}
			}
		}
		for _, name := range analysis.BeeuniTools() {
			for _, force := range []bool{false, true} {
				c, err := edit.Eject(p, fsys, name, force)
				if err != nil {
					if strings.Contains(err.Error(), "\n") {
						t.Fatalf("eject %s refusal is not one line: %q", name, err)
					}
					continue
				}
				after := applyChange(t, p, fsys, c)
				q := reload(t, p, after, root)
				tool, ok := q.Model.Tool(name)
				if !ok || tool.Kind != analysis.KindOverridden || tool.Source != edit.EjectedPath(name) {
					t.Fatalf("after eject %s (force %v): tool %+v, %v; manifest:\n%s\nafter:\n%s", name, force, tool, ok,
						manifest, readOr(after, filepath.Join(root, "beeuni.yaml")))
				}
			}
		}
	})
}

const presentModule = "export default { description: 'd', parameters: { type: 'object', properties: {} }, execute() { return '' } }\n"

// generate builds a manifest and an imported file from r.
func generate(r *rand.Rand) (manifest, imported string) {
	names := []string{"web_search", "image_search", "scrape_webpage", "memory", "show", "lookup_order", "LookupOrder",
		"lookup-order", "bash", "list", "webSearch", "present", "x", "very_long_" + strings.Repeat("n", 60)}
	values := []string{"beeuni:web_search", "beeuni:show", "beeuni:nope", "tools/present.ts", "tools/missing.ts",
		"tools/new.mjs", "../out.ts", "/abs.ts", "tools/x.txt", "", "1", "null", "[a]", "{a: b}", "'beeuni:'"}
	agentNames := []string{"bash", "read", "web_serch", "show", "memory", "memroy", "lookup_order", "present", "*", "task", "nope", "7"}
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	flow := r.IntN(3) == 0
	var b strings.Builder
	if r.IntN(4) == 0 {
		b.WriteString("imports: [lib/more.yaml]\n")
	}
	if r.IntN(5) > 0 {
		n := r.IntN(6)
		if flow {
			b.WriteString("tools: {")
			for i := range n {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%s: %s", pick(names), quoteMaybe(r, pick(values)))
			}
			b.WriteString("}")
			if r.IntN(2) == 0 {
				b.WriteString("  # a comment")
			}
			b.WriteString("\n")
		} else {
			b.WriteString("tools:\n")
			for range n {
				fmt.Fprintf(&b, "  %s: %s", pick(names), quoteMaybe(r, pick(values)))
				if r.IntN(2) == 0 {
					b.WriteString("   # maintained by Beeuni, updated automatically")
				}
				b.WriteString("\n")
			}
			if r.IntN(3) == 0 {
				b.WriteString("  # lookup_order: tools/lookup_order.ts\n")
			}
		}
	}
	if r.IntN(2) == 0 {
		b.WriteString("agents:\n")
		for i := range r.IntN(3) + 1 {
			fmt.Fprintf(&b, "  agent%d:\n", i)
			switch r.IntN(5) {
			case 0:
				fmt.Fprintf(&b, "    tools: [%s, %s]\n", pick(agentNames), pick(agentNames))
			case 1:
				fmt.Fprintf(&b, "    tools:\n      - %s\n      - %s\n", pick(agentNames), pick(agentNames))
			case 2:
				fmt.Fprintf(&b, "    tools:\n      exclude: [%s]\n", pick(agentNames))
			case 3:
				fmt.Fprintf(&b, "    tools: {%s: false, %s: true}\n", pick(agentNames), pick(agentNames))
			default:
				fmt.Fprintf(&b, "    tools: %s\n", pick([]string{"all", "none", "3", "sometimes"}))
			}
		}
	}
	manifest = b.String()
	if r.IntN(4) == 0 {
		manifest = strings.ReplaceAll(manifest, "\n", "\r\n")
	}
	if r.IntN(5) == 0 {
		manifest = strings.TrimSuffix(manifest, "\n")
	}
	if r.IntN(6) == 0 {
		manifest = "\ufeff" + manifest
	}
	imported = fmt.Sprintf("tools:\n  %s: %s\n", pick(names), pick(values))
	return manifest, imported
}

func quoteMaybe(r *rand.Rand, v string) string {
	if v != "" && r.IntN(4) == 0 {
		return "'" + v + "'"
	}
	return v
}

// applyChange applies c over fsys by splicing bytes (not with the package's
// ApplyText), checks that every file it touches is inside the repository
// and that every edited YAML file parses as one document, and returns the
// resulting tree.
func applyChange(t *testing.T, p *analysis.Project, fsys *vfs.Mem, c *edit.Change) *vfs.Mem {
	t.Helper()
	if c.Disabled != "" {
		t.Fatalf("change %q offered disabled: %s", c.Title, c.Disabled)
	}
	out := vfs.NewMem()
	copyTree(t, fsys, out, "/")
	for _, file := range c.Files() {
		if !vfs.Within(p.Root, file) {
			t.Fatalf("change %q touches %s, outside the repository", c.Title, file)
		}
	}
	byFile := map[string][]edit.TextEdit{}
	for _, e := range c.Edits {
		byFile[e.File] = append(byFile[e.File], e)
	}
	for file, edits := range byFile {
		content, err := fsys.ReadFile(file)
		if err != nil {
			t.Fatalf("change %q edits %s: %v", c.Title, file, err)
		}
		sort.SliceStable(edits, func(i, j int) bool { return edits[i].Start > edits[j].Start })
		next := append([]byte(nil), content...)
		prevStart := len(content) + 1
		for _, e := range edits {
			if e.Start < 0 || e.End < e.Start || e.End > len(content) || e.End > prevStart {
				t.Fatalf("change %q: edit [%d,%d) does not fit %s (%d bytes) or overlaps", c.Title, e.Start, e.End, file, len(content))
			}
			next = append(next[:e.Start:e.Start], append([]byte(e.NewText), next[e.End:]...)...)
			prevStart = e.Start
		}
		if strings.HasSuffix(file, ".yaml") || strings.HasSuffix(file, ".yml") {
			var doc yaml.Node
			dec := yaml.NewDecoder(bytes.NewReader(next))
			if err := dec.Decode(&doc); err != nil && len(bytes.TrimSpace(next)) > 0 && parsesBefore(p, file) {
				t.Fatalf("change %q leaves %s unparsable: %v\n%s", c.Title, file, err, next)
			}
		}
		out.WriteFile(file, next)
	}
	for _, nf := range c.Create {
		out.WriteFile(nf.Path, nf.Content)
	}
	for _, d := range c.Delete {
		out.Remove(d)
	}
	return out
}

func copyTree(t *testing.T, from vfs.FS, to *vfs.Mem, dir string) {
	entries, err := from.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if e.IsDir() {
			copyTree(t, from, to, p)
			continue
		}
		if target, err := from.EvalSymlinks(p); err == nil && target != p {
			to.Symlink(p, target)
			continue
		}
		if data, err := from.ReadFile(p); err == nil {
			to.WriteFile(p, data)
		}
	}
}

// parsesBefore reports whether file was loaded and parsed before the change.
func parsesBefore(p *analysis.Project, file string) bool {
	f := p.File(file)
	return f != nil && f.SyntaxError == nil
}

func reload(t *testing.T, p *analysis.Project, fsys vfs.FS, root string) *analysis.Project {
	t.Helper()
	q, err := analysis.Load(context.Background(), fsys, root)
	if err != nil {
		t.Fatalf("the project no longer loads: %v", err)
	}
	for _, f := range q.Files {
		if f.SyntaxError != nil && parsesBefore(p, f.Path) {
			t.Fatalf("%s no longer parses: %s", f.Rel, f.SyntaxError.Message)
		}
	}
	return q
}

// countLike counts the findings of p that are the same problem as fd: same
// file, code and message.
func countLike(p *analysis.Project, fd diag.Finding) int {
	n := 0
	for _, f := range p.Findings {
		if f.File == fd.File && f.Code == fd.Code && f.Message == fd.Message {
			n++
		}
	}
	return n
}

func readOr(fsys vfs.FS, p string) string {
	data, err := fsys.ReadFile(p)
	if err != nil {
		return err.Error()
	}
	return string(data)
}
