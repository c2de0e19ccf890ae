package release

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// The mason.nvim registry entry of the server, and the registry's JSON
// schema vendored from github.com/mason-org/registry-schema (schemas/, see
// testdata/mason-registry-schema/README.md).
const (
	masonEntry  = "../../editors/mason/packages/beeuni-lsp/package.yaml"
	masonSchema = "testdata/mason-registry-schema"
)

// compileMasonSchema loads every schema file under its $id, as the
// registry's bundler does, and compiles package.schema.json.
func compileMasonSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	var main string
	err := filepath.WalkDir(masonSchema, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			return err
		}
		id, _ := doc.(map[string]any)["$id"].(string)
		if id == "" {
			t.Fatalf("%s has no $id", path)
		}
		if filepath.Base(path) == "package.schema.json" {
			main = id
		}
		return c.AddResource(id, doc)
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(main)
	if err != nil {
		t.Fatalf("compile the mason registry schema: %v", err)
	}
	return s
}

// loadMasonEntry reads the entry as the JSON value mason's yq makes of it.
func loadMasonEntry(t *testing.T, content []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(content, &v); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestMasonEntryIsValid(t *testing.T) {
	schema := compileMasonSchema(t)
	content, err := os.ReadFile(masonEntry)
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(loadMasonEntry(t, content)); err != nil {
		t.Errorf("%s against the mason registry schema: %v", masonEntry, err)
	}
	// The schema does reject what mason would: a broken entry is refused.
	broken := map[string][2]string{
		"a platform mason does not know": {"target: win_arm64", "target: windows_arm64"},
		"a license that is not SPDX":     {"- Apache-2.0", "- Apache 2"},
		"a source that is no purl":       {"id: pkg:github/beeuni/beeuni-lsp@", "id: github.com/beeuni/beeuni-lsp@"},
		"an unknown category":            {"- LSP", "- Server"},
	}
	for name, edit := range broken {
		changed := strings.Replace(string(content), edit[0], edit[1], 1)
		if changed == string(content) {
			t.Fatalf("%s: %q not in the entry", name, edit[0])
		}
		if err := schema.Validate(loadMasonEntry(t, []byte(changed))); err == nil {
			t.Errorf("%s: the schema accepts it", name)
		}
	}
}

// TestMasonEntryNamesTheReleaseArchives: each asset of the entry is the
// archive scripts/release.sh makes for the target's platform, with the
// binary at its top level, and every platform of a release has one.
func TestMasonEntryNamesTheReleaseArchives(t *testing.T) {
	content, err := os.ReadFile(masonEntry)
	if err != nil {
		t.Fatal(err)
	}
	var entry struct {
		Source struct {
			ID    string `yaml:"id"`
			Asset []struct {
				Target any    `yaml:"target"`
				File   string `yaml:"file"`
				Bin    string `yaml:"bin"`
			} `yaml:"asset"`
		} `yaml:"source"`
		Bin map[string]string `yaml:"bin"`
	}
	if err := yaml.Unmarshal(content, &entry); err != nil {
		t.Fatal(err)
	}
	id := regexp.MustCompile(`^pkg:github/beeuni/beeuni-lsp@v(\d+\.\d+\.\d+)$`).FindStringSubmatch(entry.Source.ID)
	if id == nil {
		t.Fatalf("source.id %q: want pkg:github/beeuni/beeuni-lsp@v<version>", entry.Source.ID)
	}
	if entry.Bin["beeuni-lsp"] != "{{source.asset.bin}}" {
		t.Errorf("bin: %v, want beeuni-lsp: {{source.asset.bin}}", entry.Bin)
	}
	masonPlatform := func(target string) (Platform, bool) {
		m := regexp.MustCompile(`^(darwin|linux|win)_(x64|arm64)(_gnu|_musl)?$`).FindStringSubmatch(target)
		if m == nil || (m[1] == "linux") != (m[3] != "") {
			return Platform{}, false // linux needs its libc named (both are served), others none
		}
		return Platform{map[string]string{"darwin": "darwin", "linux": "linux", "win": "windows"}[m[1]], map[string]string{"x64": "amd64", "arm64": "arm64"}[m[2]]}, true
	}
	covered := map[string]bool{}
	for _, a := range entry.Source.Asset {
		var targets []string
		switch v := a.Target.(type) {
		case string:
			targets = []string{v}
		case []any:
			for _, x := range v {
				s, _ := x.(string)
				targets = append(targets, s)
			}
		}
		for _, target := range targets {
			p, ok := masonPlatform(target)
			if !ok {
				t.Errorf("target %s: not a platform of a release", target)
				continue
			}
			covered[target] = true
			// mason renders {{ version | strip_prefix "v" }} from the tag.
			file := strings.ReplaceAll(a.File, `{{ version | strip_prefix "v" }}`, id[1])
			if want := ArchiveName(id[1], p); file != want {
				t.Errorf("target %s: file %s, want the release's %s", target, file, want)
			}
			if a.Bin != p.Binary() {
				t.Errorf("target %s: bin %s, want %s (at the archive's top level)", target, a.Bin, p.Binary())
			}
		}
	}
	var want []string
	for _, p := range Platforms() {
		arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[p.GOARCH]
		switch p.GOOS {
		case "linux":
			want = append(want, "linux_"+arch+"_gnu", "linux_"+arch+"_musl")
		case "windows":
			want = append(want, "win_"+arch)
		default:
			want = append(want, p.GOOS+"_"+arch)
		}
	}
	var missing []string
	for _, target := range want {
		if !covered[target] {
			missing = append(missing, target)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no asset for %s", strings.Join(missing, ", "))
	}
}
