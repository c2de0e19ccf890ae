package bench

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// manifestShape is the part of a manifest the generator must get right.
type manifestShape struct {
	Imports []string          `yaml:"imports"`
	Tools   map[string]string `yaml:"tools"`
	Agents  map[string]struct {
		Tools []string `yaml:"tools"`
	} `yaml:"agents"`
}

func TestGenerate(t *testing.T) {
	for _, n := range []int{1, 2, 10, 250} {
		t.Run("tools="+strconv.Itoa(n), func(t *testing.T) {
			dir := t.TempDir()
			w, err := Generate(dir, n)
			if err != nil {
				t.Fatal(err)
			}
			var root manifestShape
			if err := yaml.Unmarshal([]byte(w.Content), &root); err != nil {
				t.Fatalf("beeuni.yaml does not parse: %v", err)
			}
			declared := map[string]string{}
			for k, v := range root.Tools {
				declared[k] = v
			}
			if len(root.Imports) != len(w.Imports) {
				t.Errorf("manifest imports %d files, workspace lists %d", len(root.Imports), len(w.Imports))
			}
			for _, rel := range root.Imports {
				data, err := os.ReadFile(filepath.Join(dir, rel))
				if err != nil {
					t.Fatal(err)
				}
				var imp manifestShape
				if err := yaml.Unmarshal(data, &imp); err != nil {
					t.Fatalf("%s does not parse: %v", rel, err)
				}
				if len(imp.Tools) == 0 {
					t.Errorf("%s declares no tool", rel)
				}
				for k, v := range imp.Tools {
					if _, dup := declared[k]; dup {
						t.Errorf("%s declared twice", k)
					}
					declared[k] = v
				}
			}
			for _, b := range beeuniTools {
				if declared[b] != "beeuni:"+b {
					t.Errorf("Beeuni tool %s declared as %q", b, declared[b])
				}
			}
			if got := len(declared) - len(beeuniTools); got != n {
				t.Errorf("%d project tools declared, want %d", got, n)
			}
			if len(w.Names) != n {
				t.Errorf("Names has %d entries, want %d", len(w.Names), n)
			}
			snake := regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)
			for _, name := range w.Names {
				path, ok := declared[name]
				if !ok {
					t.Errorf("%s not declared", name)
					continue
				}
				if !snake.MatchString(name) {
					t.Errorf("%s is not snake_case", name)
				}
				src, err := os.ReadFile(filepath.Join(dir, path))
				if err != nil {
					t.Errorf("module of %s: %v", name, err)
					continue
				}
				for _, want := range []string{"export default {", "description: '", "type: 'object'", "async execute(args: Args, context: Context)", "signal: context.signal"} {
					if !strings.Contains(string(src), want) && !(want == "signal: context.signal" && strings.Contains(string(src), "getJSON(")) {
						t.Errorf("module of %s lacks %q", name, want)
					}
				}
			}
			if want := (n + 9) / 10; len(root.Agents) != want {
				t.Errorf("%d agents, want %d", len(root.Agents), want)
			}
			listed := 0
			for name, a := range root.Agents {
				projectTools := 0
				for _, tool := range a.Tools {
					if _, ok := declared[tool]; ok && !strings.HasPrefix(declared[tool], "beeuni:") {
						projectTools++
					}
				}
				if projectTools == 0 || projectTools > 10 {
					t.Errorf("agent %s lists %d project tools, want 1 to 10", name, projectTools)
				}
				listed += projectTools
			}
			if listed != n {
				t.Errorf("agents list %d project tools in all, want %d", listed, n)
			}
			if len(w.Broken) == 0 {
				t.Fatal("no broken module")
			}
			for _, b := range w.Broken {
				rel, _ := filepath.Rel(dir, b)
				name := strings.TrimSuffix(filepath.Base(rel), ".ts")
				if root.Tools[name] != filepath.ToSlash(rel) {
					t.Errorf("broken module %s is not declared in beeuni.yaml", rel)
				}
				src, _ := os.ReadFile(b)
				if !strings.Contains(string(src), "from 'zod'") {
					t.Errorf("broken module %s imports nothing missing", rel)
				}
			}
			checkMark := func(name string, off int, want string) {
				t.Helper()
				lineStart := strings.LastIndexByte(w.Content[:off], '\n') + 1
				lineEnd := lineStart + strings.IndexByte(w.Content[lineStart:], '\n')
				if line := w.Content[lineStart:lineEnd]; !strings.Contains(line, want) {
					t.Errorf("mark %s on line %q, want a line holding %q", name, line, want)
				}
			}
			first := ToolName(0)
			checkMark("BeeuniValue", w.Marks.BeeuniValue, "web_search: beeuni:web_search")
			checkMark("CompleteValue", w.Marks.CompleteValue, "web_search: beeuni:")
			checkMark("ToolKey", w.Marks.ToolKey, first+": tools/"+first+".ts")
			checkMark("ModulePath", w.Marks.ModulePath, "tools/"+first+".ts")
			checkMark("AgentItem", w.Marks.AgentItem, "- "+first)
			if got := w.Content[w.Marks.ToolKeyEnd-len(first) : w.Marks.ToolKeyEnd]; got != first {
				t.Errorf("ToolKeyEnd ends %q, want %q", got, first)
			}
			if c := w.Content[w.Marks.AgentItemEnd]; c != '\n' {
				t.Errorf("AgentItemEnd is before %q, want the end of a line", c)
			}
			if w.Content[w.Marks.CommentEnd:] != "\n" {
				t.Errorf("CommentEnd is not before the final newline")
			}
		})
	}
}

func TestGenerateRefusesNoTools(t *testing.T) {
	if _, err := Generate(t.TempDir(), 0); err == nil {
		t.Fatal("Generate(0) succeeded")
	}
}
