package release

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// THIRD_PARTY_LICENSES.txt of a real Go binary (the server, built from
// the module cache as a release builds it): an index naming Go and every module
// of the binary's build information, then each one's license text as the
// module cache holds it; the .vsix's adds the JavaScript packages. The
// check accepts it, and refuses it when a module is missing.
func TestThirdPartyLicensesOfARealBinary(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "beeuni-lsp")
	build := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-o", exe, "../../cmd/beeuni-lsp")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	bin, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "env", "GOMODCACHE", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	env := strings.Split(strings.TrimSpace(string(out)), "\n")
	goVersion, mods, err := GoModules(bin)
	if err != nil || len(mods) == 0 {
		t.Fatalf("GoModules: %v, %v", mods, err)
	}
	js := []JSPackage{{Name: "vscode-languageclient", Version: "11.0.0", License: "MIT"}}
	js[0].Files = append(js[0].Files, struct {
		Name string `json:"name"`
		Text string `json:"text"`
	}{"License.txt", "Copyright (c) Microsoft Corporation\n"})
	notices, err := ThirdPartyLicenses(bin, env[0], env[1], js)
	if err != nil {
		t.Fatal(err)
	}
	text := string(notices)
	goLicense, _ := os.ReadFile(env[1] + "/LICENSE")
	for _, want := range []string{
		"\n  Go standard library and runtime " + goVersion + "\n",
		"\nGo standard library and runtime " + goVersion + ": LICENSE\n" + strings.Repeat("=", 78) + "\n\n" + string(goLicense),
		"\n  vscode-languageclient 11.0.0 (MIT)\n",
		"\nvscode-languageclient 11.0.0: License.txt\n" + strings.Repeat("=", 78) + "\n\nCopyright (c) Microsoft Corporation\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the notices lack %q", want)
		}
	}
	for _, m := range mods {
		files, err := ModuleLicenses(env[0], m)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, "\n  "+m.Path+" "+m.Version+"\n") || !strings.Contains(text, files[0][1]) {
			t.Errorf("the notices lack %s %s or its %s", m.Path, m.Version, files[0][0])
		}
	}
	if p := checkNotices(notices, bin, true); len(p) > 0 {
		t.Errorf("checkNotices: %v", p)
	}
	cut := strings.Replace(text, "\n  "+mods[0].Path+" ", "\n  (dropped) ", 1)
	if p := checkNotices([]byte(cut), bin, true); len(p) != 1 || !strings.Contains(p[0], "lacks the license of "+mods[0].Path) {
		t.Errorf("checkNotices with %s dropped: %v", mods[0].Path, p)
	}
	// A module the cache does not hold is an error, never a silent gap.
	if _, err := ThirdPartyLicenses(bin, t.TempDir(), env[1], nil); err == nil || !strings.Contains(err.Error(), "go mod download") {
		t.Errorf("without the module cache: %v", err)
	}
}

func TestEscapeModulePath(t *testing.T) {
	if got := escapeModulePath("github.com/BurntSushi/toml"); got != "github.com/!burnt!sushi/toml" {
		t.Error(got)
	}
}

// The SBOM gains one library component per bundled npm package, with its
// package URL and license (an SPDX id or an expression).
func TestAddNPMComponents(t *testing.T) {
	sbom := []byte(`{"bomFormat":"CycloneDX","components":[{"name":"go.yaml.in/yaml/v3","purl":"pkg:golang/go.yaml.in/yaml/v3@v3.0.4"}]}`)
	out, err := AddNPMComponents(sbom, []JSPackage{
		{Name: "semver", Version: "7.8.6", License: "ISC"},
		{Name: "@scope/pkg", Version: "1.0.0", License: "(MIT OR Apache-2.0)"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components []struct {
			Name, Version, Purl string
			Licenses            []map[string]any
		}
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Components) != 3 || doc.Components[1].Purl != "pkg:npm/semver@7.8.6" || doc.Components[2].Purl != "pkg:npm/%40scope/pkg@1.0.0" {
		t.Fatalf("components: %+v", doc.Components)
	}
	if id := doc.Components[1].Licenses[0]["license"].(map[string]any)["id"]; id != "ISC" {
		t.Errorf("semver's license: %v", doc.Components[1].Licenses)
	}
	if expr := doc.Components[2].Licenses[0]["expression"]; expr != "(MIT OR Apache-2.0)" {
		t.Errorf("the expression: %v", doc.Components[2].Licenses)
	}
	again, _ := AddNPMComponents(sbom, []JSPackage{{Name: "semver", Version: "7.8.6", License: "ISC"}, {Name: "@scope/pkg", Version: "1.0.0", License: "(MIT OR Apache-2.0)"}})
	if string(again) != string(out) {
		t.Error("two runs give different bytes")
	}
}
