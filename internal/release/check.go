package release

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// CheckOptions is what a built dist/ folder must match.
type CheckOptions struct {
	Version       string         // without the "v"
	License       []byte         // the repository's LICENSE, in every archive
	Readme        []byte         // the repository's README.md, in every archive
	ModTime       time.Time      // the commit's time: every archive entry's
	VSCodeTargets []VSCodeTarget // one .vsix each
	SBOM          bool           // an SBOM is expected
	Schema        []byte         // the repository's schema/beeuni.schema.json, published as SchemaName
}

// CheckDist checks a dist/ folder as scripts/release.sh leaves it: exactly
// the expected assets; each archive opens and holds, at its top level, the
// binary of its platform (by its header) carrying the version, LICENSE and
// README.md, and THIRD_PARTY_LICENSES.txt naming every module the binary
// links, with fixed modes and times; each .vsix holds its target's
// binary, the same as the archive's, and the license texts of its Go
// modules and bundled JavaScript; the SBOM covers that JavaScript; the JSON Schema is the repository's;
// checksums.txt verifies. It returns
// every problem found, one sentence each; none means the folder is right.
func CheckDist(dir string, o CheckOptions) []string {
	if err := CheckVersion(o.Version); err != nil {
		return []string{err.Error()}
	}
	var problems []string
	report := func(asset, format string, args ...any) {
		problems = append(problems, asset+": "+fmt.Sprintf(format, args...))
	}
	want := map[string]bool{ChecksumsName: true, MarkerName: true}
	binaries := map[Platform][]byte{}
	for _, p := range Platforms() {
		name := ArchiveName(o.Version, p)
		want[name] = true
		bin, msgs := checkArchive(filepath.Join(dir, name), p, o)
		for _, m := range msgs {
			report(name, "%s", m)
		}
		binaries[p] = bin
	}
	for _, t := range o.VSCodeTargets {
		name := VSIXName(o.Version, t)
		want[name] = true
		for _, m := range checkVSIX(filepath.Join(dir, name), t, o, binaries[t.Platform()]) {
			report(name, "%s", m)
		}
	}
	want[SchemaName] = true
	if data, err := os.ReadFile(filepath.Join(dir, SchemaName)); err == nil && !bytes.Equal(data, o.Schema) {
		report(SchemaName, "differs from the repository's schema/beeuni.schema.json")
	}
	if o.SBOM {
		name := SBOMName(o.Version)
		want[name] = true
		for _, m := range checkSBOM(filepath.Join(dir, name)) {
			report(name, "%s", m)
		}
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return append(problems, err.Error())
	}
	have := map[string]bool{}
	for _, de := range des {
		have[de.Name()] = true
		if !want[de.Name()] {
			report(de.Name(), "not an asset of release %s: remove it or the code that writes it", o.Version)
		}
	}
	var missing []string
	for name := range want {
		if !have[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	for _, name := range missing {
		report(name, "missing")
	}
	if have[ChecksumsName] {
		problems = append(problems, VerifyChecksums(dir)...)
	}
	return problems
}

// checkArchive checks one archive and returns its binary (nil when it has
// none) and its problems.
func checkArchive(path string, p Platform, o CheckOptions) ([]byte, []string) {
	data, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil // reported as missing
		}
		return nil, []string{err.Error()}
	}
	entries, err := ReadArchive(path, data)
	if err != nil {
		return nil, []string{fmt.Sprintf("does not open: %v", err)}
	}
	var problems []string
	files := map[string]Entry{}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
		files[e.Name] = e
		if !e.ModTime.Equal(o.ModTime) {
			problems = append(problems, fmt.Sprintf("%s has time %s, want the commit's %s", e.Name, e.ModTime.UTC().Format(time.RFC3339), o.ModTime.UTC().Format(time.RFC3339)))
		}
	}
	sort.Strings(names)
	wantNames := []string{"LICENSE", NoticesName, "README.md", p.Binary()}
	sort.Strings(wantNames)
	if strings.Join(names, " ") != strings.Join(wantNames, " ") {
		problems = append(problems, fmt.Sprintf("holds %q, want exactly %q at its top level", names, wantNames))
	}
	modes := map[string]fs.FileMode{p.Binary(): 0o755, "LICENSE": 0o644, NoticesName: 0o644, "README.md": 0o644}
	for name, mode := range modes {
		if e, ok := files[name]; ok && e.Mode != mode {
			problems = append(problems, fmt.Sprintf("%s has mode %v, want %v", name, e.Mode, mode))
		}
	}
	if e, ok := files["LICENSE"]; ok && !bytes.Equal(e.Data, o.License) {
		problems = append(problems, "LICENSE is not the repository's")
	}
	if e, ok := files["README.md"]; ok && !bytes.Equal(e.Data, o.Readme) {
		problems = append(problems, "README.md is not the repository's")
	}
	bin, ok := files[p.Binary()]
	if !ok {
		return nil, problems
	}
	if n, ok := files[NoticesName]; ok {
		problems = append(problems, checkNotices(n.Data, bin.Data, false)...)
	}
	return bin.Data, append(problems, checkBinary(p.Binary(), bin.Data, p, o.Version)...)
}

// checkBinary checks that data is an executable for p carrying version.
func checkBinary(name string, data []byte, p Platform, version string) []string {
	var problems []string
	got, err := BinaryPlatform(data)
	switch {
	case err != nil:
		problems = append(problems, fmt.Sprintf("%s: %v", name, err))
	case got != p:
		problems = append(problems, fmt.Sprintf("%s is built for %s, want %s", name, got, p))
	}
	// The linked version is a string constant of the binary (-trimpath
	// keeps -ldflags out of the build information).
	if !bytes.Contains(data, []byte(version)) {
		problems = append(problems, fmt.Sprintf("%s does not carry version %s: link it with -X github.com/beeuni/beeuni-lsp/internal/version.Linked=%s", name, version, version))
	}
	return problems
}

var (
	vsixIdentity = regexp.MustCompile(`<Identity [^>]*>`)
	strayPattern = regexp.MustCompile(`^extension/(node_modules|src|test|scripts|e2e)/|\.map$`)
)

// checkVSIX checks one .vsix: its manifest names target t and the version,
// it holds exactly one binary, executable, built for t's platform and the
// same as the archive's (archived; nil when that archive has none), the
// extension bundle, and no sources, tests or node_modules.
func checkVSIX(path string, t VSCodeTarget, o CheckOptions, archived []byte) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return []string{err.Error()}
	}
	entries, err := ReadArchive(".zip", data)
	if err != nil {
		return []string{fmt.Sprintf("does not open: %v", err)}
	}
	var problems []string
	files := map[string]Entry{}
	var bins, stray []string
	for _, e := range entries {
		files[e.Name] = e
		if strings.HasPrefix(e.Name, "extension/bin/") {
			bins = append(bins, e.Name)
		}
		if strayPattern.MatchString(e.Name) {
			stray = append(stray, e.Name)
		}
	}
	identity := vsixIdentity.FindString(string(files["extension.vsixmanifest"].Data))
	if !strings.Contains(identity, fmt.Sprintf(` Version="%s"`, o.Version)) || !strings.Contains(identity, fmt.Sprintf(` TargetPlatform="%s"`, t.VSCE)) {
		problems = append(problems, fmt.Sprintf("extension.vsixmanifest's identity %q does not name version %s and target %s", identity, o.Version, t.VSCE))
	}
	var pkg packedManifest
	if err := json.Unmarshal(files["extension/package.json"].Data, &pkg); err != nil || pkg.Version != o.Version {
		problems = append(problems, fmt.Sprintf("extension/package.json does not have version %s", o.Version))
	}
	for _, f := range pkg.namedFiles() {
		if _, ok := files["extension/"+filepath.ToSlash(filepath.Clean(f))]; !ok {
			problems = append(problems, fmt.Sprintf("extension/package.json names %s, which is not packed", f))
		}
	}
	if _, ok := files["extension/dist/extension.js"]; !ok || pkg.Main != "./dist/extension.js" {
		problems = append(problems, "no extension bundle extension/dist/extension.js as package.json's main")
	}
	if len(stray) > 0 {
		problems = append(problems, fmt.Sprintf("holds sources, tests or node_modules: %q", stray))
	}
	binName := "extension/bin/" + t.Binary
	if len(bins) != 1 || bins[0] != binName {
		return append(problems, fmt.Sprintf("holds binaries %q, want exactly %s", bins, binName))
	}
	bin := files[binName]
	if n, ok := files["extension/"+NoticesName]; !ok {
		problems = append(problems, fmt.Sprintf("no extension/%s: the license texts of the Go modules and JavaScript it bundles", NoticesName))
	} else {
		problems = append(problems, checkNotices(n.Data, bin.Data, true)...)
	}
	if bin.Mode&0o100 == 0 {
		problems = append(problems, fmt.Sprintf("%s has mode %v: not executable", binName, bin.Mode))
	}
	problems = append(problems, checkBinary(binName, bin.Data, t.Platform(), o.Version)...)
	if archived != nil && !bytes.Equal(bin.Data, archived) {
		problems = append(problems, fmt.Sprintf("%s is not the binary of %s", binName, ArchiveName(o.Version, t.Platform())))
	}
	return problems
}

// packedManifest is what checkVSIX reads of the packed package.json.
type packedManifest struct {
	Version     string `json:"version"`
	Main        string `json:"main"`
	Icon        string `json:"icon"`
	Contributes struct {
		Languages []struct {
			Configuration string `json:"configuration"`
			Icon          struct {
				Light string `json:"light"`
				Dark  string `json:"dark"`
			} `json:"icon"`
		} `json:"languages"`
		Grammars []struct {
			Path string `json:"path"`
		} `json:"grammars"`
	} `json:"contributes"`
}

// namedFiles lists the files of the extension the manifest names: the
// icon, each language's configuration and file icons, each grammar.
func (m packedManifest) namedFiles() []string {
	var out []string
	add := func(f string) {
		if f != "" {
			out = append(out, f)
		}
	}
	add(m.Icon)
	for _, l := range m.Contributes.Languages {
		add(l.Configuration)
		add(l.Icon.Light)
		add(l.Icon.Dark)
	}
	for _, g := range m.Contributes.Grammars {
		add(g.Path)
	}
	return out
}

// checkSBOM checks that the SBOM is a CycloneDX document naming the
// server's module.
func checkSBOM(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return []string{err.Error()}
	}
	var bom struct {
		BOMFormat string `json:"bomFormat"`
		Metadata  struct {
			Component struct {
				Name string `json:"name"`
			} `json:"component"`
		} `json:"metadata"`
		Components []struct {
			Name string `json:"name"`
			Purl string `json:"purl"`
		} `json:"components"`
	}
	if err := json.Unmarshal(data, &bom); err != nil {
		return []string{fmt.Sprintf("not JSON: %v", err)}
	}
	if bom.BOMFormat != "CycloneDX" || bom.Metadata.Component.Name != "github.com/beeuni/beeuni-lsp" || len(bom.Components) == 0 {
		return []string{"not a CycloneDX SBOM of github.com/beeuni/beeuni-lsp and its modules"}
	}
	for _, c := range bom.Components {
		if strings.HasPrefix(c.Purl, "pkg:npm/vscode-languageclient@") {
			return nil
		}
	}
	return []string{"does not cover the JavaScript bundled into the extension (no pkg:npm/vscode-languageclient component)"}
}

// SameDist reports every difference between two dist/ folders: files only
// in one, files whose bytes differ.
func SameDist(a, b string) []string {
	na, err := assetNames(a)
	if err != nil {
		return []string{err.Error()}
	}
	nb, err := assetNames(b)
	if err != nil {
		return []string{err.Error()}
	}
	na, nb = append(na, ChecksumsName), append(nb, ChecksumsName)
	var problems []string
	inB := map[string]bool{}
	for _, n := range nb {
		inB[n] = true
	}
	for _, n := range na {
		if !inB[n] {
			problems = append(problems, fmt.Sprintf("%s: only in the first build", n))
			continue
		}
		delete(inB, n)
		da, errA := os.ReadFile(filepath.Join(a, n))
		db, errB := os.ReadFile(filepath.Join(b, n))
		if errA != nil || errB != nil || !bytes.Equal(da, db) {
			problems = append(problems, fmt.Sprintf("%s: the two builds differ", n))
		}
	}
	var onlyB []string
	for n := range inB {
		onlyB = append(onlyB, n)
	}
	sort.Strings(onlyB)
	for _, n := range onlyB {
		problems = append(problems, fmt.Sprintf("%s: only in the second build", n))
	}
	return problems
}
