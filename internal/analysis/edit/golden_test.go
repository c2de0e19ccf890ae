package edit

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/beeunitools"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

var update = flag.Bool("update", false, "rewrite the want/ sections of testdata/golden/*.txtar")

const testRoot = "/repo"

// A golden case is a txtar archive: `action` (one line, see runAction), the
// project's files, and the expected result: want/<path> for every YAML file
// the action changes, want/created and want/deleted listing the files it
// creates and deletes, want/title the action's title (when the case gives
// one). An input line `{{beeuni source NAME}}` stands for the embedded
// Beeuni source of NAME, the bytes eject writes. Each case also runs with CRLF line breaks, with a
// byte order mark on beeuni.yaml, and without a final newline.
func TestGolden(t *testing.T) {
	paths, err := filepath.Glob("testdata/golden/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ar := txtar.Parse(data)
			action, inputs, wants := splitArchive(ar)
			got := runCase(t, action, inputs, "lf")
			if *update {
				writeWants(t, path, ar, got)
				return
			}
			compareWants(t, got, wants)
			for _, variant := range []string{"crlf", "bom", "nofinal"} {
				t.Run(variant, func(t *testing.T) {
					in := transform(inputs, variant)
					if in == nil {
						t.Skip("the variant does not apply to this case")
					}
					compareWants(t, runCase(t, action, in, variant), transform(wants, variant))
				})
			}
		})
	}
}

type result struct {
	title   string
	files   map[string]string // changed YAML files, repo path → content
	created []string
	deleted []string
}

func splitArchive(ar *txtar.Archive) (action string, inputs, wants map[string]string) {
	inputs, wants = map[string]string{}, map[string]string{}
	for _, f := range ar.Files {
		switch {
		case f.Name == "action":
			action = strings.TrimSpace(string(f.Data))
		case strings.HasPrefix(f.Name, "want/"):
			wants[strings.TrimPrefix(f.Name, "want/")] = string(f.Data)
		default:
			inputs[f.Name] = expandSources(string(f.Data))
		}
	}
	return action, inputs, wants
}

// expandSources replaces each line `{{beeuni source NAME}}` of content
// with the embedded Beeuni source of NAME.
func expandSources(content string) string {
	return sourceLine.ReplaceAllStringFunc(content, func(line string) string {
		name := sourceLine.FindStringSubmatch(line)[1]
		src, ok := beeunitools.Source(name)
		if !ok {
			return line
		}
		return string(src)
	})
}

var sourceLine = regexp.MustCompile(`(?m)^\{\{beeuni source (\w+)\}\}\n`)

// transform makes the CRLF, BOM and no-final-newline variants of a set of
// files (inputs or wants). It returns nil when the variant does not apply.
func transform(files map[string]string, variant string) map[string]string {
	out := map[string]string{}
	for name, content := range files {
		yaml := strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
		switch {
		case variant == "crlf" && yaml:
			content = strings.ReplaceAll(content, "\n", "\r\n")
		case variant == "bom" && name == "beeuni.yaml":
			content = "\ufeff" + content
		case variant == "nofinal" && name == "beeuni.yaml":
			if !strings.HasSuffix(content, "\n") {
				if content != "" {
					return nil
				}
			}
			content = strings.TrimSuffix(content, "\n")
		}
		out[name] = content
	}
	return out
}

func memFrom(files map[string]string) *vfs.Mem {
	m := vfs.NewMem()
	for name, content := range files {
		if i := strings.Index(name, " -> "); i >= 0 {
			m.Symlink(filepath.Join(testRoot, filepath.FromSlash(name[:i])), name[i+4:])
			continue
		}
		m.WriteFile(filepath.Join(testRoot, filepath.FromSlash(name)), []byte(content))
	}
	return m
}

func load(t *testing.T, fsys vfs.FS) *analysis.Project {
	t.Helper()
	p, err := analysis.Load(context.Background(), fsys, testRoot)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return p
}

// runAction performs one action line on a project and returns the change.
//
//	eject NAME [force]      return NAME
//	fix CODE [NAME [INDEX]] the INDEXth quick fix of the first finding CODE about NAME
//	refactor FILE TEXT      the first refactor at the first occurrence of TEXT in FILE
//	source TITLE            the source action with that title
func runAction(t *testing.T, p *analysis.Project, fsys vfs.FS, action string) *Change {
	t.Helper()
	fields := strings.Fields(action)
	switch fields[0] {
	case "eject":
		c, err := Eject(p, fsys, fields[1], len(fields) > 2 && fields[2] == "force")
		if err != nil {
			t.Fatalf("eject refused: %v", err)
		}
		return c
	case "return":
		c, err := ReturnToBeeuni(p, fsys, fields[1])
		if err != nil {
			t.Fatalf("return refused: %v", err)
		}
		return c
	case "fix":
		index := 0
		if len(fields) < 3 {
			fields = append(fields, "")
		}
		if len(fields) > 3 {
			index, _ = strconv.Atoi(fields[3])
		}
		for _, f := range p.Findings {
			if f.Code != fields[1] || f.Data[analysis.DataName] != fields[2] {
				continue
			}
			fixes, err := QuickFixes(t.Context(), p, fsys, f)
			if err != nil {
				t.Fatal(err)
			}
			if index >= len(fixes) {
				t.Fatalf("finding %s %q has %d fixes, want at least %d", f.Code, f.Message, len(fixes), index+1)
			}
			return fixes[index]
		}
		t.Fatalf("no finding %s about %s among %v", fields[1], fields[2], codes(p))
	case "refactor":
		file := filepath.Join(testRoot, filepath.FromSlash(fields[1]))
		content, err := fsys.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(fields[2:], " ")
		at := bytes.Index(content, []byte(text))
		if at < 0 {
			t.Fatalf("%q not in %s", text, fields[1])
		}
		for _, c := range Refactors(p, fsys, file, at) {
			if c.Disabled == "" {
				return c
			}
		}
		t.Fatalf("no enabled refactor at %q", text)
	case "source":
		title := strings.Join(fields[1:], " ")
		for _, c := range SourceActions(p, fsys) {
			if c.Title == title {
				return c
			}
		}
		t.Fatalf("no source action %q", title)
	}
	t.Fatalf("unknown action %q", action)
	return nil
}

func codes(p *analysis.Project) []string {
	var out []string
	for _, f := range p.Findings {
		out = append(out, f.Code+":"+f.Data[analysis.DataName])
	}
	return out
}

// runCase applies the action to the project, re-loads it, checks the
// guarantees every edit makes, and returns what changed.
func runCase(t *testing.T, action string, inputs map[string]string, variant string) result {
	t.Helper()
	fsys := memFrom(inputs)
	p := load(t, fsys)
	c := runAction(t, p, fsys, action)
	if err := Verify(context.Background(), p, fsys, c); err != nil {
		t.Fatalf("%s: %v", c.Title, err)
	}
	after, err := Preview(fsys, c)
	if err != nil {
		t.Fatal(err)
	}
	q := load(t, after)
	for _, f := range q.Findings {
		if f.Code == analysis.CodeSyntax {
			t.Fatalf("%s left a YAML error: %s", c.Title, f.Message)
		}
	}
	res := result{title: c.Title, files: map[string]string{}}
	for _, file := range c.Files() {
		relPath := p.Rel(file)
		if len(c.EditsOf(file)) > 0 {
			data, _ := after.ReadFile(file)
			res.files[relPath] = string(data)
			checkConventions(t, inputs[relPath], string(data), variant, replacedComment(action))
		}
	}
	for _, nf := range c.Create {
		res.created = append(res.created, p.Rel(nf.Path))
	}
	for _, d := range c.Delete {
		res.deleted = append(res.deleted, p.Rel(d))
	}
	sort.Strings(res.created)
	sort.Strings(res.deleted)
	return res
}

// checkConventions checks what every edit keeps: line breaks, the BOM, the
// final newline (or its absence), and every comment of the original that
// the edit did not replace on purpose.
func checkConventions(t *testing.T, before, after, variant string, replaced func(line string) bool) {
	t.Helper()
	if strings.Contains(before, "\r\n") && strings.Count(after, "\n") != strings.Count(after, "\r\n") {
		t.Errorf("a CRLF file got LF line breaks:\n%q", after)
	}
	if !strings.Contains(before, "\r") && strings.Contains(after, "\r") {
		t.Errorf("an LF file got CR line breaks")
	}
	if strings.HasPrefix(before, "\ufeff") != strings.HasPrefix(after, "\ufeff") {
		t.Errorf("the byte order mark changed")
	}
	if before != "" && strings.HasSuffix(before, "\n") != strings.HasSuffix(after, "\n") {
		t.Errorf("the final newline changed (%s)", variant)
	}
	for _, line := range strings.Split(strings.ReplaceAll(before, "\r\n", "\n"), "\n") {
		i := strings.Index(line, "#")
		if i < 0 {
			continue
		}
		comment := strings.TrimSpace(line[i:])
		if replaced(line) || strings.Contains(comment, "drop me") {
			continue // replaced on purpose: eject rewrites the entry's comment, a removed item takes its own
		}
		if !strings.Contains(after, comment) {
			t.Errorf("comment %q was lost", comment)
		}
	}
}

// replacedComment tells which lines' comments an action replaces on
// purpose: eject ends the entry's line with `# ejected from beeuni:<name>`.
func replacedComment(action string) func(line string) bool {
	fields := strings.Fields(action)
	return func(line string) bool {
		switch fields[0] {
		case "eject", "return", "refactor", "source":
			return strings.Contains(line, "ejected from") || strings.Contains(line, "beeuni:"+fields[len(fields)-1]) ||
				strings.Contains(line, fields[len(fields)-1]+":") || strings.Contains(line, "maintained by Beeuni") ||
				strings.Contains(line, "tools: {") // a flow mapping: the line's comment is the entry's

		}
		return false
	}
}

func compareWants(t *testing.T, got result, wants map[string]string) {
	t.Helper()
	for name, content := range got.files {
		want, ok := wants[name]
		if !ok {
			t.Errorf("changed %s, which the case does not expect:\n%s", name, content)
			continue
		}
		if content != want {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", name, content, want)
		}
	}
	for name := range wants {
		if name == "created" || name == "deleted" || name == "title" {
			continue
		}
		if _, ok := got.files[name]; !ok {
			t.Errorf("want a change of %s, got none", name)
		}
	}
	if g, w := strings.Join(got.created, "\n"), strings.TrimSpace(wants["created"]); g != w {
		t.Errorf("created %q, want %q", g, w)
	}
	if g, w := strings.Join(got.deleted, "\n"), strings.TrimSpace(wants["deleted"]); g != w {
		t.Errorf("deleted %q, want %q", g, w)
	}
	if w, ok := wants["title"]; ok && got.title != strings.TrimSpace(w) {
		t.Errorf("title %q, want %q", got.title, strings.TrimSpace(w))
	}
}

func writeWants(t *testing.T, path string, ar *txtar.Archive, got result) {
	var files []txtar.File
	for _, f := range ar.Files {
		if !strings.HasPrefix(f.Name, "want/") {
			files = append(files, f)
		}
	}
	names := make([]string, 0, len(got.files))
	for n := range got.files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		files = append(files, txtar.File{Name: "want/" + n, Data: []byte(got.files[n])})
	}
	if len(got.created) > 0 {
		files = append(files, txtar.File{Name: "want/created", Data: []byte(strings.Join(got.created, "\n") + "\n")})
	}
	if len(got.deleted) > 0 {
		files = append(files, txtar.File{Name: "want/deleted", Data: []byte(strings.Join(got.deleted, "\n") + "\n")})
	}
	if strings.HasPrefix(got.title, ReturnTitle("")) {
		files = append(files, txtar.File{Name: "want/title", Data: []byte(got.title + "\n")})
	}
	ar.Files = files
	if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
	fmt.Println("updated", path)
}
